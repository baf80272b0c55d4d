// The new-match form shows only the seats the table has. Without JavaScript every seat shows
// and the extras are ignored by the server. A static file, not an inline script, so the
// Content Security Policy can forbid inline scripts (docs/hardening.md).
(function () {
  "use strict";
  var count = document.getElementById("id_num_players");
  if (!count) return;
  var rows = document.querySelectorAll("#seat-choices .seat-choice");
  function show() {
    rows.forEach(function (row) {
      row.hidden = Number(row.dataset.seat) >= Number(count.value || 0);
    });
  }
  count.addEventListener("input", show);
  show();
})();
