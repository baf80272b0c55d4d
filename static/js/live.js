// What changed reaches an open page at once (docs/live.md). The page listens to its server-sent
// events stream (body[data-live]: "/live/?match=M" on a table, "/live/" elsewhere), which carries
// numbers only: a "table" event (the match's version and phrase count) makes the table fetch its
// partial exactly as a poll does (its hx-get answers 204 when the page is current), and a "badge"
// event refreshes the nav badge when its count changed. While the stream is down (no Redis, a
// proxy that drops it, a server restarting) the page polls as before: the table every 2 s, the
// badge every 30 s (5 s on a site without streams) and after each table swapped in; the notices
// page's lists follow the badge. A hidden tab does neither: it closes its stream and stops its timers, and on
// becoming visible it reconnects (the stream sends the current state at once) or polls at once.
(function () {
  "use strict";
  var TABLE_EVERY = 2000;
  // The badge's poll: every 5 s on a site without streams (the embedded default, `make run`:
  // body without data-live), so a challenge or an offer shows within 5 s on any page; every 30 s
  // while a site's stream is down (an outage: every page of every person polls, and a table's
  // badge follows each table swapped in anyway). docs/live.md, "The notices page".
  var BADGE_EVERY = document.body && document.body.dataset.live ? 30000 : 5000;
  // A stream refused (503 while Redis is down, 204 where a server has none): poll, and try
  // again after 10 s, then twice as long each time it is refused again, up to 5 minutes.
  var REOPEN_FIRST = 10000;
  var REOPEN_MOST = 300000;
  var reopenAfter = REOPEN_FIRST;
  var url = document.body && document.body.dataset.live;
  var source = null;
  var reopenTimer = null;
  var tableTimer = null;
  var badgeTimer = null;
  // The newest table event's numbers. A fetch asked for while another is under way is queued
  // by htmx on the old #table, which the first answer's swap removes: that fetch never goes.
  var announced = null;

  function table() {
    var found = document.getElementById("table");
    return found && found.getAttribute("hx-get") ? found : null;
  }
  function badge() {
    return document.getElementById("turn-badge");
  }
  function tableFetch() {
    var found = table();
    if (found && window.htmx) window.htmx.trigger(found, "parlour-poll");
  }
  // A badge fetch asked for while the badge itself is being swapped in is remembered and asked
  // again once that swap has settled: between htmx's swap and its settle (20 ms) the new element
  // is in the page but not yet processed, and the event sent to it is lost (the badge then kept
  // the count of before a turn's last move: test_the_badge_and_the_title_follow_the_table_at_once,
  // 2 runs in 5).
  var badgeWanted = false;
  function badgeFetch() {
    var found = badge();
    if (!found || !window.htmx) return;
    badgeWanted = true;
    window.htmx.trigger(found, "parlour-poll");
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target && event.target.id === "turn-badge") badgeWanted = false;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (badgeWanted && event.target && event.target.id === "turn-badge") badgeFetch();
  });
  // The notices page's lists (#notice-lists) follow the badge: fetched on every badge event (its
  // count may stay while an offer ends and another comes) and with every badge poll; swapped in
  // only when they changed (below). Not while an answer is under way, nor for REFUSAL_READ after
  // a refusal came in place of an offer's buttons (the person is reading it; the refresh would
  // take the offer's line away with it): asked once that time is over.
  var REFUSAL_READ = 15000;
  var noticesHeldUntil = 0;
  var noticesLater = null;
  function noticesFetch() {
    var found = document.getElementById("notice-lists");
    if (!found || !window.htmx) return;
    var wait = noticesHeldUntil - Date.now();
    if (wait > 0) {
      if (!noticesLater) noticesLater = window.setTimeout(function () {
        noticesLater = null;
        if (visible()) noticesFetch();
      }, wait);
      return;
    }
    if (found.querySelector(".htmx-request")) return;
    window.htmx.trigger(found, "parlour-notices");
  }
  document.addEventListener("htmx:afterSettle", function () {
    var lists = document.getElementById("notice-lists");
    var refusal = lists && lists.querySelector("#invitation-refused:not([data-read-from])");
    if (!refusal) return;
    refusal.setAttribute("data-read-from", String(Date.now()));
    noticesHeldUntil = Date.now() + REFUSAL_READ;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "notice-lists" || !event.detail.serverResponse) return;
    var fresh = document.createElement("div");
    fresh.innerHTML = event.detail.serverResponse;
    var next = fresh.querySelector("#notice-lists");
    if (next && sameLists(next, target)) event.detail.shouldSwap = false;
  });
  // The same lists but for the forms' CSRF tokens (masked anew at every render).
  function sameLists(a, b) {
    function text(element) {
      var copy = element.cloneNode(true);
      copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (input) {
        input.remove();
      });
      return copy.innerHTML.replace(/\s+/g, " ").trim();
    }
    return text(a) === text(b);
  }
  function badgeTick() {
    badgeFetch();
    noticesFetch();
  }
  function visible() {
    return document.visibilityState !== "hidden";
  }

  function pollStart() {
    if (!tableTimer) tableTimer = window.setInterval(tableFetch, TABLE_EVERY);
    if (!badgeTimer) badgeTimer = window.setInterval(badgeTick, BADGE_EVERY);
  }
  function pollStop() {
    window.clearInterval(tableTimer);
    window.clearInterval(badgeTimer);
    tableTimer = badgeTimer = null;
  }

  // Whether the table shown is older than the stream last said (versions and phrase counts only
  // grow, so asking again until it is not ends).
  function behind(found) {
    if (!announced) return false;
    var version = Number(found.dataset.version);
    return version < announced.version ||
      (version === announced.version && Number(found.dataset.phrases || 0) < announced.phrases);
  }
  function onTable(event) {
    var data = JSON.parse(event.data);
    announced = data;
    var found = table();
    if (!found) return;
    if (Number(found.dataset.version) !== data.version ||
        Number(found.dataset.phrases || 0) !== data.phrases) tableFetch();
  }
  // A watcher's stream (anyone not a member of a public match) carries the table itself: the
  // "watch" event's data is the partial every watcher shares, swapped in as a fetch's answer
  // would be, without the fetch. Each is the whole table, so one missed changes nothing: the
  // next is whole too. One without a table in it (never sent so) is fetched as a "table"
  // event's would be, and a table older than the page's is left.
  function onWatch(event) {
    var found = table();
    if (!found || !window.htmx) return;
    var fresh = document.createElement("template");
    fresh.innerHTML = event.data;
    var next = fresh.content.querySelector("#table");
    if (!next) {
      tableFetch();
      return;
    }
    var marks = {
      version: Number(next.dataset.version),
      phrases: Number(next.dataset.phrases || 0),
    };
    if (!announced || marks.version > announced.version ||
        (marks.version === announced.version && marks.phrases > announced.phrases)) {
      announced = marks;
    }
    if (!behind(found)) return;
    window.htmx.swap(found, event.data, { swapStyle: "outerHTML" });
  }
  function onBadge(event) {
    var data = JSON.parse(event.data);
    var found = badge();
    if (found && Number(found.dataset.count) !== data.count) badgeFetch();
    noticesFetch();
    if (window.parlourAppBadge) window.parlourAppBadge(data.turns);
  }

  function close() {
    if (source) source.close();
    source = null;
    window.clearTimeout(reopenTimer);
    reopenTimer = null;
  }
  function open() {
    if (!url || source || !window.EventSource) return false;
    source = new window.EventSource(url);
    source.addEventListener("open", function () {
      reopenAfter = REOPEN_FIRST;
      pollStop();
    });
    source.addEventListener("table", onTable);
    source.addEventListener("watch", onWatch);
    source.addEventListener("badge", onBadge);
    source.addEventListener("error", function () {
      // Reconnecting by itself (readyState CONNECTING): poll meanwhile. Refused for good
      // (CLOSED: a 503 while Redis is down, a 403 once signed out): poll, try again later.
      if (!visible()) return;
      pollStart();
      if (source && source.readyState === window.EventSource.CLOSED) {
        source = null;
        reopenTimer = window.setTimeout(function () {
          reopenTimer = null;
          if (visible()) open();
        }, reopenAfter);
        reopenAfter = Math.min(reopenAfter * 2, REOPEN_MOST);
      }
    });
    return true;
  }

  function shown() {
    if (!open()) {
      // No stream on this page (live changes off, or signed out): poll, once at once.
      tableFetch();
      badgeTick();
      pollStart();
    }
  }
  function hidden() {
    close();
    pollStop();
  }
  function streaming() {
    return !!source && source.readyState === window.EventSource.OPEN;
  }

  // A table swapped in (a move's answer, a poll's news) may change the badge's count: with no
  // stream to tell it, the badge asks at once, so the two agree. With the stream, a table event
  // that came while a fetch was under way is caught up here (its own fetch was lost with the
  // swapped-out #table), else the page would stay a move behind until the next event.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "table") return;
    if (!streaming()) {
      badgeFetch();
      return;
    }
    var found = table();
    if (found && behind(found)) tableFetch();
  });

  // Hidden tabs stay quiet everywhere: the progress polls (an analysis, a data export, a
  // match's rating changes: hx-trigger "every Ns" on an element marked data-quiet-poll) send
  // nothing while the tab is hidden, and ask once at once when it is shown again.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!visible() && elt && elt.hasAttribute && elt.hasAttribute("data-quiet-poll")) {
      event.preventDefault();
    }
  });
  function quietPollsCatchUp() {
    if (!window.htmx) return;
    document.querySelectorAll("[data-quiet-poll]").forEach(function (found) {
      window.htmx.trigger(found, "parlour-quiet-poll");
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (visible()) {
      shown();
      quietPollsCatchUp();
    } else hidden();
  });
  // The page was rendered current: only start listening (or the timers).
  if (visible()) {
    if (!open()) pollStart();
  }
  window.parlourLive = {
    streaming: streaming,
    polling: function () {
      return !!tableTimer;
    },
  };
})();
