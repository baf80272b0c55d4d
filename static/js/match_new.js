// The new-match form shows only the seats the table has, and only the chosen game's options
// (and seat range). Without JavaScript every seat and every game's options show, each game's
// labelled with its title; the server ignores the extra seats and the other games' options. A
// static file, not an inline script, so the Content Security Policy can forbid inline scripts
// (docs/hardening.md).
(function () {
  "use strict";
  var form = document.getElementById("new-match-form");
  if (!form) return;

  // Signed out while filling the form (docs/accounts.md, "Signed out"): what is sent is kept in
  // this tab's sessionStorage (the form's own choices: no password, no token), and when signing
  // in leads back here (?kept=1, the server's answer to a signed-out POST) the form is filled
  // again for the person to check and send. Any other visit forgets what was kept: a form the
  // server sent back with its errors is already filled, and a match created needs nothing.
  var KEY = "parlour:new-match";
  var SKIP = { hidden: true, password: true, file: true, submit: true, button: true, reset: true };
  function fields() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && !SKIP[el.type] && el.tagName !== "FIELDSET";
    });
  }
  function checkable(el) {
    return el.type === "checkbox" || el.type === "radio";
  }
  form.addEventListener("submit", function () {
    var kept = fields().map(function (el) {
      return checkable(el) ? [el.name, el.value, el.checked] : [el.name, null, el.value];
    });
    try {
      window.sessionStorage.setItem(KEY, JSON.stringify(kept));
    } catch (e) {
      // No storage (a private window's quota, storage turned off): nothing is kept.
    }
  });
  var kept = null;
  try {
    kept = JSON.parse(window.sessionStorage.getItem(KEY) || "null");
    window.sessionStorage.removeItem(KEY);
  } catch (e) {
    kept = null;
  }
  var params = new URLSearchParams(window.location.search);
  if (params.get("kept") === "1") {
    params.delete("kept");
    var rest = params.toString();
    window.history.replaceState(null, "", window.location.pathname + (rest ? "?" + rest : ""));
    if (Array.isArray(kept)) {
      var all = fields();
      kept.forEach(function (entry) {
        all.forEach(function (el) {
          if (el.name !== entry[0]) return;
          if (checkable(el)) {
            if (el.value === entry[1]) el.checked = Boolean(entry[2]);
          } else {
            el.value = String(entry[2]);
          }
        });
      });
      var note = document.createElement("p");
      note.id = "new-match-kept";
      note.className = "notice";
      note.setAttribute("role", "status");
      note.textContent = window.parlourWords.say("form_kept");
      form.parentNode.insertBefore(note, form);
    }
  }

  var count = document.getElementById("id_num_players");
  var rows = form.querySelectorAll("#seat-choices .seat-choice");
  function showSeats() {
    rows.forEach(function (row) {
      row.hidden = Number(row.dataset.seat) >= Number(count.value || 0);
    });
  }
  if (count) {
    count.addEventListener("input", showSeats);
    showSeats();
  }

  // A seat's name field shows only while that seat is "a person I challenge by name"
  // (docs/invitations.md); a hidden one is not sent.
  rows.forEach(function (row) {
    var choice = row.querySelector("select");
    var name = row.querySelector(".challenge-name");
    if (!choice || !name) return;
    function showName() {
      var off = choice.value !== "challenge";
      name.hidden = off;
      name.querySelector("input").disabled = off;
    }
    choice.addEventListener("change", showName);
    showName();
  });

  var games = form.querySelectorAll('input[name="game"]');
  var perGame = form.querySelectorAll(".game-options[data-game], .game-seats[data-game]");
  function showGame() {
    var chosen = form.querySelector('input[name="game"]:checked');
    if (!chosen) return;
    perGame.forEach(function (part) {
      var other = part.dataset.game !== chosen.value;
      part.hidden = other;
      // A hidden game's fields are neither checked by the browser nor sent.
      if (part.tagName === "FIELDSET") part.disabled = other;
    });
  }
  games.forEach(function (radio) {
    radio.addEventListener("change", showGame);
  });
  showGame();
})();
