// The tab says when something waits for this person: "(1) Your move: Game
// abc" and a badge on the favicon. A game page marks its pending region
// [data-your-move]; the lobby's "Your games" marks rows tr.your-move. Both
// come with the page and with every push, so the title follows the game.
(function () {
  "use strict";
  var PREFIX = /^\(\d+\) Your move: /;
  var base = document.title.replace(PREFIX, "");
  var icon = document.querySelector("link[rel=icon][data-your-move-icon]");
  function update() {
    var count = document.querySelectorAll("[data-your-move], tr.your-move").length;
    var title = count ? "(" + count + ") Your move: " + base : base;
    if (document.title !== title) document.title = title;
    if (icon) {
      var href = count ? icon.dataset.yourMoveIcon : icon.dataset.plain;
      if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    }
  }
  update();
  document.addEventListener("htmx:afterSettle", update);
  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("htmx:oobAfterSwap", update);
})();
