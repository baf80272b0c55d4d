// Lesson progress kept in the browser while signed out (docs/lessons.md, "Stars and progress"):
// a finished lesson's table (data-lesson-keep) stores its stars, best kept; the Learn page and
// the home page (data-lesson-browser) show them; the sign-in and register forms carry them into
// the account (their data-lesson-carry field), where the server keeps the best of both.
(function () {
  "use strict";
  var say = window.parlourWords.say; // static/js/words.js: the reader's language
  var KEY = "parlour.lessons";
  function read() {
    try {
      var data = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch (e) {
      return {};
    }
  }
  function write(data) {
    try { window.localStorage.setItem(KEY, JSON.stringify(data)); } catch (e) { /* private mode */ }
  }
  function starsOf(data, key) {
    var n = data[key];
    return typeof n === "number" && n >= 1 && n <= 3 ? Math.floor(n) : 0;
  }
  function keepFinished() {
    var table = document.querySelector("[data-lesson-keep][data-lesson-finished]");
    if (!table) return;
    var key = table.dataset.lessonFinished;
    var stars = parseInt(table.dataset.stars, 10);
    var data = read();
    if (stars >= 1 && stars <= 3 && stars > starsOf(data, key)) {
      data[key] = stars;
      write(data);
    }
  }
  function show() {
    if (!document.querySelector("[data-lesson-browser]")) return;
    var data = read();
    document.querySelectorAll("[data-stars-of]").forEach(function (el) {
      var n = starsOf(data, el.dataset.starsOf);
      el.textContent = "\u2605\u2605\u2605".slice(0, n) + "\u2606\u2606\u2606".slice(0, 3 - n);
      el.setAttribute("aria-label", n ? window.parlourWords.counted("lesson_stars", n) : say("lesson_not_finished"));
    });
    document.querySelectorAll(".lesson-list").forEach(function (list) {
      var marked = false;
      list.querySelectorAll("li[data-lesson]").forEach(function (item) {
        var badge = item.querySelector(".next-badge");
        var next = !marked && !starsOf(data, item.dataset.lesson);
        marked = marked || next;
        if (badge) badge.hidden = !next;
      });
    });
    document.querySelectorAll("[data-lesson-progress]").forEach(function (el) {
      var game = el.dataset.lessonProgress;
      var slugs = (el.dataset.lessonSlugs || "").split(" ").filter(Boolean);
      var done = slugs.filter(function (slug) { return starsOf(data, game + "/" + slug); });
      el.textContent = say("lessons_done", { done: done.length, total: slugs.length });
    });
  }
  function carry() {
    var data = read();
    document.querySelectorAll("input[data-lesson-carry]").forEach(function (input) {
      input.value = Object.keys(data).length ? JSON.stringify(data) : "";
    });
  }
  function all() { keepFinished(); show(); carry(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all);
  else all();
  document.addEventListener("htmx:afterSettle", keepFinished);
})();
