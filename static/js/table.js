// Keyboard players keep their place (docs/accessibility.md, "Focus"): when the table is
// replaced (a move's answer, a poll, a live event: any path, so the page watches the DOM) while
// the focus was inside it, the focus goes back to the same control in the new table: the same
// id, else the same move (data-move), else the same card (data-key), else, after the person's
// own move, the first move on a card in their hand, then the first move offered, a card of
// their hand, the turn line.
// The notice under the header ("Match created...", "You sit at seat 2.") has been acted on once
// the match begins or the person's move lands: it goes then (static/js/messages.js).
(function () {
  "use strict";
  var focusWasInTable = false;
  var place = null; // what had the focus in the table: {id, move, key}
  var ownMove = false;
  var statusBefore = null;
  function note(el) {
    var table = document.getElementById("table");
    focusWasInTable = !!(table && el && table.contains(el));
    if (!focusWasInTable) return;
    var keyed = el.closest("[data-key]");
    place = {
      id: el.id || "",
      move: el.dataset ? el.dataset.move || "" : "",
      key: keyed ? keyed.dataset.key : "",
    };
  }
  document.addEventListener("focusin", function (event) {
    note(event.target);
  });
  // configRequest comes before htmx disables the clicked button (which drops its focus).
  document.addEventListener("htmx:configRequest", function (event) {
    var active = document.activeElement;
    if (active && active !== document.body) note(active);
    var path = String(event.detail.path || "").split("?")[0];
    if (event.detail.verb === "post" && /\/move\/$/.test(path)) ownMove = true;
  });
  document.addEventListener("htmx:beforeSwap", function () {
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
  function findIn(table, attr, value) {
    if (!value) return null;
    var all = table.querySelectorAll("[" + attr + "]");
    for (var i = 0; i < all.length; i++) if (all[i].getAttribute(attr) === value) return all[i];
    return null;
  }
  function target(table, own) {
    var was = place || {};
    var found = (was.id && table.querySelector("#" + CSS.escape(was.id))) ||
      findIn(table, "data-move", was.move);
    if (found) return found;
    var card = findIn(table, "data-key", was.key);
    if (card && !own) {
      return card.querySelector("button.move") || (card.hasAttribute("tabindex") ? card : null);
    }
    return table.querySelector("#hand button.move[data-move]") ||
      table.querySelector("button.move[data-move]") ||
      table.querySelector("#hand [data-why]") ||
      document.getElementById("turn-line");
  }
  var watched = null;
  function restore() {
    var table = document.getElementById("table");
    if (!table || table === watched) return;
    watched = table;
    var own = ownMove;
    ownMove = false;
    var active = document.activeElement;
    var lost = !active || active === document.body || !document.contains(active);
    if (!focusWasInTable || !lost) return;
    var found = target(table, own);
    if (found) found.focus({ preventScroll: true });
  }
  function start() {
    watched = document.getElementById("table");
    if (watched && watched.parentNode) {
      new MutationObserver(restore).observe(watched.parentNode, { childList: true });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
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
