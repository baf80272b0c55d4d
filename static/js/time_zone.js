// Time-zone lists (docs/accounts.md, "Time zones"). Each <select data-zone-list> (sign-up, the
// account page, /accounts/time-zone/) gets:
// - the browser's own zone first, in a group "Your browser's zone" (the same option as in its
//   region's group; a zone name the list lacks is added there as it is, and the server checks
//   it);
// - a filter field before it: typing a city, country, region or part of the zone's name hides
//   the options that do not match, picks the first one that does when the chosen one is hidden,
//   and says how many match.
// A <select data-suggest-zone> (the sign-up form, shown fresh) is also set to the browser's zone,
// once. Without this script the list is the same, grouped by region, without the filter; the
// sign-up form keeps UTC and the person picks by hand.
(function () {
  "use strict";
  var say = window.parlourWords.say; // static/js/words.js: the reader's language

  var ZONE_NAME = /^(UTC|[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+)$/;

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return "";
    }
  }

  function optionFor(select, zone) {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === zone) return select.options[i];
    }
    return null;
  }

  function browserFirst(select, zone) {
    if (!zone || !ZONE_NAME.test(zone)) return;
    var known = optionFor(select, zone);
    var option = document.createElement("option");
    option.value = zone;
    option.textContent = known ? known.textContent : zone;
    var group = document.createElement("optgroup");
    group.label = say("zone_browser");
    group.setAttribute("data-browser-zone", "");
    group.appendChild(option);
    var selected = select.value;
    select.insertBefore(group, select.firstChild);
    select.value = selected; // the zone chosen stays chosen
  }

  function plain(text) {
    var lowered = text.toLowerCase().replace(/_/g, " ");
    return lowered.normalize ? lowered.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : lowered;
  }

  function addFilter(select) {
    var input = document.createElement("input");
    input.type = "search";
    input.className = "zone-filter";
    input.id = (select.id || "zone") + "-filter";
    input.placeholder = say("zone_find");
    input.setAttribute("aria-label", say("zone_find_label"));
    input.setAttribute("aria-controls", select.id || "");
    input.autocomplete = "off";
    var count = document.createElement("small");
    count.className = "zone-filter-count";
    count.id = input.id + "-count";
    count.setAttribute("aria-live", "polite");
    select.parentNode.insertBefore(input, select);
    select.parentNode.insertBefore(count, select.nextSibling);

    var texts = [];
    for (var i = 0; i < select.options.length; i++) {
      var option = select.options[i];
      var group = option.parentNode.tagName === "OPTGROUP" ? option.parentNode.label : "";
      texts.push(plain(option.textContent + " " + option.value + " " + group));
    }

    input.addEventListener("input", function () {
      var words = plain(input.value).split(/\s+/).filter(Boolean);
      var shown = 0;
      var seen = {};
      var first = null;
      for (var j = 0; j < select.options.length; j++) {
        var opt = select.options[j];
        var match = words.every(function (word) {
          return texts[j].indexOf(word) !== -1;
        });
        opt.hidden = !match;
        if (match) {
          if (!seen[opt.value]) shown += 1; // the browser's zone is listed twice
          seen[opt.value] = true;
          if (!first) first = opt;
        }
      }
      var groups = select.querySelectorAll("optgroup");
      for (var k = 0; k < groups.length; k++) {
        groups[k].hidden = !groups[k].querySelector("option:not([hidden])");
      }
      var current = select.options[select.selectedIndex];
      if (first && (!current || current.hidden)) select.value = first.value;
      if (!words.length) {
        count.textContent = "";
      } else if (!shown) {
        count.textContent = say("zone_none", { typed: input.value });
      } else {
        count.textContent = window.parlourWords.counted("zone_matches", shown);
      }
    });
  }

  function setUp() {
    var zone = browserZone();
    var lists = document.querySelectorAll("select[data-zone-list]");
    for (var i = 0; i < lists.length; i++) {
      if (lists[i].hasAttribute("data-zone-ready")) continue;
      lists[i].setAttribute("data-zone-ready", "");
      browserFirst(lists[i], zone);
      addFilter(lists[i]);
    }
    var selects = document.querySelectorAll("select[data-suggest-zone]");
    for (var s = 0; s < selects.length; s++) {
      if (zone && optionFor(selects[s], zone)) selects[s].value = zone;
      selects[s].removeAttribute("data-suggest-zone");
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
