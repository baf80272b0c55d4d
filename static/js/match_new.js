// The new-match form shows only the seats the table has, and only the chosen game's options
// (and seat range). Without JavaScript every seat and every game's options show, each game's
// labelled with its title; the server ignores the extra seats and the other games' options. A
// static file, not an inline script, so the Content Security Policy can forbid inline scripts
// (docs/hardening.md).
(function () {
  "use strict";
  var form = document.getElementById("new-match-form");
  if (!form) return;

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
