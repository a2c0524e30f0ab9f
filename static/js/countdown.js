// Live countdowns: every <time data-countdown datetime="..."> shows the time
// left. It reads the attribute on each tick, so swapped-in regions just work.
(function () {
  "use strict";
  function left(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    var m = Math.floor((s % 3600) / 60), sec = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    if (d) return d + "d " + h + "h";
    if (h) return h + "h " + pad(m) + "m";
    if (m) return m + "m " + pad(sec) + "s";
    return sec + "s";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var due = Date.parse(el.getAttribute("datetime"));
      if (isNaN(due)) return;
      var text = due <= now ? "time is up" : left(due - now) + " left";
      if (el.textContent !== text) el.textContent = text;
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 1000);
})();
