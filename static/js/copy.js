// Copy buttons: <button type="button" class="copy-button" data-copy="#id" hidden> copies what
// the element #id holds (an input's value, a link's absolute address, else its text), and says
// "Copied" in the empty role="status" element right after it, so a screen reader hears it too.
// The buttons come with the hidden attribute and only this script shows them: without it the
// text stays on the page to copy by hand. When the clipboard is refused (no permission, an
// insecure page, an old browser) the text is selected instead, ready for the keyboard's copy.
(function () {
  "use strict";

  function reveal(root) {
    if (!root || !root.querySelectorAll) return;
    var buttons = root.querySelectorAll("button[data-copy]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
    if (root.matches && root.matches("button[data-copy]")) root.hidden = false;
  }

  function textOf(source) {
    if (source.tagName === "INPUT" || source.tagName === "TEXTAREA") return source.value;
    if (source.tagName === "A" && source.href) return source.href;
    return source.textContent.trim();
  }

  function select(source) {
    if (source.tagName === "INPUT" || source.tagName === "TEXTAREA") {
      source.focus();
      source.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  var clearing = null;
  function say(button, text) {
    var status = button.nextElementSibling;
    if (!status || status.getAttribute("role") !== "status") return;
    status.textContent = text;
    if (clearing !== null) window.clearTimeout(clearing);
    clearing = window.setTimeout(function () { status.textContent = ""; clearing = null; }, 4000);
  }

  function copy(button) {
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) return;
    var text = textOf(source);
    function refused() {
      select(source);
      say(button, window.parlourWords.say("copy_by_hand"));
    }
    if (!navigator.clipboard || !navigator.clipboard.writeText) { refused(); return; }
    navigator.clipboard.writeText(text).then(function () { say(button, window.parlourWords.say("copied")); }, refused);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (button) copy(button);
  });
  reveal(document);
  // Content htmx swaps in (the table's poll, a replay frame) brings its own hidden buttons.
  document.addEventListener("htmx:load", function (event) { reveal(event.detail.elt); });
})();
