// The home page's small boards of games in play (templates/home.html). Each
// card ([data-live-board]) opens its game's WebSocket as a spectator, the
// same socket a spectator's game page opens, so it is sent exactly what any
// spectator is sent. From each versioned frame ("<!--push N-->", "<!--push N
// after B-->" or "<!--snapshot N-->", live/broadcast.py) it takes the board's live layer
// (the #board region) and the turn line, and ignores the rest. A frame older
// than the card's version is dropped. Every connect brings a snapshot, so a
// socket that closed reconnects (with backoff) and catches up; a refusal
// (4400, 4403, and 4429 for an account with too many sockets open) is final.
(function () {
  "use strict";
  var FRAME = /^<!--(push|snapshot) (\d+)(?: after \d+)?-->/;
  var REFUSED = [4400, 4403, 4429];
  var MAX_DELAY = 30000;

  // As live/watch.py's mini_board: the ids of a board name its squares on
  // the game page, and would repeat across the cards.
  function clean(svg) {
    svg.querySelectorAll("[id]").forEach(function (el) {
      if (el.id !== "mb-hatch") el.removeAttribute("id");
    });
    [svg].concat(Array.prototype.slice.call(svg.querySelectorAll("[aria-labelledby], [aria-describedby]"))).forEach(function (el) {
      el.removeAttribute("aria-labelledby");
      el.removeAttribute("aria-describedby");
    });
    if (svg.id !== "mb-hatch") svg.removeAttribute("id");
    return svg;
  }

  function apply(card, text) {
    var frame = FRAME.exec(text);
    if (!frame) return;
    var version = parseInt(frame[2], 10);
    if (version < (parseInt(card.getAttribute("data-version"), 10) || 0)) return;
    var doc = new DOMParser().parseFromString(text, "text/html");
    var board = doc.getElementById("board");
    var svg = board && board.querySelector("svg");
    var live = card.querySelector(".mini-live");
    if (svg && live) live.replaceChildren(clean(document.importNode(svg, true)));
    var line = doc.querySelector("#status .turn-line");
    var caption = card.querySelector("[data-turn-line]");
    if (line && caption) caption.textContent = line.textContent.trim();
    card.setAttribute("data-version", String(version));
    card.setAttribute("data-live", "on"); // up to date with the game's socket
  }

  function connect(card, attempt) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // "glance": a spectator's view that counts as nobody watching the game.
    var socket = new WebSocket(scheme + location.host + card.getAttribute("data-live-board") + "?glance=1");
    socket.addEventListener("open", function () { attempt = 0; });
    socket.addEventListener("message", function (event) {
      if (typeof event.data === "string") apply(card, event.data);
    });
    socket.addEventListener("close", function (event) {
      if (REFUSED.indexOf(event.code) >= 0 || !document.body.contains(card)) return;
      var delay = Math.min(MAX_DELAY, 1000 * Math.pow(2, attempt)) * (0.75 + Math.random() / 2);
      setTimeout(function () { connect(card, attempt + 1); }, delay);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live-board]").forEach(function (card) { connect(card, 0); });
  });
})();
