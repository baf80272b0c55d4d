"""The site's scripts write no words of their own (docs/translation.md, "The words JavaScript
writes"): every word a script shows comes from ``/words.js`` (games/presentation/js_words.py)
through ``static/js/words.js``, or from the page itself.

The scan drops each script's comments and reads its string literals: one that reads as words
(two words with a space between, or a capitalised word such as "Copied", or a sentence's end)
fails unless it is a CSS selector or on ``TECHNICAL`` (key names, DOM values, storage keys:
never shown).
Every key a script asks ``parlourWords`` for must exist in the table, and no key in the table
may go unused.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from games.presentation.js_words import js_words

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))

# String literals that look like words but are never shown to anyone.
TECHNICAL = frozenset(
    {
        "ArrowLeft",
        "ArrowRight",
        "Content-Type",
        "Enter",
        "Escape",
        "HX-Request",
        "INPUT",
        "NoAnswer",
        "Notification",
        "PushManager",
        "SELECT",
        "Spacebar",
        "TEXTAREA",
        "BUTTON",
        "Home",
        "End",
        "use strict",
        "parlour.",  # a localStorage key's prefix
        "no answer",  # an Error's message the script tells apart by its name, never shown
        "take discard",  # a text-mode command: commands stay English (docs/translation.md)
        "(pointer: coarse)",  # media queries
        "(prefers-reduced-motion: reduce)",
        "button, a, input, select, textarea, label",  # a list of tag names
    }
)
# A CSS selector ("#table button.move[data-move]") is not words.
SELECTOR = re.compile(r"^[#.]|[#\[]")

STRING = re.compile(r"""(["'`])((?:\\.|(?!\1)[^\\\n])*)\1""")
LINE_COMMENT = re.compile(r"(^|[^:\\])//[^\n]*")
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
REGEX_LITERAL = re.compile(r"(?<=[(,=!&|?:;])\s*/(?:\\.|[^/\n\\])+/[gimsuy]*")
WORD = re.compile(r"[^\W\d_]{2,}")
ONE_WORD = re.compile(r"^[A-Z][a-z]+$|[a-z][.!?:]$")


def reads_as_words(text: str) -> bool:
    """Two words with a space in between, a capitalised word, or a sentence's end."""
    return (" " in text and len(WORD.findall(text)) >= 2) or bool(ONE_WORD.search(text))


ASKED = re.compile(r"""\b(say|word|counted)\(\s*["']([\w-]+)["']\s*[,)]""")


def literals(source: str) -> list[str]:
    """The string literals of a script, its comments and regular expressions dropped."""
    source = BLOCK_COMMENT.sub(" ", source)
    kept: list[str] = []
    for line in source.splitlines():
        code = STRING.sub(lambda m: "\x00" * len(m.group(0)), line)
        cut = LINE_COMMENT.search(code)
        if cut:
            line = line[: cut.start() + len(cut.group(1))]
        kept.append(REGEX_LITERAL.sub(" ", line))
    return [match.group(2) for match in STRING.finditer("\n".join(kept))]


def words_written(source: str) -> list[str]:
    return [
        text
        for text in literals(source)
        if text not in TECHNICAL
        and not SELECTOR.search(text)
        and reads_as_words(text.replace("\\u00a0", " "))
    ]


def test_the_scan_sees_words_and_passes_keys():
    source = (
        '// "Your turn" in a comment\n'
        'el.textContent = "Copied";\n'
        "bar.setAttribute('aria-label', 'Confirm your move'); // said\n"
        'b.textContent = say("copied"); if (event.key === "Escape") x = /^a b$/;\n'
        'p.textContent = n + " of 3 stars";\n'
    )
    assert words_written(source) == ["Copied", "Confirm your move", " of 3 stars"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_writes_words_of_its_own(script):
    found = words_written(script.read_text(encoding="utf-8"))
    assert found == [], f"{script.name}: words outside static/js/words.js: {found[:5]}"


def test_every_key_a_script_asks_for_is_worded_and_every_word_is_asked_for():
    with translation.override("en-gb"):
        table = js_words()
    keys = {key.split(":")[0] for key in table}
    asked: set[str] = set()  # the keys asked for by name: say("copied"), counted("zone_matches", n)
    named: set[str] = set()  # every literal of the scripts (a key may be chosen: a ? "x" : "y")
    for script in SCRIPTS:
        source = script.read_text(encoding="utf-8")
        for function, key in ASKED.findall(source):
            # keys.js's word("moves-none") asks for text mode's answer "text_moves_none"
            if script.name == "keys.js" and function == "word":
                key = "text_" + key.replace("-", "_")
            asked.add(key)
        named |= set(literals(source))
    assert sorted(asked - keys) == []
    assert sorted(keys - asked - named) == []


def test_a_german_reader_gets_german_words():
    with translation.override("de"):
        table = js_words()
    assert table["confirm"] != "Confirm"
    assert table["zone_matches:one"] != table["zone_matches:other"]
