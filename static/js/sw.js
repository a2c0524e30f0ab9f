// The service worker of Web Push (notifications/push.py): shows the site's
// pushes ("your move", reminders) and opens the game when one is clicked.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  var title = data.title || "Async Monopoly";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.url || "monopoly",  // one per game: a newer one replaces it
    data: { url: data.url || "/" },
    icon: "/static/favicon.svg"
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url.indexOf(url) !== -1 && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
