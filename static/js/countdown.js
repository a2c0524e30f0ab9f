// Live countdowns: every <time data-countdown datetime="..."> shows the time
// left. It reads the attribute on each tick, so swapped-in regions just work.
// Every <time data-local datetime="..."> shows its moment on this browser's
// clock ("Fri 18:00 CET"): pushes are rendered once for many viewers, in UTC.
// The zone is the page's <meta name="time-zone"> (the one in the viewer's
// settings, else their browser's), so pushed times match the page's own.
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
  var localFormat = null;
  var options = {
    weekday: "short", day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit", timeZoneName: "short"
  };
  var zone = document.querySelector('meta[name="time-zone"]');
  if (zone && zone.content && zone.content !== "UTC") options.timeZone = zone.content;
  try {
    localFormat = new Intl.DateTimeFormat(undefined, options);
  } catch (e) {
    try {
      delete options.timeZone;  // a zone this browser does not know
      localFormat = new Intl.DateTimeFormat(undefined, options);
    } catch (e2) { /* the server's UTC text stays */ }
  }
  function tick() {
    var now = Date.now();
    if (localFormat) {
      document.querySelectorAll("time[data-local]").forEach(function (el) {
        var at = Date.parse(el.getAttribute("datetime"));
        if (isNaN(at)) return;
        var text = localFormat.format(new Date(at));
        if (el.textContent !== text) el.textContent = text;
      });
    }
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
