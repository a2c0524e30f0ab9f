// A conversation's messages come twice to the page that sent one: as the
// answer to its post and over the socket. Each has its id, so the later
// copy is dropped. The newest message is kept in view.
(function () {
  "use strict";

  function dropRepeats(list) {
    var seen = {};
    Array.prototype.slice.call(list.children).forEach(function (item) {
      if (!item.id) return;
      if (seen[item.id]) item.remove();
      else seen[item.id] = true;
    });
  }

  function toBottom(list) {
    var last = list.lastElementChild;
    if (last && last.scrollIntoView) last.scrollIntoView({ block: "nearest" });
  }

  new MutationObserver(function (mutations) {
    var list = document.getElementById("messages");
    if (!list) return;
    var grew = mutations.some(function (m) { return m.addedNodes.length; });
    if (!grew) return;
    dropRepeats(list);
  }).observe(document.body, { childList: true, subtree: true });

  document.addEventListener("htmx:afterRequest", function (event) {
    var list = document.getElementById("messages");
    if (list && event.detail.successful) toBottom(list);
  });
})();
