// The replay viewer's keyboard, autoplay and move-list marker. Every control is a plain link
// that htmx turns into a swap of #replay-frame (pushing its URL); the keys and the autoplay
// timer move a target ply kept here, and the frame is fetched toward it, so nothing here
// decides what a frame shows.
//
// Every key press counts, however fast they come: each moves the target at once (from the
// target, not from the frame on screen, which may still be on its way), and one request at a
// time fetches the target's frame. When an answer lands while the target has moved on, the
// next request asks for the new target, so the last frame swapped in (and the URL the server
// pushes with it) is the target's.
(function () {
  "use strict";
  var timer = null;
  var target = null;  // the ply asked for by the keys or the timer; null: the frame shown
  var fetching = false;  // a frame request of ours is on its way
  var asking = false;  // true only while htmx starts our own request

  function frame() { return document.getElementById("replay-frame"); }
  function shown() { var f = frame(); return f ? Number(f.dataset.ply) : 0; }
  function wanted() { return target === null ? shown() : target; }

  function frameUrl(f, ply) {
    return f.dataset.url + "?ply=" + ply + "&as=" + encodeURIComponent(f.dataset.as);
  }

  // Ask for the target's frame unless a request of ours is on its way (its answer asks again).
  function chase() {
    var f = frame();
    if (fetching || target === null || !f) return;
    if (Number(f.dataset.ply) === target) { target = null; return; }
    if (!window.htmx) { window.location.assign(frameUrl(f, target)); return; }
    fetching = true;
    asking = true;
    var done = function () {
      fetching = false;
      // The same frame still there: the answer was refused or lost (request_errors.js says
      // so); stop rather than ask again and again.
      if (frame() === f) target = null;
      else chase();
    };
    try {
      window.htmx.ajax("GET", frameUrl(f, target), {
        source: f, target: "#replay-frame", swap: "outerHTML"
      }).then(done, done);
    } finally {
      asking = false;
    }
  }

  // Move the target to ``ply`` (kept within the match) and fetch toward it.
  function go(ply) {
    var f = frame();
    if (!f) return false;
    target = Math.max(0, Math.min(ply, Number(f.dataset.last)));
    chase();
    return true;
  }

  // A click on a control, a move-list line or a perspective takes over from the keys.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var into = event.detail && event.detail.target;
    if (!asking && into && into.id === "replay-frame") target = null;
  });

  var play = document.getElementById("replay-play");
  var speed = document.getElementById("replay-speed");
  var panel = document.getElementById("replay-autoplay");

  function stop() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    if (play) { play.textContent = window.parlourWords.say("replay_play"); play.setAttribute("aria-pressed", "false"); }
  }
  function start() {
    var f = frame();
    if (f && wanted() >= Number(f.dataset.last)) go(0);
    timer = window.setInterval(function () {
      var g = frame();
      if (!g || wanted() >= Number(g.dataset.last)) stop();
      else go(wanted() + 1);
    }, Number(speed ? speed.value : 1000));
    if (play) { play.textContent = window.parlourWords.say("replay_pause"); play.setAttribute("aria-pressed", "true"); }
  }
  function toggle() { if (timer === null) start(); else stop(); }

  if (panel) panel.hidden = false;  // autoplay needs this script, so it shows only with it
  if (play) play.addEventListener("click", toggle);
  if (speed) speed.addEventListener("change", function () { if (timer !== null) { stop(); start(); } });

  var keys = {
    ArrowLeft: function () { return wanted() - 1; },
    ArrowRight: function () { return wanted() + 1; },
    Home: function () { return 0; },
    End: function () { var f = frame(); return f ? Number(f.dataset.last) : 0; }
  };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (event.key === " " || event.key === "Spacebar") {
      if (tag === "BUTTON" || tag === "A") return;  // they have Space (or Enter) of their own
      event.preventDefault();
      toggle();
      return;
    }
    if (keys[event.key]) {
      event.preventDefault();
      if (event.key !== "ArrowRight") stop();
      go(keys[event.key]());
    }
  });

  // The move list scrolls (not the page) to bring the entry shown into sight.
  function reveal(entry) {
    var list = document.getElementById("move-list");
    if (!list || !entry) return;
    var top = entry.offsetTop;  // the list is positioned, so this is within it
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - entry.offsetHeight) {
      list.scrollTop = Math.max(top - list.clientHeight / 3, 0);
    }
  }
  // Mark the entry shown in the move list (the list is the same for every frame, so the
  // server leaves the mark to this script) and keep it in sight.
  var marked = null;  // the frame last marked
  function mark() {
    var f = frame();
    var list = document.getElementById("move-list");
    // Only a new frame moves the list: another swap (the notices badge's, every 30 s) must not
    // scroll it away from the entry a keyboard user has tabbed to (WCAG 2.4.11).
    if (!f || !list || f === marked) return;
    marked = f;
    var current = list.querySelector('[aria-current="step"]');
    if (current) current.removeAttribute("aria-current");
    var next = list.querySelector('.entries a[data-ply="' + f.dataset.ply + '"]');
    if (next) {
      next.setAttribute("aria-current", "step");
      reveal(next);
    }
  }
  mark();

  document.addEventListener("htmx:afterSettle", mark);

  // Keyboard users keep their place (docs/accessibility.md, "Focus"): a frame swapped in while
  // the focus was on a control of the old one (a step, a perspective) puts it back on the same
  // control in the new frame, else (a step now off, at either end) on a step still offered.
  var place = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var f = frame();
    var active = document.activeElement;
    place = f && active && f.contains(active)
      ? { id: active.id || "", as: active.getAttribute("data-as") || "" } : place;
  });
  function focusable(el) {
    return !!el && (el.tagName === "A" || el.tagName === "BUTTON" || el.hasAttribute("tabindex"));
  }
  document.addEventListener("htmx:afterSettle", function () {
    var f = frame();
    var was = place;
    place = null;
    var active = document.activeElement;
    if (!f || !was || (active && active !== document.body && document.contains(active))) return;
    var found = was.id ? document.getElementById(was.id) : null;
    if (!focusable(found) && was.as) found = f.querySelector('a[data-as="' + CSS.escape(was.as) + '"]');
    if (!focusable(found)) found = f.querySelector(".replay-controls a.step");
    if (focusable(found)) found.focus({ preventScroll: true });
  });
})();
