// Two regions are replaced while the player may be typing in them: the
// action panel (#actions), by every push, and the chat (#chat), by every
// snapshot (on connect, after a gap, at the end). Two things must survive
// that:
//
// - A request sent from the region. Its answer comes back to the region it
//   was sent from; replaced meanwhile (the push of the same move often
//   arrives first), that region is no longer in the page, and htmx would
//   look for the answer's out-of-band regions in the detached one and
//   complain that none is there (htmx:oobErrorNoTarget); a chat message's
//   form would be emptied after it was replaced, and the new one would show
//   the message already sent. So a pushed region waits until the request is
//   over (and its form was reset), and is put in only if it is newer than
//   the answer's.
// - What the player is typing or choosing there (a bid, a trade, a chat
//   message). The new region goes in, with the values, open disclosures,
//   focus and caret carried over to the same fields: the panel's forms carry
//   the new version, so what is sent is judged against the current
//   position. When a field the player had filled in is gone, the panel says
//   that the game moved on.
(function () {
  "use strict";
  var KEPT = ["actions", "chat"]; // the ids of the regions kept this way
  var held = {}; // per region, a pushed one waiting for the region's request to end
  var carried = {}; // per region, what the player had in the one replaced

  // A region without a version (the chat) is as new as any.
  function version(el) {
    if (!el) return -1;
    return el.hasAttribute("data-version") ? parseInt(el.getAttribute("data-version"), 10) || 0 : Infinity;
  }

  function newer(incoming, shown) {
    var a = version(incoming);
    return a === Infinity || a > version(shown);
  }

  function busy(region) {
    return region.classList.contains("htmx-request") || !!region.querySelector(".htmx-request");
  }

  function formKey(form) {
    if (!form) return "";
    var parts = [];
    form.querySelectorAll("input[type=hidden]").forEach(function (h) {
      if (h.name !== "expected_version" && h.name !== "csrfmiddlewaretoken") parts.push(h.name + "=" + h.value);
    });
    return (form.getAttribute("action") || "") + "?" + parts.join("&");
  }

  function controlKey(el) {
    var choice = el.type === "checkbox" || el.type === "radio" ? el.value : "";
    return formKey(el.form) + "|" + el.name + "|" + choice;
  }

  function detailsKey(details) {
    return formKey(details.querySelector("form") || details.closest("form")) + "|" + details.className;
  }

  function controls(panel) {
    return Array.prototype.filter.call(panel.querySelectorAll("input, select, textarea"), function (el) {
      return el.name && el.type !== "hidden";
    });
  }

  function changed(el) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return el.value !== el.defaultValue;
  }

  function capture(panel) {
    var state = { values: {}, open: {}, focus: null, any: false };
    controls(panel).forEach(function (el) {
      if (!changed(el)) return;
      state.values[controlKey(el)] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
      state.any = true;
    });
    panel.querySelectorAll("details[open]").forEach(function (d) {
      state.open[detailsKey(d)] = true;
      state.any = true;
    });
    var active = document.activeElement;
    if (active && panel.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) && active.name) {
      state.focus = { key: controlKey(active), start: null, end: null };
      try {
        state.focus.start = active.selectionStart;
        state.focus.end = active.selectionEnd;
      } catch (e) { /* a number field has no selection */ }
      state.any = true;
    }
    return state.any ? state : null;
  }

  function restore(panel, state) {
    var lost = false;
    var found = {};
    controls(panel).forEach(function (el) {
      var key = controlKey(el);
      if (!(key in state.values)) return;
      found[key] = true;
      if (el.type === "checkbox" || el.type === "radio") el.checked = state.values[key];
      else el.value = state.values[key];
    });
    Object.keys(state.values).forEach(function (key) { if (!found[key]) lost = true; });
    panel.querySelectorAll("details").forEach(function (d) {
      if (state.open[detailsKey(d)]) d.open = true;
    });
    if (state.focus) {
      var target = controls(panel).filter(function (el) { return controlKey(el) === state.focus.key; })[0];
      if (target) {
        target.focus({ preventScroll: true });
        try {
          if (state.focus.start !== null) target.setSelectionRange(state.focus.start, state.focus.end);
        } catch (e) { /* a number field has no selection */ }
      } else {
        lost = true;
      }
    }
    var note = panel.querySelector(".stale-note");
    if (note && lost) note.hidden = false;
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var region = event.detail.target;
    if (!region || KEPT.indexOf(region.id) < 0) return;
    if (busy(region)) {
      event.detail.shouldSwap = false;
      var incoming = event.detail.fragment.firstElementChild;
      if (incoming && (!held[region.id] || newer(incoming, held[region.id]))) held[region.id] = incoming;
      return;
    }
    carried[region.id] = capture(region);
  });

  document.body.addEventListener("htmx:oobAfterSwap", function (event) {
    var id = event.detail.target && event.detail.target.id;
    if (!id || !(id in carried)) return;
    var state = carried[id];
    delete carried[id];
    var region = document.getElementById(id);
    if (state && region) restore(region, state);
  });

  // Once a region's request is over (its answer swapped in, or refused, or
  // lost, and a sent chat message's box emptied: hence after this turn), a
  // region pushed meanwhile goes in if it is newer than what is shown.
  function putHeld(id) {
    var region = document.getElementById(id);
    var incoming = held[id];
    if (!incoming || !region || busy(region)) return;
    delete held[id];
    if (!newer(incoming, region)) return;
    var state = capture(region);
    incoming.removeAttribute("hx-swap-oob");
    region.replaceWith(incoming);
    htmx.process(incoming);
    if (state) restore(incoming, state);
  }

  document.body.addEventListener("htmx:afterRequest", function () {
    setTimeout(function () { KEPT.forEach(putHeld); }, 0);
  });
})();
