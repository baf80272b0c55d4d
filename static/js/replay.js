// The replay viewer's keyboard, autoplay and move-list marker. Every control is a plain link
// that htmx turns into a swap of #replay-frame (pushing its URL); this script only clicks those
// links for the keys and the autoplay timer, so nothing here decides what a frame shows.
(function () {
  "use strict";
  var timer = null;

  function frame() { return document.getElementById("replay-frame"); }
  // A frame swapped in a moment ago may not be processed by htmx yet (a held arrow key comes
  // that fast), so the keys and the timer ask htmx directly; the answer pushes its own URL.
  function step(id) {
    var link = document.getElementById(id);
    if (!link || link.tagName !== "A") return false;
    if (window.htmx) {
      window.htmx.ajax("GET", link.getAttribute("href"), {
        source: link, target: "#replay-frame", swap: "outerHTML"
      });
    } else {
      link.click();
    }
    return true;
  }

  var play = document.getElementById("replay-play");
  var speed = document.getElementById("replay-speed");
  var panel = document.getElementById("replay-autoplay");

  function stop() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    if (play) { play.textContent = "Play"; play.setAttribute("aria-pressed", "false"); }
  }
  function start() {
    var f = frame();
    if (f && f.dataset.ply === f.dataset.last) step("replay-first");
    timer = window.setInterval(function () {
      if (!step("replay-next")) stop();
    }, Number(speed ? speed.value : 1000));
    if (play) { play.textContent = "Pause"; play.setAttribute("aria-pressed", "true"); }
  }
  function toggle() { if (timer === null) start(); else stop(); }

  if (panel) panel.hidden = false;  // autoplay needs this script, so it shows only with it
  if (play) play.addEventListener("click", toggle);
  if (speed) speed.addEventListener("change", function () { if (timer !== null) { stop(); start(); } });

  var keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
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
      step(keys[event.key]);
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
  function mark() {
    var f = frame();
    var list = document.getElementById("move-list");
    if (!f || !list) return;
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
})();
