// Focus not obscured (WCAG 2.4.11; docs/accessibility.md, "WCAG 2.2 AA"): the notices that stay
// in place while the page scrolls (the request-error notice and the move confirmation fixed at
// the foot of the viewport, a refusal and "Next table waiting" stuck at the top) must never hide
// the control the keyboard just reached. When focus lands under one of them, the page scrolls by
// just enough to show the control clear of it (at once, never smoothly), with room added at the
// page's foot if the control is among the last.
(function () {
  "use strict";
  var COVERS = "#request-error, #move-confirm, #next-table, .table > #move-error";
  var GAP = 8;

  function covers(target) {
    return Array.prototype.filter.call(document.querySelectorAll(COVERS), function (el) {
      if (el.hidden || el.contains(target)) return false;
      var position = window.getComputedStyle(el).position;
      return position === "fixed" || position === "sticky";
    });
  }
  // Room at the page's foot as tall as a cover there (CSSOM, which the Content Security
  // Policy allows; a style attribute it would not), so the page can scroll that much further.
  function room(height) {
    var body = document.body;
    if ((parseFloat(body.style.paddingBottom) || 0) < height) body.style.paddingBottom = height + "px";
  }
  function clear(target) {
    if (!target || target === document.body || !target.getBoundingClientRect) return;
    var box = target.getBoundingClientRect();
    if (!box.width && !box.height) return;
    covers(target).forEach(function (cover) {
      var over = cover.getBoundingClientRect();
      if (!over.height || over.right <= box.left || over.left >= box.right) return;
      if (over.bottom <= box.top || over.top >= box.bottom) return;
      // A cover in the lower half of the viewport pushes the control up; one above, down.
      if (over.top > window.innerHeight / 2) {
        // The page's last controls need room below them to rise above the cover.
        room(window.innerHeight - over.top + GAP);
        window.scrollBy(0, box.bottom - over.top + GAP);
      } else window.scrollBy(0, box.top - over.bottom - GAP);
      box = target.getBoundingClientRect();
    });
  }
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    // After the browser's own scroll to the focused element.
    window.requestAnimationFrame(function () {
      if (document.activeElement === target) clear(target);
    });
  });
})();
