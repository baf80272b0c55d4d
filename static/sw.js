// Parlour's service worker, served from /sw.js so its scope is the whole site
// (games/views/app_shell.py). It shows the turn pushes (docs/notifications.md, "Web push"): the
// payload is {"title", "body", "url", "tag"}, a title and a link only, never anything from a
// table. A newer notification with the same tag (one per match) replaces one not yet read; a
// click focuses a tab already on that page, or opens one.
"use strict";

var FALLBACK_URL = "/notices/";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function text(value, limit) {
  return typeof value === "string" ? value.slice(0, limit) : "";
}

// Only a path of this site: a push cannot send the person elsewhere.
function sitePath(value) {
  return typeof value === "string" && value.charAt(0) === "/" && value.charAt(1) !== "/" &&
    value.indexOf("\\") === -1 ? value : FALLBACK_URL;
}

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  if (data === null || typeof data !== "object") data = {};
  var tag = text(data.tag, 64);
  var options = {
    body: text(data.body, 200),
    icon: "/static/icons/icon-192.png",
    data: { url: sitePath(data.url) },
  };
  if (tag) {
    options.tag = tag;
    options.renotify = true; // the newer turn of the same match is said again
  }
  event.waitUntil(self.registration.showNotification(text(data.title, 120) || "Parlour", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var path = event.notification.data ? sitePath(event.notification.data.url) : FALLBACK_URL;
  var target = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
      for (var i = 0; i < tabs.length; i += 1) {
        if (tabs[i].url === target && "focus" in tabs[i]) return tabs[i].focus();
      }
      return self.clients.openWindow(target);
    })
  );
});
