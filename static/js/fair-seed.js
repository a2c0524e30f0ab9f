// A player's dice seed, made here in the browser (docs/fair-dice.md): 32
// random bytes from the browser's own generator, never from the server, so
// that the site cannot know it when it commits to its secret. Empty seed
// fields are filled once the page opens; "New seed" draws another.
(function () {
  "use strict";
  function newSeed() {
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  if (!window.crypto || !window.crypto.getRandomValues) return;
  document.querySelectorAll("input[data-seed-new]").forEach(function (field) {
    if (!field.value) field.value = newSeed();
  });
  // A seated player without a seed (the host, seated as the game was made,
  // before its commitment could be seen; a challenge accepted elsewhere)
  // saves the one just made, once per tab: a seed removed on purpose, by
  // submitting the form, stays removed.
  function flag(form) { return "seed-saved:" + form.getAttribute("action"); }
  function remember(form) { try { sessionStorage.setItem(flag(form), "1"); } catch (e) { /* private mode */ } }
  document.querySelectorAll("form.seed-form").forEach(function (form) {
    form.addEventListener("submit", function () { remember(form); });
  });
  // In the background, so that the page (and whatever its reader is doing
  // on it) stays as it is; the status line says how it went.
  var autosave = document.querySelector("form[data-seed-autosave]");
  if (autosave && window.fetch && window.FormData) {
    var done = false;
    try { done = sessionStorage.getItem(flag(autosave)) === "1"; } catch (e) { done = true; }
    var seedField = autosave.querySelector("input[name=seed]");
    var status = autosave.querySelector("[data-seed-status]");
    if (!done && seedField && seedField.value) {
      remember(autosave);
      fetch(autosave.action, {
        method: "POST",
        body: new FormData(autosave),
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      })
        .then(function (response) {
          if (!status) return;
          status.textContent = status.getAttribute(response.ok ? "data-saved" : "data-unsaved");
        }, function () {
          if (status) status.textContent = status.getAttribute("data-unsaved");
        });
    }
  }
  document.querySelectorAll("button[data-seed-refresh]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-seed-refresh"));
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      field.value = newSeed();
      field.focus();
    });
  });
})();
