// "Next table waiting (N)" (docs/features.md): while this table does not wait for the person,
// a link to the match that has waited longest for their move (/notices/next/). It is asked
// when the page loads and when the table stops waiting for the person (their own move's answer,
// or a change that took their turn away), once per table version: never inside the move's own
// request, and not on every change of a table that was not waiting for them (the live stream's
// refetches stay the only requests then: docs/live.md). With the Play setting "go at once" on,
// the answer to the person's own move takes them there at once, unless that move ended the
// match (they see its end first).
(function () {
  "use strict";
  var wasMyTurn = false;
  var askedAt = null;
  function box() {
    return document.getElementById("next-table");
  }
  function table() {
    return document.getElementById("table");
  }
  function atOnce() {
    var choices = document.getElementById("play-choices");
    return !!choices && choices.dataset.nextAtOnce === "true";
  }
  function ask(go) {
    var el = box();
    var t = table();
    if (!el || !t || askedAt === t.dataset.version) return;
    askedAt = t.dataset.version;
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
  function myTurn() {
    var t = table();
    return !!t && t.dataset.yourTurn === "true";
  }
  document.addEventListener("DOMContentLoaded", function () {
    wasMyTurn = myTurn();
    if (box() && table() && !wasMyTurn) ask(false);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "table") wasMyTurn = myTurn();
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "table") return;
    var el = box();
    if (!el) return;
    if (myTurn()) {
      el.hidden = true;
      return;
    }
    var config = event.detail.requestConfig;
    var moved = !!config && config.verb === "post" && /\/move\/$/.test(config.path || "") &&
      event.detail.xhr && event.detail.xhr.status === 200;
    if (!moved && !wasMyTurn) return;
    var t = table();
    ask(moved && atOnce() && !!t && t.dataset.status === "active");
  });
})();
