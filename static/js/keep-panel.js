// A background refresh must not wipe a form the player is filling in:
// keep the panel and say that the game moved on. Sending the form then
// answers with the current position (the version check refuses it).
document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
  var panel = event.detail.target;
  if (!panel || panel.id !== "actions") return;
  var active = document.activeElement;
  var typing = active && panel.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  var composing = panel.querySelector("details[open]");
  if (typing || composing) {
    event.detail.shouldSwap = false;
    var note = panel.querySelector(".stale-note");
    if (note) note.hidden = false;
  }
});
