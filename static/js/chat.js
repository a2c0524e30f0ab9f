// The chat keeps its newest message in view: a log follows what arrives
// while its reader is at the bottom. A reader who has scrolled up to read
// is left where they are, and a "New messages" button under the log says
// that more came; it scrolls down. Sending a message scrolls down too.
(function () {
  "use strict";
  var SLACK = 24; // px from the bottom that still counts as at the bottom

  function atBottom(log) {
    return log.scrollHeight - log.scrollTop - log.clientHeight <= SLACK;
  }

  function button(log) {
    var next = log.nextElementSibling;
    if (next && next.classList.contains("chat-new")) return next;
    next = document.createElement("button");
    next.type = "button";
    next.className = "chat-new small secondary";
    next.textContent = "New messages ↓";
    next.hidden = true;
    log.after(next);
    return next;
  }

  function toBottom(log) {
    log.scrollTop = log.scrollHeight;
    log.removeAttribute("data-scrolled-up");
    var next = log.nextElementSibling;
    if (next && next.classList.contains("chat-new")) next.hidden = true;
  }

  function arrived(log) {
    if (log.hasAttribute("data-scrolled-up")) button(log).hidden = false;
    else toBottom(log);
  }

  function settle(root) {
    root.querySelectorAll(".chat-log").forEach(function (log) { toBottom(log); });
  }

  // Scroll events do not bubble: listen in the capture phase.
  document.addEventListener("scroll", function (event) {
    var log = event.target;
    if (!log.classList || !log.classList.contains("chat-log")) return;
    if (atBottom(log)) toBottom(log);
    else log.setAttribute("data-scrolled-up", "");
  }, true);

  document.addEventListener("click", function (event) {
    var next = event.target.closest && event.target.closest("button.chat-new");
    if (next && next.previousElementSibling) toBottom(next.previousElementSibling);
  });

  document.addEventListener("submit", function (event) {
    var room = event.target.closest && event.target.closest(".chat-room");
    var log = room && room.querySelector(".chat-log");
    if (log) toBottom(log);
  });

  // New messages are appended to a log by a push; a resync replaces the
  // whole chat region, which then starts at its newest message.
  new MutationObserver(function (mutations) {
    mutations.forEach(function (mutation) {
      var target = mutation.target;
      if (target.classList && target.classList.contains("chat-log")) {
        if (mutation.addedNodes.length) arrived(target);
        return;
      }
      mutation.addedNodes.forEach(function (node) {
        if (node.nodeType === 1 && (node.id === "chat" || node.querySelector && node.querySelector(".chat-log"))) settle(node);
      });
    });
  }).observe(document.body, { childList: true, subtree: true });

  settle(document);
})();
