// The action panel (#actions) is replaced by every push. Two things must
// survive that:
//
// - A request sent from the panel. Its answer comes back to the panel it
//   was sent from; replaced meanwhile (the push of the same move often
//   arrives first), that panel is no longer in the page, and htmx would
//   look for the answer's out-of-band regions in the detached panel and
//   complain that none is there (htmx:oobErrorNoTarget). So a push's panel
//   waits until the request is over, and is put in only if it is newer
//   than the answer's.
// - What the player is typing or choosing there (a bid, a trade). The new
//   panel goes in, with the values, open disclosures and focus carried
//   over to the same fields: its forms carry the new version, so what is
//   sent is judged against the current position. When a field the player
//   had filled in is gone, the panel says that the game moved on.
(function () {
  "use strict";
  var held = null; // a push's panel waiting for the panel's request to end
  var carried = null; // what the player had in the panel that was replaced

  function version(el) {
    return el ? parseInt(el.getAttribute("data-version"), 10) || 0 : -1;
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
    var panel = event.detail.target;
    if (!panel || panel.id !== "actions") return;
    var busy = panel.classList.contains("htmx-request") || panel.querySelector(".htmx-request");
    if (busy) {
      event.detail.shouldSwap = false;
      var incoming = event.detail.fragment.firstElementChild;
      if (incoming && (!held || version(incoming) > version(held))) held = incoming;
      return;
    }
    carried = capture(panel);
  });

  document.body.addEventListener("htmx:oobAfterSwap", function () {
    var state = carried;
    carried = null;
    var panel = document.getElementById("actions");
    if (state && panel) restore(panel, state);
  });

  // Once the panel's request is over (its answer swapped in, or refused, or
  // lost), a push held meanwhile goes in if it is newer than what is shown.
  document.body.addEventListener("htmx:afterRequest", function () {
    var panel = document.getElementById("actions");
    if (!held || !panel || panel.classList.contains("htmx-request") || panel.querySelector(".htmx-request")) return;
    var incoming = held;
    held = null;
    if (version(incoming) <= version(panel)) return;
    var state = capture(panel);
    incoming.removeAttribute("hx-swap-oob");
    panel.replaceWith(incoming);
    htmx.process(incoming);
    if (state) restore(incoming, state);
  });
})();
