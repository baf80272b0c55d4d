// The browser suggests its time zone: a <select data-suggest-zone> (the sign-up form, shown
// fresh) is set to Intl's zone when the list has it, once. Without this script, or with a zone
// the list lacks, the select keeps UTC and the person picks by hand.
(function () {
  "use strict";

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return "";
    }
  }

  function suggest() {
    var zone = browserZone();
    if (!zone) return;
    var selects = document.querySelectorAll("select[data-suggest-zone]");
    for (var i = 0; i < selects.length; i++) {
      var select = selects[i];
      for (var j = 0; j < select.options.length; j++) {
        if (select.options[j].value === zone) {
          select.value = zone;
          break;
        }
      }
      select.removeAttribute("data-suggest-zone");
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", suggest);
  } else {
    suggest();
  }
})();
