// Behaviour that pages would otherwise write inline (onclick=, hx-on):
// the Content-Security-Policy runs no inline script, so it lives here.
(function () {
  "use strict";
  // A chat message that was sent leaves an empty box for the next one.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (event.detail.successful && form && form.matches && form.matches("form[data-reset-when-sent]")) {
      form.reset();
    }
  });
  // The server shows times on this browser's clock unless the account chose
  // a zone (accounts/middleware.py reads this cookie).
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && document.cookie.indexOf("tz=" + zone) === -1) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
    }
  } catch (e) { /* no Intl: UTC */ }
  // The phone's menu toggle (without script, its link opens the menu by :target).
  var toggle = document.querySelector(".nav-toggle");
  var menu = document.getElementById("site-menu");
  if (toggle && menu) {
    toggle.addEventListener("click", function (event) {
      event.preventDefault();
      var open = menu.classList.toggle("is-open");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }
  // One click selects the whole invite link, ready to copy.
  document.addEventListener("click", function (event) {
    var field = event.target;
    if (field && field.matches && field.matches("input[data-select-on-click]")) field.select();
  });
})();
