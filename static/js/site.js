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
  // Forms pushed over the WebSocket are rendered once for many viewers, so
  // they carry no CSRF token of their own: htmx sends the page's (the
  // hx-headers on <body>), and a form that is posted the plain way gets it
  // here, as a field, before it leaves. (Without JavaScript the server's
  // refusal says to reload the page: common/csrf.py.)
  function pageToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    if (new URL(form.action, location.href).origin !== location.origin) return; // never send it away
    var token = pageToken();
    if (!token) return;
    var field = document.createElement("input");
    field.type = "hidden";
    field.name = "csrfmiddlewaretoken";
    field.value = token;
    form.appendChild(field);
  }, true);
  // The server shows times on this browser's clock unless the account chose
  // a zone (accounts/middleware.py reads this cookie).
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && document.cookie.indexOf("tz=" + zone) === -1) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
    }
  } catch (e) { /* no Intl: UTC */ }
  // A note that something worked ("The game has started.") is news for a
  // moment; a game's page stays open for hours, so it goes after a while.
  // Errors stay until the page changes.
  document.querySelectorAll(".messages .message.success, .messages .message.info").forEach(function (note) {
    setTimeout(function () {
      var list = note.parentElement;
      note.remove();
      if (list && !list.children.length) list.remove();
    }, 8000);
  });
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
  // A Copy button (data-copy="<field id>") copies its field through the
  // Clipboard API; where that is missing or refused, it selects the text
  // for the reader to copy, and says which it did.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var id = button.getAttribute("data-copy");
    var field = document.getElementById(id);
    var status = document.querySelector('[data-copy-status="' + id + '"]');
    if (!field) return;
    function say(text) { if (status) status.textContent = text; }
    function selectIt() {
      field.focus();
      field.select();
      say("Selected: press Ctrl+C (or ⌘C) to copy.");
    }
    say("");
    if (!navigator.clipboard || !window.isSecureContext) { selectIt(); return; }
    navigator.clipboard.writeText(field.value).then(function () { say("Copied."); }, selectIt);
  });
})();
