// The replay viewer (templates/games/replay.html). Every step is an htmx GET
// of the replay region, which the server renders (games/web/replay_views.py);
// this file only adds what needs a script: autoplay with a speed, the arrow
// keys (Left/Right one move, Home/End the first/last), the slider's reading
// while it is dragged, and a polite announcement of each new position.
// Without it the links and forms work as plain page loads.
(function () {
  "use strict";
  var timer = null;

  function region() { return document.getElementById("replay-region"); }

  function link(id) {
    var el = document.getElementById(id);
    return el && el.getAttribute("aria-disabled") !== "true" ? el : null;
  }

  function go(id) {
    var el = link(id);
    if (el) el.click();
    return !!el;
  }

  function playButton() { return document.getElementById("replay-play"); }

  function setPlaying(on) {
    var button = playButton();
    clearTimeout(timer);
    timer = null;
    if (!button) return;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "❚❚ Pause" : "▶ Play";
    if (on) schedule();
  }

  function playing() {
    var button = playButton();
    return !!button && button.getAttribute("aria-pressed") === "true";
  }

  function delay() {
    var speed = document.getElementById("replay-speed");
    return parseInt(speed && speed.value, 10) || 700;
  }

  // One move forward, then the next once it has been swapped in. Autoplay
  // replaces the URL instead of pushing one entry per move.
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var next = link("replay-next");
      var area = region();
      if (!next || !area) { setPlaying(false); return; }
      var url = next.getAttribute("href");
      htmx.ajax("GET", url, { source: area, target: "#replay-region", swap: "outerHTML" }).then(function () {
        history.replaceState(history.state, "", url);
      });
    }, delay());
  }

  function typing(target) {
    if (!target || !target.closest) return false;
    return !!target.closest("input, select, textarea, [contenteditable]");
  }

  document.addEventListener("keydown", function (event) {
    if (!region() || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target)) return; // the slider and boxes keep their own keys
    var ids = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
    var id = ids[event.key];
    if (!id) return;
    event.preventDefault();
    if (playing()) setPlaying(false);
    go(id);
  });

  // The slider shows the move it points at while it is dragged; the step is
  // fetched when it is let go (its change event).
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "replay-step") {
      var position = document.getElementById("replay-position");
      var area = region();
      if (position && area) position.textContent = "Move " + event.target.value + " of " + area.getAttribute("data-steps");
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("#replay-play");
    if (button) setPlaying(!playing());
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!region()) return;
    var status = document.getElementById("replay-status");
    var position = document.getElementById("replay-position");
    if (status && position) status.textContent = position.textContent.replace(/\s+/g, " ").trim();
    if (playing()) {
      if (link("replay-next")) schedule(); else setPlaying(false);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.classList.add("replay-js");
    var controls = document.querySelector("[data-autoplay]");
    if (controls) controls.hidden = false;
  });
})();
