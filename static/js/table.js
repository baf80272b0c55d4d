// Keyboard players keep their place: when htmx replaces the table while focus was inside it
// (after their own move, or a poll), focus moves to the first offered move, else the turn line.
// The notice under the header ("Match created...", "You sit at seat 2.") has been acted on once
// the match begins or the person's move lands: it goes then (static/js/messages.js).
(function () {
  "use strict";
  var focusWasInTable = false;
  var statusBefore = null;
  function note() {
    var table = document.getElementById("table");
    if (table && table.contains(document.activeElement)) focusWasInTable = true;
  }
  // configRequest comes before htmx disables the clicked button (which drops its focus).
  document.addEventListener("htmx:configRequest", note);
  document.addEventListener("htmx:beforeSwap", function () {
    note();
    var table = document.getElementById("table");
    statusBefore = table ? table.dataset.status : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var table = document.getElementById("table");
    if (!table || !event.detail.target || event.detail.target.id !== "table") return;
    var started = statusBefore === "waiting" && table.dataset.status !== "waiting";
    var moved = event.detail.requestConfig && event.detail.requestConfig.verb === "post" &&
      event.detail.xhr && event.detail.xhr.status === 200;
    if ((started || moved) && window.parlourMessagesDismiss) window.parlourMessagesDismiss();
  });
  document.addEventListener("htmx:afterSettle", function () {
    var lost = document.activeElement === document.body || !document.activeElement;
    if (!focusWasInTable || !lost) return;
    focusWasInTable = false;
    var target = document.querySelector("#table button[data-move]") ||
      document.getElementById("turn-line");
    if (target) target.focus({ preventScroll: true });
  });
  // After the person's own move lands, the table's turn line (and the moves under it) come
  // back into view when the new table left them above or below the window: a move made low
  // on the page must not leave the next one out of sight (issue 33). Smooth unless the person
  // asked for reduced motion. A phrase said, or a poll, leaves the page where it is.
  var landed = false;
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = event.detail.requestConfig;
    var target = event.detail.target;
    landed = false;
    if (!target || target.id !== "table" || !config || config.verb !== "post") return;
    if (!/\/move\/$/.test(String(config.path).split("?")[0])) return;
    if (!event.detail.xhr || event.detail.xhr.status !== 200) return;
    landed = true;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!landed) return;
    landed = false;
    var table = document.getElementById("table");
    var line = document.getElementById("turn-line");
    if (!table || !line) return;
    var box = line.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    table.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  });
})();
