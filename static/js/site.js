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
  // One click selects the whole invite link, ready to copy.
  document.addEventListener("click", function (event) {
    var field = event.target;
    if (field && field.matches && field.matches("input[data-select-on-click]")) field.select();
  });
})();
