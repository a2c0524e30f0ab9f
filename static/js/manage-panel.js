// "Manage property" (#manage-property, in the action panel) is a <details>:
// folded on a phone, so that the board comes soon after the decision; open on
// a wide screen. The panel is replaced by every push, snapshot and answer,
// each rendered folded for everyone, so the reader's own choice (kept for
// this tab) is put back on whichever panel is in the page, before it is
// painted: a push never opens or folds it against them.
(function () {
  "use strict";
  var KEY = "manage-property-open";
  var wide = window.matchMedia("(min-width: 961px)");
  var chosen = null; // this page's choice, should the storage be refused

  function wanted() {
    if (chosen !== null) return chosen;
    try {
      var kept = window.sessionStorage.getItem(KEY);
      if (kept === "1") return true;
      if (kept === "0") return false;
    } catch (e) { /* storage refused: the screen's default */ }
    return wide.matches;
  }

  function apply() {
    var details = document.getElementById("manage-property");
    if (!details) return;
    var open = wanted();
    if (details.open !== open) details.open = open;
  }

  // The summary's click (or Enter/Space, which click it) toggles after this
  // listener: the choice is the opposite of the state now.
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("#manage-property > summary");
    if (!summary) return;
    chosen = !summary.parentElement.open;
    try {
      window.sessionStorage.setItem(KEY, chosen ? "1" : "0");
    } catch (e) { /* storage refused: the choice lasts as long as the page */ }
  });

  new MutationObserver(apply).observe(document.body, { childList: true, subtree: true });
  apply();
})();
