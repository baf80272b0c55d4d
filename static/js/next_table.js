// "Next table waiting (N)" (docs/features.md): while this table does not wait for the person,
// a link to the match that has waited longest for their move (/notices/next/, asked after the
// page loads and after each swap of the table that leaves it not their turn; never inside the
// move's own request). With the Play setting "go at once" on, the answer to the person's own
// move takes them there at once, unless that move ended the match (they see its end first).
(function () {
  "use strict";
  function box() {
    return document.getElementById("next-table");
  }
  function atOnce() {
    var choices = document.getElementById("play-choices");
    return !!choices && choices.dataset.nextAtOnce === "true";
  }
  function ask(go) {
    var el = box();
    if (!el) return;
    fetch(el.dataset.url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (response) {
        return response.ok ? response.text() : "";
      })
      .then(function (html) {
        el.innerHTML = html.trim();
        var link = el.querySelector("a");
        el.hidden = !link;
        if (link && go) window.location.assign(link.href);
      })
      .catch(function () {});
  }
  function check(go) {
    var table = document.getElementById("table");
    var el = box();
    if (!table || !el) return;
    if (table.dataset.yourTurn === "true") {
      el.hidden = true;
      return;
    }
    ask(go);
  }
  document.addEventListener("DOMContentLoaded", function () {
    check(false);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "table") return;
    var table = document.getElementById("table");
    var config = event.detail.requestConfig;
    var moved = !!config && config.verb === "post" && /\/move\/$/.test(config.path || "") &&
      event.detail.xhr && event.detail.xhr.status === 200;
    var goes = moved && atOnce() && table && table.dataset.status === "active";
    check(goes);
  });
})();
