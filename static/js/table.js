// Keyboard players keep their place: when htmx replaces the table while focus was inside it
// (after their own move, or a poll), focus moves to the first offered move, else the turn line.
(function () {
  "use strict";
  var focusWasInTable = false;
  function note() {
    var table = document.getElementById("table");
    if (table && table.contains(document.activeElement)) focusWasInTable = true;
  }
  // configRequest comes before htmx disables the clicked button (which drops its focus).
  document.addEventListener("htmx:configRequest", note);
  document.addEventListener("htmx:beforeSwap", note);
  document.addEventListener("htmx:afterSettle", function () {
    var lost = document.activeElement === document.body || !document.activeElement;
    if (!focusWasInTable || !lost) return;
    focusWasInTable = false;
    var target = document.querySelector("#table button[data-move]") ||
      document.getElementById("turn-line");
    if (target) target.focus({ preventScroll: true });
  });
})();
