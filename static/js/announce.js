// Told without looking (docs/accessibility.md): a screen reader hears each new line of the
// table's log once, and "Your turn" and refusals as alerts, though every move, poll or live
// event replaces the whole #table. The two regions (#announce-news, role=status; #announce-alert,
// role=alert) sit outside #table, so they outlive its swaps. Each log line carries its key for
// the whole match (li[data-line]): a line is told the first time its key is in the page, so a
// re-render tells nothing, and a line with the same words as another is still told. A line
// marked data-own (the reader's own move, their phrase) was answered by their press: it is not
// news. Every word told is the page's own (the log's lines, the refusal shown in the table) or
// static/js/words.js's ("Your turn."): nothing is worded here. The page watches the DOM rather than
// htmx's events, so a table put in by any path (a move's answer, a poll, the stream) is heard.
// A lesson's table is heard the same way (its log lines are keyed like a match's), with the
// lesson's answer to each try, its next instruction and its end; the replay's page tells each
// frame put in (its position and what happened there), however it came (a control, a key, the
// move list, autoplay).
(function () {
  "use strict";
  var KEEP = 20; // the lines each region keeps (older ones go; removals are not read)
  var words = document.getElementById("announcements");
  var news = document.getElementById("announce-news");
  var alerts = document.getElementById("announce-alert");
  var table = document.getElementById("table") || document.getElementById("replay-frame");
  if (!words || !news || !alerts || !table || !table.parentNode) return;
  var heard = Object.create(null);
  var yourTurn = false;
  var refusalTold = null;
  var stepBefore = null; // a lesson's step: lower again when the lesson is started again
  var answerTold = null;
  var sayTold = null;
  var endTold = null;
  var frameTold = null;

  // Each announcement is a new element, so the same words twice are read twice.
  function say(region, text) {
    if (!text) return;
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.childElementCount > KEEP) region.removeChild(region.firstElementChild);
  }
  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  // A lesson: its answer to the try (a "try again" as an alert), then the lines below.
  function lessonAnswer(tell) {
    var answer = document.getElementById("lesson-answer");
    if (tell && answer && answer !== answerTold) {
      // A refused try opens with its bold "Try again." (its class would not do: htmx gives a
      // swapped element of the same id the old one's attributes until it settles).
      say(answer.querySelector("strong") ? alerts : news, text(answer));
    }
    answerTold = answer;
  }
  // A lesson: its next instruction, or its end and the stars won.
  function lessonNext(tell) {
    var next = document.getElementById("lesson-say");
    if (tell && next && text(next) !== sayTold) say(news, text(next));
    sayTold = next ? text(next) : null;
    var end = document.getElementById("lesson-end");
    if (tell && end && end !== endTold) {
      say(news, text(end.querySelector("h2")));
      var stars = document.getElementById("lesson-stars");
      if (stars) say(news, stars.getAttribute("aria-label"));
    }
    endTold = end;
  }
  // The replay: each frame put in, its position and its lines.
  function frame(tell) {
    var shown = document.getElementById("replay-frame");
    if (tell && shown && shown !== frameTold) {
      say(news, text(document.getElementById("replay-position")));
      Array.prototype.forEach.call(shown.querySelectorAll("#replay-lines li"), function (li) {
        say(news, text(li));
      });
    }
    frameTold = shown;
  }
  function listen(tell) {
    frame(tell);
    var found = document.getElementById("table");
    var step = found && found.hasAttribute("data-step") ? Number(found.getAttribute("data-step")) : null;
    var again = step !== null && stepBefore !== null && step < stepBefore;
    stepBefore = step;
    if (again) heard = Object.create(null); // the lesson begun again: its lines are new again
    lessonAnswer(tell);
    var lines = Array.prototype.slice.call(document.querySelectorAll("#event-log li[data-line]"));
    lines.reverse(); // the log lists the newest first; they are told oldest first
    lines.forEach(function (line) {
      var key = line.getAttribute("data-line");
      if (heard[key]) return;
      heard[key] = true;
      if (tell && !again && !line.hasAttribute("data-own")) say(news, line.textContent.trim());
    });
    lessonNext(tell);
    var turn = !!found && found.getAttribute("data-your-turn") === "true";
    if (turn && !yourTurn) say(alerts, window.parlourWords.say("your_turn_said"));
    yourTurn = turn;
    var refusal = document.getElementById("move-error");
    if (tell && refusal && refusal !== refusalTold) say(alerts, refusal.textContent.trim());
    refusalTold = refusal;
  }

  var pending = false;
  function later() {
    if (pending) return;
    pending = true;
    window.setTimeout(function () {
      pending = false;
      listen(true);
    }, 0);
  }
  listen(false); // what the page showed when it loaded is not news, "Your turn" is
  new MutationObserver(later).observe(table.parentNode, { childList: true, subtree: true });
})();
