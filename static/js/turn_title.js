// The tab's title says when a move is awaited, as the page shows it: "Your turn · ..." on a table
// where it is the person's turn, else "(N) ..." with the nav badge's count when N > 0. The server
// writes it so on each page (base.html, games/match.html); this keeps it in step when htmx swaps
// in a new table (its data-your-turn) or a new badge (its data-count), with no reload.
(function () {
  "use strict";
  var PREFIX = /^(Your turn · |\(\d+\) )/;

  function prefix() {
    var table = document.getElementById("table");
    if (table && table.dataset.yourTurn !== undefined) {
      return table.dataset.yourTurn === "true" ? "Your turn · " : "";
    }
    var badge = document.getElementById("turn-badge");
    var count = badge ? Number(badge.dataset.count) : 0;
    return count > 0 ? "(" + count + ") " : "";
  }

  document.addEventListener("htmx:afterSettle", function () {
    var wanted = prefix() + document.title.replace(PREFIX, "");
    if (document.title !== wanted) document.title = wanted;
  });
})();
