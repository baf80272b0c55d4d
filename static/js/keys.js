// Keyboard shortcuts and text mode on the match and lesson pages (docs/accessibility.md,
// "Keyboard" and "Text mode"). Both are off until turned on: a seated person's play settings
// ride in the page (#keys-panel's data-keys and data-text, "on" or "off"); anyone else's
// choice (a lesson's visitor, a watcher) is kept in this
// browser (localStorage), set with the panel's two boxes. Single-key shortcuts act only while
// the focus is not in a field, and never with Ctrl, Alt or Meta (WCAG 2.1.4).
//
// Neither knows a rule or words a fact: a command is a move button's data-command (the
// server's, from the engine's legal moves), a move is made by pressing that very button (the
// same form, version and checks as a click, "confirm moves" included), and every answer is
// the table's own words (card names, the turn line, the log, a still card's data-why: the
// engine's refusal) or static/js/words.js's (text mode's answers, in the reader's language;
// the commands themselves stay English in every language: docs/translation.md).
(function () {
  "use strict";
  var panel = document.getElementById("keys-panel");
  var section = document.getElementById("text-mode");
  if (!panel || !section) return;
  var form = document.getElementById("text-mode-form");
  var field = document.getElementById("text-command");
  var output = document.getElementById("text-output");
  var KEEP = 30; // answers the output keeps

  function stored(name) {
    try {
      return window.localStorage.getItem("parlour." + name) === "on";
    } catch (e) {
      return false;
    }
  }
  function store(name, on) {
    try {
      window.localStorage.setItem("parlour." + name, on ? "on" : "off");
    } catch (e) {
      /* a browser that keeps nothing: the choice lasts this page */
    }
  }
  // A seated person's setting ("on"/"off"); "" (a visitor): this browser's.
  function chosen(attr, name) {
    var value = panel.getAttribute(attr);
    return value ? value === "on" : stored(name);
  }
  var keysOn = chosen("data-keys", "keys");
  var textOn = chosen("data-text", "text");

  function show() {
    var state = document.getElementById("keys-state");
    if (state) state.textContent = window.parlourWords.say(keysOn ? "keys_on" : "keys_off");
    section.hidden = !textOn;
  }
  function toggle(id, name, set) {
    var box = document.getElementById(id);
    if (!box) return;
    box.checked = name === "keys" ? keysOn : textOn;
    box.addEventListener("change", function () {
      store(name, box.checked);
      set(box.checked);
      show();
    });
  }
  toggle("keys-toggle", "keys", function (on) {
    keysOn = on;
  });
  toggle("text-toggle", "text", function (on) {
    textOn = on;
  });
  show();

  // ---- what the table shows, in its own words ----
  function table() {
    return document.getElementById("table");
  }
  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function moveButtons() {
    var t = table();
    return t ? Array.prototype.slice.call(t.querySelectorAll("button.move[data-command]")) : [];
  }
  function handSlots() {
    var t = table();
    return t ? Array.prototype.slice.call(t.querySelectorAll("#hand .slot[data-number]")) : [];
  }
  function commandsOf(slot) {
    return Array.prototype.map.call(slot.querySelectorAll("button.move[data-command]"), function (b) {
      return b.dataset.command;
    });
  }
  function word(name, values) {
    // static/js/words.js: text mode's answers in the reader's language (its commands stay English)
    return window.parlourWords.say("text_" + name.replace(/-/g, "_"), values);
  }
  var echo = ""; // the command answered, said first (as a terminal shows what was typed)
  function answer(lines) {
    var said = [].concat(lines).filter(Boolean);
    if (!said.length) said = [word("empty")];
    var block = document.createElement("div");
    var typed = document.createElement("p");
    typed.className = "typed";
    typed.textContent = "\u203a " + echo; // the command as typed, after a prompt
    block.appendChild(typed);
    said.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      block.appendChild(p);
    });
    output.appendChild(block);
    while (output.childElementCount > KEEP) output.removeChild(output.firstElementChild);
  }

  function turn() {
    return [text(document.getElementById("turn-line")), text(document.getElementById("deadline"))];
  }
  function moves() {
    var buttons = moveButtons();
    if (!buttons.length) return [word("moves-none")].concat(turn());
    return [word("moves")].concat(
      buttons.map(function (b) {
        return b.dataset.command + ": " + b.getAttribute("aria-label");
      })
    );
  }
  function hand() {
    var slots = handSlots();
    if (!slots.length) return [word("hand-none")];
    return slots.map(function (slot) {
      var offered = commandsOf(slot);
      return slot.dataset.name + (offered.length ? " (" + offered.join(", ") + ")" : "");
    });
  }
  function seats() {
    var t = table();
    if (!t) return [];
    var gulliver = t.querySelectorAll("#seats h3");
    if (gulliver.length) {
      return Array.prototype.map.call(gulliver, function (h) {
        return text(h) + ": " + text(h.nextElementSibling);
      });
    }
    return Array.prototype.map.call(t.querySelectorAll("#players [data-seat]"), function (p) {
      var row = Array.prototype.map.call(p.querySelectorAll(".story-row [data-card]"), function (c) {
        return c.getAttribute("aria-label");
      });
      var penalty = text(p.querySelector("[data-penalty]"));
      return [text(p.querySelector("h3")), text(p.querySelector(".meta .visually-hidden"))]
        .concat(row.length ? [row.join(", ")] : [], penalty ? [penalty] : [])
        .join("; ");
    });
  }
  function board() {
    var t = table();
    if (!t) return [];
    var sentence = t.querySelector("#sentence");
    if (sentence) {
      var words = Array.prototype.map.call(sentence.querySelectorAll("[data-card]"), function (c) {
        return c.getAttribute("aria-label");
      });
      return [text(sentence.querySelector("h2")) + ": " + (words.join("; ") || text(sentence.querySelector(".muted")))];
    }
    var said = [text(t.querySelector(".pack [role=img]"))];
    Array.prototype.forEach.call(t.querySelectorAll("#discards .slot[data-number]"), function (s) {
      said.push(s.dataset.name);
    });
    said.push(text(t.querySelector("#discards > p:last-child")));
    return said;
  }
  function log(count) {
    var lines = document.querySelectorAll("#event-log li");
    var said = [];
    for (var i = 0; i < lines.length && i < count; i++) said.push(text(lines[i]));
    return said;
  }
  function help() {
    return Array.prototype.map.call(
      document.querySelectorAll("#text-mode-commands li"),
      text
    );
  }
  var READS = {
    help: help,
    "?": help,
    moves: moves,
    hand: hand,
    turn: turn,
    last: function () {
      return log(1);
    },
    log: function () {
      return log(5);
    },
    seats: seats,
    scores: seats,
    table: board,
  };

  function press(button) {
    var what = button.getAttribute("aria-label");
    button.click();
    return word("sent", { move: what });
  }
  // A command that names no move on offer: why not, in the engine's words where a card or the
  // pack carries them (its data-why), else what that card offers, else what is on offer.
  function refuse(command) {
    var number = /(\d+)\s*$/.exec(command);
    var slots = handSlots();
    if (!/^take/.test(command) && number) {
      var slot = slots[Number(number[1]) - 1];
      if (slot && slot.dataset.why) return [slot.dataset.name, slot.dataset.why];
      if (slot && commandsOf(slot).length) {
        return [word("offers", { number: number[1], commands: commandsOf(slot).join(", ") })];
      }
    }
    var t = table();
    var still = null;
    if (t && /^take discard (\d+)$/.test(command)) {
      var discard = t.querySelectorAll("#discards .slot[data-number]")[Number(number[1]) - 1];
      if (discard && discard.dataset.why) still = discard;
    } else if (t && /^draw/.test(command)) {
      still = t.querySelector(".pack[data-why]");
    }
    if (still) return [still.dataset.why];
    return [word("unknown", { command: command })].concat(moves());
  }
  function run(typed) {
    var command = typed.toLowerCase().replace(/\s+/g, " ").trim();
    if (!command) return;
    echo = command;
    if (READS[command]) return answer(READS[command]());
    if (/^take \d+$/.test(command)) command = command.replace("take", "take discard");
    var buttons = moveButtons();
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].dataset.command === command) return answer(press(buttons[i]));
    }
    answer(refuse(command));
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var typed = field.value;
    field.value = "";
    run(typed);
  });

  // ---- single-key shortcuts ----
  function focusFirst(selectors) {
    for (var i = 0; i < selectors.length; i++) {
      var found = document.querySelector(selectors[i]);
      if (found && !found.closest("[hidden]")) {
        found.focus();
        return true;
      }
    }
    return false;
  }
  function pick(number) {
    var slot = handSlots()[number - 1];
    if (!slot) return false;
    var target = slot.querySelector("button.move") || (slot.hasAttribute("tabindex") ? slot : null);
    if (target) target.focus();
    return !!target;
  }
  function draw() {
    var draws = moveButtons().filter(function (b) {
      return /^draw/.test(b.dataset.command);
    });
    if (draws.length) {
      draws[0].focus();
      draws[0].click();
      return true;
    }
    return focusFirst(["#table .pack[data-why]"]);
  }
  function listShortcuts() {
    panel.open = true;
    document.getElementById("keys-summary").focus();
    return true;
  }
  var KEYS = {
    d: draw,
    m: function () {
      return focusFirst(["#table button.move[data-move]"]);
    },
    t: function () {
      return focusFirst(["#turn-line"]);
    },
    l: function () {
      return focusFirst(["#event-log-h"]);
    },
    c: function () {
      return textOn && focusFirst(["#text-command"]);
    },
    "?": listShortcuts,
  };
  document.addEventListener("keydown", function (event) {
    if (!keysOn || event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
    var el = event.target;
    if (el && el.closest && el.closest("input, textarea, select, [contenteditable]")) return;
    if (document.getElementById("move-confirm")) return; // Confirm or Cancel first
    var done = false;
    if (/^[1-9]$/.test(event.key)) done = pick(Number(event.key));
    else if (KEYS[event.key]) done = KEYS[event.key]();
    if (done) event.preventDefault();
  });
})();
