// Registers Parlour's service worker (/sw.js, static/sw.js) on every page: with the web app
// manifest it makes the site installable, and it is what shows the turn pushes of the devices
// that asked for them on the notifications page (static/js/push_devices.js).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
    // A browser that refuses (a private window, a policy) keeps the site as it is.
  });
})();
