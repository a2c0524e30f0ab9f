// Turn Web Push on or off for this device (the settings page's
// [data-push] section; notifications/views.py stores the subscription).
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) return;
  var status = box.querySelector("[data-push-status]");
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  function say(text) { if (status) status.textContent = text; }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say("This browser cannot receive push notifications.");
    return;
  }
  var csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      if (r.ok) return r;
      // The site's own reason (an address it will not push to, a device
      // registered to another account), shown as it says it.
      return r.json().catch(function () { return {}; }).then(function (answer) {
        var error = new Error("refused");
        error.site = answer && answer.error;
        throw error;
      });
    });
  }
  function key(b64) {
    var s = (b64 + "===".slice((b64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function show(subscribed) {
    on.hidden = subscribed; off.hidden = !subscribed;
    say(subscribed ? "Push notifications are on for this device." : "Push notifications are off for this device.");
  }
  var ready = navigator.serviceWorker.register("/sw.js").then(function () {
    return navigator.serviceWorker.ready;
  });
  ready.then(function (reg) { return reg.pushManager.getSubscription(); })
    .then(function (sub) { show(!!sub); });
  on.addEventListener("click", function () {
    ready.then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(box.dataset.push) });
    }).then(function (sub) { return post(box.dataset.subscribeUrl, sub.toJSON()); })
      .then(function () { show(true); })
      .catch(function (error) {
        if (error && error.site) say("Push notifications could not be turned on: " + error.site);
        else say("Push notifications could not be turned on. Allow notifications for this site and try again; private windows cannot receive them.");
      });
  });
  off.addEventListener("click", function () {
    ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
      if (!sub) return show(false);
      return post(box.dataset.unsubscribeUrl, { endpoint: sub.endpoint }).then(function () {
        return sub.unsubscribe();
      }).then(function () { show(false); });
    }).catch(function () { say("Could not turn push notifications off; try again."); });
  });
})();
