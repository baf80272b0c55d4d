// The app's badge (the number on an installed app's icon, where the browser has one): how many
// matches wait for the person's move. window.parlourAppBadge(turns) sets it (0 clears it); the
// live stream's badge event calls it (static/js/live.js). Browsers without the Badging API
// ignore it.
(function () {
  "use strict";

  window.parlourAppBadge = function (turns) {
    var count = Number(turns);
    if (!("setAppBadge" in navigator) || !Number.isFinite(count) || count < 0) return;
    var done = count > 0 ? navigator.setAppBadge(Math.floor(count)) : navigator.clearAppBadge();
    done.catch(function () {
      // Not allowed here (a page not installed, on some systems): nothing to show.
    });
  };
})();
