// An htmx request that fails (the site unreachable, a 5xx, an expired form) swaps nothing into
// the page, so without this a click would seem to do nothing. The notice (fixed at the foot of
// the viewport, so it shows wherever the page is scrolled: parlour.css) says
// what happened; the next answer swapped into the page clears it (a poll's 204, which swaps
// nothing, leaves it: that the page is unchanged says nothing about the failed request).
(function () {
  "use strict";
  var MESSAGES = {
    403: "This page has expired (or you were signed out). Reload it and try again; nothing was changed.",
    429: "Too many requests just now. Wait a moment and try again; nothing was changed.",
    503: "Parlour is briefly unavailable; nothing was changed. It will be back in a few seconds.",
  };
  var FALLBACK = "Something went wrong on our side; nothing was changed. Reload the page and try again.";
  var OFFLINE = "Parlour cannot be reached. Check your connection; the page keeps trying.";

  function notice() {
    return document.getElementById("request-error");
  }
  function show(text) {
    var el = notice();
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    show(MESSAGES[status] || FALLBACK);
  });
  document.addEventListener("htmx:sendError", function () {
    show(OFFLINE);
  });
  // A refusal swapped in with its partial (a 400/409/422/429: the table's "#move-error") sits
  // at the partial's top, which on a phone is far above the control that was pressed: bring it
  // into view, the least scroll that shows it.
  function inView(el) {
    var box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var el = notice();
    if (el && !el.hidden) el.hidden = true;
    var status = event.detail.xhr ? event.detail.xhr.status : 200;
    if (status < 400) return;
    var refusal = document.querySelector('.error[role="alert"]');
    if (refusal && !inView(refusal)) refusal.scrollIntoView({ block: "nearest" });
  });
})();
