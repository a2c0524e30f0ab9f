// An event's page (templates/tournaments/detail.html) marks the viewer's own
// rows in the standings and the tables. The regions are rendered once for
// every viewer (tournaments/live.py), so the marking is done here, on load
// and again after each swap of a region (a join's answer, a socket's push).
(function () {
  "use strict";

  function mark() {
    var page = document.querySelector("[data-viewer]");
    if (!page) return;
    var me = page.getAttribute("data-viewer");
    page.querySelectorAll("[data-user]").forEach(function (el) {
      if (el.getAttribute("data-user") !== me || el.classList.contains("is-you")) return;
      el.classList.add("is-you");
      if (el.tagName === "TR") el.setAttribute("aria-current", "true");
    });
  }

  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  document.addEventListener("htmx:oobAfterSwap", mark);
  document.addEventListener("htmx:wsAfterMessage", mark);
})();
