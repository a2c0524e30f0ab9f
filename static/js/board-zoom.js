// Phones: the board's squares are too small to read at the screen's width,
// so a toggle shows it twice as wide, scrolled to the token of the player to
// move. The zoom survives pushes (only the region over the board changes).
(function () {
  "use strict";
  var stack = document.querySelector(".board-stack");
  var button = stack && stack.querySelector(".board-zoom");
  if (!button) return;
  var scroller = stack.querySelector(".board-scroll");
  button.hidden = false;
  function centre() {
    var token = stack.querySelector(".token.current") || stack.querySelector(".token");
    if (!token) return;
    var box = token.getBoundingClientRect(), view = scroller.getBoundingClientRect();
    scroller.scrollLeft += box.left + box.width / 2 - (view.left + view.width / 2);
    scroller.scrollTop += box.top + box.height / 2 - (view.top + view.height / 2);
  }
  button.addEventListener("click", function () {
    var zoomed = stack.classList.toggle("zoomed");
    button.setAttribute("aria-pressed", zoomed ? "true" : "false");
    button.textContent = zoomed ? "Zoom out" : "Zoom in";
    if (zoomed) centre();
  });
})();
