// Live updates over the htmx WebSocket extension (hx-ext="ws,live").
//
// The server frames each message: "<!--push N-->" for the regions of game
// version N, built on version N-1 ("<!--push N after B-->": on version B, for
// a move that set off standing orders or instant bots and so committed the
// versions between at once), "<!--snapshot N-->" for every region (sent on
// each connect and on request), "<!--live-->" for chat, presence and lobby lists, and
// "<!--reload-->" for a page to fetch itself afresh. A region is
// swapped in only when it is newer than what the page shows, so stale and
// duplicate pushes are dropped; a push built on a version the page does not
// show yet (one was missed) asks for a fresh snapshot instead. The socket reconnects by itself after any close, with
// jittered backoff, and every reconnect brings a snapshot (not after a
// refusal, 4400 or 4403; after its session ended, or on coming back as
// someone other than the page was drawn for, 4401, the page reloads).
// The answer to the page's own move is framed as that version's push and
// checked the same way.
//
// A gap is noticed only when the next push comes, and a lost push may be the
// game's last for a long while. So a socket element with data-heartbeat
// (seconds; the game page has it) asks now and then whether it is behind:
// after that long without a versioned frame (a push or a snapshot: chat and
// presence frames say nothing of the game's version, and on a busy page they
// would put the check off for ever), give or take a sixth (25-35 s for 30, so
// that pages opened together do not ask together), and at once when the tab
// is shown again (background tabs' timers are throttled), it sends
// {"type": "resync", "since": N} with the oldest version it shows, and the
// server answers with a snapshot only if the game is past N. A reconnect
// needs none: it brings a snapshot.
(function () {
  "use strict";
  var FRAME = /^<!--(push|snapshot|live|reload)(?: (\d+)(?: after (\d+))?)?-->/;
  // Our own "do not come back" codes; 4429: the account has too many live
  // pages open (SOCKETS_PER_ACCOUNT), where coming back would only be refused.
  var REFUSED = [4400, 4403, 4429];
  // The session that opened the socket ended (logout, password change): the
  // page itself may show what only that session could see, so it is loaded
  // afresh (as whoever the browser now is) rather than reconnected. Not at
  // once: the request that ended it may still be setting the browser's new
  // session cookie (a password change replaces it just after the close).
  var SESSION_ENDED = 4401;
  var SESSION_RELOAD_MS = 1000;
  var EXT_RETRIES = [1006, 1011, 1012, 1013]; // the extension retries these itself
  // 4503: the server cannot serve live updates for a moment (Redis is
  // down); like any other close it is retried below, with backoff.
  var api = null;
  var sockets = new WeakMap(); // socket element -> socket wrapper
  var retries = new WeakMap();
  var heartbeats = new WeakMap(); // socket element -> its heartbeat's timer

  function regionVersion(id) {
    var el = id && document.getElementById(id);
    if (!el || !el.hasAttribute("data-version")) return -1;
    return parseInt(el.getAttribute("data-version"), 10);
  }

  function shownVersion(root) {
    var max = -1;
    root.querySelectorAll("[data-version]").forEach(function (el) {
      max = Math.max(max, parseInt(el.getAttribute("data-version"), 10) || 0);
    });
    return max;
  }

  // A push may carry a region as a delta: a marker <template data-delta=ID
  // data-version=N data-since=B> and pieces [data-delta-of=ID] that add to
  // what the page shows (e.g. new log lines on top). They apply only to the
  // region at version B (N-1 if not said): dropped when it is already at N
  // or newer; any other version means something was missed, so the caller
  // resyncs (returns false).
  function applyDeltas(content, version) {
    var ok = true;
    var children = Array.prototype.slice.call(content.children);
    children.filter(function (child) {
      return child.tagName === "TEMPLATE" && child.hasAttribute("data-delta");
    }).forEach(function (marker) {
      var id = marker.getAttribute("data-delta");
      var have = regionVersion(id);
      var limit = parseInt(marker.getAttribute("data-limit"), 10) || 0;
      var since = marker.hasAttribute("data-since") ? parseInt(marker.getAttribute("data-since"), 10) : version - 1;
      marker.remove();
      if (have === since) {
        document.getElementById(id).setAttribute("data-version", String(version));
        if (limit) setTimeout(function () { trim(id, limit); }, 0);
        return;
      }
      children.forEach(function (piece) {
        if (piece.getAttribute("data-delta-of") === id) piece.remove();
      });
      if (have >= 0 && have < version) ok = false;
    });
    return ok;
  }

  // Keep a region that grows by deltas (the log) at the length a full
  // render has: drop its oldest lines, and groups left empty.
  function trim(id, limit) {
    var region = document.getElementById(id);
    if (!region) return;
    var lines = region.querySelectorAll(".log-lines > li");
    for (var i = lines.length - 1; i >= limit; i--) {
      var list = lines[i].parentNode;
      lines[i].remove();
      if (!list.children.length && list.closest(".log-turn")) list.closest(".log-turn").remove();
    }
  }

  // The oldest version the page shows: what the heartbeat asks about, so
  // that a region left behind (a seat's push missed, the public one not)
  // counts too. A region that trails the game by design (data-trails: the
  // spectators' win bar, for an estimate some moves old) does not.
  function heldVersion(root) {
    var min = -1;
    root.querySelectorAll("[data-version]:not([data-trails])").forEach(function (el) {
      var version = parseInt(el.getAttribute("data-version"), 10);
      if (version >= 0 && (min < 0 || version < min)) min = version;
    });
    return min;
  }

  function scheduleHeartbeat(elt) {
    clearTimeout(heartbeats.get(elt));
    var seconds = parseFloat(elt.getAttribute("data-heartbeat"));
    if (!(seconds > 0)) return;
    var delay = seconds * 1000 * (5 / 6 + Math.random() / 3);
    heartbeats.set(elt, setTimeout(function () { heartbeat(elt); }, delay));
  }

  function heartbeat(elt) {
    var socket = sockets.get(elt);
    if (!socket || !document.body.contains(elt)) return; // a reconnect brings a snapshot
    var since = heldVersion(elt);
    if (since >= 0) socket.send(JSON.stringify({ type: "resync", since: since }));
    scheduleHeartbeat(elt);
  }

  // Whether the page is in front of its reader: a player looking at the game
  // gets no "your move" notice or email for it (notifications/decisions.py).
  function tellVisibility(elt) {
    var socket = sockets.get(elt);
    if (socket && elt.hasAttribute("data-heartbeat")) {
      socket.send(JSON.stringify({ type: "visibility", visible: document.visibilityState === "visible" }));
    }
  }

  document.addEventListener("visibilitychange", function () {
    document.querySelectorAll("[ws-connect][data-heartbeat]").forEach(tellVisibility);
    if (document.visibilityState !== "visible") return;
    document.querySelectorAll("[ws-connect][data-heartbeat]").forEach(heartbeat);
  });

  function resync(elt) {
    var socket = sockets.get(elt);
    if (socket) {
      socket.send(JSON.stringify({ type: "resync" }));
    } else if (elt.dataset && elt.dataset.regions) {
      htmx.ajax("GET", elt.dataset.regions, { source: elt, swap: "none" });
    }
  }

  // The answer to this page's own move (an htmx response) is framed like
  // that version's push: its first region, the action panel, is the
  // request's own swap target and always kept; the rest, out of band, go
  // through the same checks as a push, so that the push of the same version,
  // arriving before or after it, changes nothing twice.
  function isOwnTarget(child) {
    return !child.hasAttribute("hx-swap-oob") && !child.hasAttribute("data-delta-of");
  }

  function keepOwnTarget(content) {
    Array.prototype.slice.call(content.children).forEach(function (child) {
      if (!isOwnTarget(child)) child.remove();
    });
  }

  htmx.defineExtension("live", {
    init: function (apiRef) {
      api = apiRef;
    },
    transformResponse: function (text, xhr, elt) {
      var match = FRAME.exec(text);
      // An htmx response is taken as it is unless it is a move's answer.
      if (xhr && (!match || match[1] !== "push")) return text;
      if (!match || match[1] === "live") return text;
      if (match[1] === "reload") {
        window.location.reload(); // a page that differs per viewer: fetch it afresh
        return "";
      }
      var version = parseInt(match[2], 10);
      var since = match[3] !== undefined ? parseInt(match[3], 10) : version - 1;
      var socketElt = elt.closest("[ws-connect]");
      var root = socketElt || document;
      var shown = shownVersion(root);
      var tpl = document.createElement("template");
      tpl.innerHTML = xhr ? text.replace(FRAME, "") : text;
      if (match[1] === "push" && shown >= 0 && since > shown) {
        resync(socketElt || elt); // we missed a version: ask for everything afresh
        if (!xhr) return "";
        keepOwnTarget(tpl.content);
        return tpl.innerHTML;
      }
      if (!applyDeltas(tpl.content, version)) {
        resync(socketElt || elt); // a region is not at the version its delta builds on
        if (!xhr) return "";
        keepOwnTarget(tpl.content);
        return tpl.innerHTML;
      }
      Array.prototype.slice.call(tpl.content.children).forEach(function (child) {
        if (xhr && isOwnTarget(child)) return;
        if (child.hasAttribute("data-version") && regionVersion(child.id) >= version) {
          child.remove(); // the page already shows this version (or newer)
        }
      });
      return tpl.innerHTML;
    },
  });

  document.addEventListener("htmx:wsOpen", function (event) {
    sockets.set(event.target, event.detail.socketWrapper);
    retries.set(event.target, 0);
    event.target.classList.remove("is-offline");
    // The server joins a socket to its groups before accepting it: from
    // here on the page hears every push (tests wait for this, not a delay).
    event.target.setAttribute("data-socket", "open");
    scheduleHeartbeat(event.target);
    if (document.visibilityState !== "visible") tellVisibility(event.target);
  });

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var match = FRAME.exec(event.detail.message);
    if (match && match[2] !== undefined) scheduleHeartbeat(event.target); // quiet since now
  });

  document.addEventListener("htmx:wsClose", function (event) {
    var elt = event.target;
    var code = event.detail.event.code;
    sockets.delete(elt);
    clearTimeout(heartbeats.get(elt));
    elt.classList.add("is-offline");
    elt.setAttribute("data-socket", "closed");
    if (!document.body.contains(elt) || REFUSED.indexOf(code) >= 0) return;
    if (code === SESSION_ENDED) {
      setTimeout(function () { window.location.reload(); }, SESSION_RELOAD_MS * (1 + Math.random()));
      return;
    }
    if (EXT_RETRIES.indexOf(code) >= 0) return;
    // A clean close (Daphne's 24-hour limit, a restart, a proxy): come back.
    // Full jitter, doubling up to 8 s: a restarted Daphne's sockets come
    // back spread over a few seconds, and a page never waits long once the
    // site answers again (a 32 s cap kept spectators behind for half a
    // minute after a short outage in the soak).
    var tries = retries.get(elt) || 0;
    retries.set(elt, tries + 1);
    var delay = Math.random() * 1000 * Math.pow(2, Math.min(tries, 3));
    setTimeout(function () {
      if (document.body.contains(elt) && !sockets.has(elt)) {
        event.detail.socketWrapper.reconnect();
      }
    }, delay);
  });
})();
