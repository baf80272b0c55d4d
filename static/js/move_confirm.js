// "Confirm each move" (the account page's Play settings; docs/accounts.md): when on, the first
// press of a move button only picks it: a bar at the viewport's foot names the move with
// Confirm and Cancel, and a second press of the same button (or Confirm) makes it. "auto", the
// default, is on where the pointer is coarse (a touch screen) and off elsewhere. The setting
// rides in the page (#play-choices' data-confirm-moves), so the move itself costs nothing more.
// Keyboard: the bar takes focus on Confirm; Escape cancels and gives focus back to the move.
(function () {
  "use strict";
  var say = window.parlourWords.say; // static/js/words.js: the reader's language
  var armed = null;
  var bar = null;

  function wanted() {
    var choices = document.getElementById("play-choices");
    var mode = choices ? choices.dataset.confirmMoves : "off";
    if (mode === "on") return true;
    if (mode !== "auto") return false;
    return !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  }

  function disarm(refocus) {
    var was = armed;
    armed = null;
    if (was) was.classList.remove("armed");
    if (bar) {
      bar.remove();
      bar = null;
    }
    if (refocus && was && document.contains(was)) was.focus();
  }

  function send(button) {
    disarm(false);
    // Focus goes back to the move first, so the table keeps a keyboard player's place after
    // the answer is swapped in (static/js/table.js).
    button.focus({ preventScroll: true });
    button.dataset.confirmed = "1";
    button.click();
  }

  function arm(button) {
    disarm(false);
    armed = button;
    button.classList.add("armed");
    var notice = document.getElementById("request-error");
    if (notice) notice.hidden = true;
    bar = document.createElement("div");
    bar.className = "move-confirm";
    bar.id = "move-confirm";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", say("confirm_bar"));
    var words = document.createElement("span");
    words.className = "move-confirm-words";
    var move = (button.getAttribute("aria-label") || button.textContent).trim();
    words.textContent = say("confirm_question", { move: move });
    var yes = document.createElement("button");
    yes.type = "button";
    yes.id = "move-confirm-yes";
    yes.textContent = say("confirm");
    var no = document.createElement("button");
    no.type = "button";
    no.id = "move-confirm-no";
    no.className = "secondary";
    no.textContent = say("cancel");
    yes.addEventListener("click", function () {
      send(button);
    });
    no.addEventListener("click", function () {
      disarm(true);
    });
    bar.append(words, yes, no);
    document.body.appendChild(bar);
    yes.focus({ preventScroll: true });
  }

  // Capture: this runs before the button's form is submitted (and htmx sends it).
  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest("#table button.move");
      if (!button) return;
      if (button.dataset.confirmed) {
        delete button.dataset.confirmed;
        return;
      }
      if (!wanted()) return;
      if (button === armed) {
        disarm(false); // the second press of the same move makes it
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      arm(button);
    },
    true
  );
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && armed) disarm(true);
  });
  // The table changed under the picked move (a poll, another tab): the pick goes with it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (armed && event.detail.target && event.detail.target.id === "table") disarm(false);
  });
})();
