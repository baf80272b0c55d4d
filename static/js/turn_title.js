// The tab's title says when a move is awaited, as the page shows it: "Your turn · ..." on a table
// where it is the person's turn, else "(N) ..." with the nav badge's count when N > 0. The server
// writes it so on each page (base.html, games/match.html); this keeps it in step when htmx swaps
// in a new table (its data-your-turn) or a new badge (its data-count), with no reload.
(function () {
  "use strict";
  var YOUR_TURN = window.parlourWords.say("your_turn") + " · "; // static/js/words.js

  function prefix() {
    var table = document.getElementById("table");
    if (table && table.dataset.yourTurn !== undefined) {
      return table.dataset.yourTurn === "true" ? YOUR_TURN : "";
    }
    var badge = document.getElementById("turn-badge");
    var count = badge ? Number(badge.dataset.count) : 0;
    return count > 0 ? "(" + count + ") " : "";
  }

  document.addEventListener("htmx:afterSettle", function () {
    var title = document.title;
    if (title.indexOf(YOUR_TURN) === 0) title = title.slice(YOUR_TURN.length);
    var wanted = prefix() + title.replace(/^\(\d+\) /, "");
    if (document.title !== wanted) document.title = wanted;
  });
})();
