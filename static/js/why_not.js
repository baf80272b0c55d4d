// Every card and pile on the table answers a click (docs/features.md, "The table answers every
// click"): one that offers no move now carries the reason in its data-why (the engine's own
// refusal, worded on the server from the seat's hand and public facts), shown in the request
// notice at the viewport's foot; a card with one move makes it; the pack, when a draw from it is
// on offer, presses that move's button (data-click-move holds the move as the button's
// data-move spells it). Keyboard users reach the still cards and the pack (tabindex="0",
// role="button"): Enter or Space does what a click does. With hints on, the reason is said beside
// the hand (#hint-why) rather than at the foot.
(function () {
  "use strict";
  function say(text) {
    var el = document.getElementById("request-error");
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
  }
  // With the seat's hints on (a #hint-why line in its hand), the reason goes beside the hand
  // instead, naming the card or pile picked, which is outlined until the next pick.
  function sayBeside(still) {
    var el = document.getElementById("hint-why");
    if (!el) return false;
    var picked = document.querySelectorAll("#table .picked");
    for (var i = 0; i < picked.length; i++) picked[i].classList.remove("picked");
    still.classList.add("picked");
    var name = still.getAttribute("aria-label");
    el.textContent = (name ? name + ". " : "") + still.dataset.why;
    el.hidden = false;
    return true;
  }
  function act(target) {
    var still = target.closest("[data-why]");
    if (still) {
      if (!sayBeside(still)) say(still.dataset.why);
      return true;
    }
    // A card with moves hung on it: a click on the card itself makes its one move (through
    // "confirm moves" like any press of the button), or with several brings the first to hand.
    var slot = target.closest("#table .slot");
    if (slot) {
      var own = slot.querySelectorAll("button.move");
      if (own.length === 1) own[0].click();
      else if (own.length > 1) own[0].focus();
      return own.length > 0;
    }
    var pile = target.closest("[data-click-move]");
    if (!pile) return false;
    var buttons = document.querySelectorAll("#table button.move[data-move]");
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].dataset.move === pile.dataset.clickMove) {
        buttons[i].click();
        return true;
      }
    }
    return false;
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("button, a, input, select, textarea, label")) return;
    act(event.target);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var el = event.target;
    if (!el.matches || !el.matches("[data-why], [data-click-move]")) return;
    if (act(el)) event.preventDefault();
  });
})();
