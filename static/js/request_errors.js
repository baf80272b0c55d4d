// An htmx request that fails (the site unreachable, a 5xx, an expired form) swaps nothing into
// the page, so without this a click would seem to do nothing. The notice (fixed at the foot of
// the viewport, so it shows wherever the page is scrolled: parlour.css) says
// what happened; the next answer swapped into the page clears it (a poll's 204, which swaps
// nothing, leaves it: that the page is unchanged says nothing about the failed request).
(function () {
  "use strict";
  var say = window.parlourWords.say; // static/js/words.js: the reader's language
  var MESSAGES = {
    403: say("request_403"),
    429: say("request_429"),
    503: say("request_503"),
  };
  var FALLBACK = say("request_failed");
  var SIGNED_OUT = say("request_signed_out");
  var OFFLINE = say("request_offline");

  function notice() {
    return document.getElementById("request-error");
  }
  function show(text) {
    var el = notice();
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
  }
  // A 401 is a request made after the session ended (core/signed_out.py): its body is the
  // sentence to show, with the link that signs in again and comes back to this page. The page
  // is left as it was (nothing was done), and its background requests (the table's and the
  // badge's polls, an export or analysis being watched) stop asking until a request the
  // person makes succeeds again (signed in meanwhile, in another tab): the notice is shown
  // once, not every two seconds (docs/accounts.md, "Signed out").
  function showSignedOut(xhr) {
    var el = notice();
    if (!el) return;
    var words = null;
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      words = doc.querySelector(".signed-out");
    } catch (e) {
      words = null;
    }
    if (!words) return show(SIGNED_OUT);
    el.replaceChildren.apply(el, Array.prototype.map.call(words.childNodes, function (node) {
      return document.importNode(node, true);
    }));
    el.hidden = false;
  }
  function signedOut() {
    return document.body && document.body.dataset.signedOut === "true";
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!signedOut()) return;
    var config = event.detail.requestConfig || {};
    var asked = config.triggeringEvent;
    var elt = event.detail.elt;
    var trigger = (elt && elt.getAttribute && elt.getAttribute("hx-trigger")) || "";
    // A poll (live.js's "parlour-poll", or htmx's "every", which has no triggering event):
    // nobody is waiting for it. What the person asks for (a click, a key) still goes.
    var poll = asked ? asked.type === "parlour-poll" : /\bevery\b/.test(trigger);
    if (config.verb === "get" && poll) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && signedOut()) delete document.body.dataset.signedOut;
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status === 401) {
      if (document.body) document.body.dataset.signedOut = "true";
      return showSignedOut(xhr);
    }
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
