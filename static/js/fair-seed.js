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
