// Live countdowns: every <time data-countdown datetime="..."> shows the time
// left. It reads the attribute on each tick, so swapped-in regions just work.
// Every <time data-local datetime="..."> shows its moment on this browser's
// clock: pushes are rendered once for many viewers, in UTC. The zone is the
// page's <meta name="time-zone"> (the one in the viewer's settings, else their
// browser's), so pushed times match the page's own. The shape is the server's
// (games.deadlines.format_deadline: "Sun 29 Nov, 00:48 UTC"), in one locale,
// and a swapped-in region is rewritten before it is painted, so a deadline
// never flips between two formats from one push to the next.
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
    hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "shortOffset"
  };
  var zone = document.querySelector('meta[name="time-zone"]');
  // UTC is also what the server says when it knows no zone yet (a first visit): the browser's then.
  if (zone && zone.content && zone.content !== "UTC") options.timeZone = zone.content;
  function make() {
    try {
      return new Intl.DateTimeFormat("en-GB", options);
    } catch (e) {
      return null;
    }
  }
  localFormat = make();
  if (!localFormat) {
    delete options.timeZone;  // a zone this browser does not know
    localFormat = make();
  }
  var utc = localFormat && /^(Etc\/)?UTC$/.test(localFormat.resolvedOptions().timeZone);
  // "Sun 29 Nov, 00:48 UTC", "Sun 29 Nov, 06:18 GMT+5:30": as the server writes it.
  function deadline(at) {
    var part = {};
    localFormat.formatToParts(at).forEach(function (p) { part[p.type] = p.value; });
    return part.weekday + " " + part.day + " " + part.month + ", " + part.hour + ":" +
      part.minute + " " + (utc ? "UTC" : part.timeZoneName.replace(/^GMT[+-]0$/, "GMT"));
  }
  function tick() {
    var now = Date.now();
    if (localFormat) {
      document.querySelectorAll("time[data-local]").forEach(function (el) {
        var at = Date.parse(el.getAttribute("datetime"));
        if (isNaN(at)) return;
        var text = deadline(new Date(at));
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
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    // A push or an answer swaps regions in: written over at once, before paint.
    new MutationObserver(function (records) {
      if (records.some(function (r) { return r.addedNodes.length && r.target.nodeType === 1 && !r.target.matches("time"); })) tick();
    }).observe(document.body, { childList: true, subtree: true });
  });
  setInterval(tick, 1000);
})();
