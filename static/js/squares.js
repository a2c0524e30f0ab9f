// Every board square opens its card (issue #18): a title deed, a deck's
// count or a rule line, rendered by the server (/games/<id>/square/<n>) into
// the page's one <dialog id="square-card">. The dialog lies outside every
// pushed region, so a push never destroys it; an open card is fetched again
// when a push redraws the board, so it shows the position it describes.
(function () {
  "use strict";

  var dialog = document.getElementById("square-card");
  if (!dialog || typeof dialog.showModal !== "function") return;
  var content = dialog.querySelector(".square-card-content");
  var base = dialog.getAttribute("data-url");
  var current = -1;
  // A replay's step: the region's own (it changes without a page load), else
  // the one the page came with.
  function stepNow() {
    var region = document.getElementById("replay-region");
    return region ? region.getAttribute("data-step") : dialog.getAttribute("data-step");
  }
  var opener = null;
  var loads = 0;

  function load(square) {
    var mine = ++loads;
    var step = stepNow();
    var url = base + square + (step !== null ? "?step=" + encodeURIComponent(step) : "");
    return fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        if (mine === loads) content.innerHTML = html; // our own server's escaped partial
      })
      .catch(function () {
        if (mine !== loads) return;
        content.textContent = "";
        var p = document.createElement("p");
        p.id = "square-card-title";
        p.textContent = "This square's card could not be loaded. Try again in a moment.";
        content.appendChild(p);
      });
  }

  function open(square, from) {
    opener = from || document.activeElement;
    current = square;
    if (!dialog.open) {
      content.textContent = "";
      dialog.showModal();
    }
    load(square);
  }

  // The square (or token, or property list entry) that was activated.
  function squareOf(target) {
    if (!target || !target.closest) return null;
    var listed = target.closest("[data-open-square]");
    if (listed) return { square: listed.getAttribute("data-open-square"), elt: listed };
    var board = target.closest("[data-squares]");
    if (!board) return null;
    var elt = target.closest("[data-square], [data-sq]");
    if (!elt || !board.contains(elt)) return null;
    var sq = elt.getAttribute("data-square") || elt.getAttribute("data-sq");
    // The owner of the focus is the square's button, not a token or the live layer.
    var key = board.querySelector('[data-square="' + sq + '"]');
    return { square: sq, elt: key || elt };
  }

  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.defaultPrevented) return;
    var hit = squareOf(event.target);
    if (!hit) return;
    event.preventDefault();
    open(hit.square, hit.elt);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var elt = event.target;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-square")) return;
    event.preventDefault();
    open(elt.getAttribute("data-square"), elt);
  });

  // A click on the backdrop (outside the card's box) closes it.
  dialog.addEventListener("click", function (event) {
    if (event.target !== dialog) return;
    var box = dialog.getBoundingClientRect();
    var inside = event.clientX >= box.left && event.clientX <= box.right &&
      event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) dialog.close();
  });

  dialog.addEventListener("close", function () {
    var back = opener;
    if (!back || !back.isConnected) {
      // A push may have redrawn the list the card was opened from.
      back = document.querySelector('[data-open-square="' + current + '"]') ||
        document.querySelector('[data-square="' + current + '"]');
    }
    current = -1;
    opener = null;
    if (back && typeof back.focus === "function") back.focus();
  });

  // A push (or an answer) redrew the board: the open card follows it.
  document.body.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (dialog.open && current >= 0 && target && target.id === "board") load(current);
  });
})();
