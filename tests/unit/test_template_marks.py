"""Every word a template prints is marked for translation, or the template is on the list of
those not converted yet (docs/translation.md, "The rule the tests hold").

A template's text is read with Django's own lexer: each text token outside a
``{% blocktranslate %}`` block, with its ``<script>`` and ``<style>`` bodies, its comments and its
tags dropped, is an unmarked text node when two letters in a row remain; so is the value of an
attribute people read (``aria-label``, ``title``, ``placeholder``, ``alt``) written as words
rather than as a variable. ``NOT_CONVERTED`` listed the templates not converted yet while the
site's HTML pages were marked a part at a time (issue 37); it is empty now, so every template
with an unmarked text node fails. It stays as the place a template would wait on, and only
shrinks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]

# The templates whose words are not marked yet: the games' HTML pages (the next part of issue 37).
# Only ever remove names from it.
NOT_CONVERTED: frozenset[str] = frozenset()

WORDS = re.compile(r"[^\W\d_]{2}")
READ_ATTRIBUTES = re.compile(
    r"""\b(?:aria-label|title|placeholder|alt)\s*=\s*(["'])(.*?)\1""", re.S
)
DROPPED = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->", re.S | re.I)
TAG = re.compile(r"<[^>]*>", re.S)
ENTITY = re.compile(r"&[#\w]+;")


def templates() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in TEMPLATE_DIRS:
        for path in sorted(folder.rglob("*")):
            if path.suffix in {".html", ".txt"} and path.is_file():
                found.setdefault(path.relative_to(folder).as_posix(), path)
    return found


def unmarked_text(source: str) -> list[str]:
    """The unmarked text nodes (and read attributes written as words) of a template."""
    text: list[str] = []
    inside_translation = 0
    inside_comment = 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            inside_translation += name in {"blocktranslate", "blocktrans"}
            inside_translation -= name in {"endblocktranslate", "endblocktrans"}
            inside_comment += name == "comment"
            inside_comment -= name == "endcomment"
            text.append("\x00")  # a tag splits text nodes
        elif token.token_type == TokenType.VAR:
            text.append("\x00")
        elif token.token_type == TokenType.TEXT and not inside_translation and not inside_comment:
            text.append(token.contents)
    joined = DROPPED.sub(" ", "".join(text))
    found = [value for _, value in READ_ATTRIBUTES.findall(joined) if WORDS.search(value)]
    for node in TAG.sub("\x00", joined).split("\x00"):
        node = ENTITY.sub(" ", node).strip()
        if WORDS.search(node):
            found.append(node)
    return found


def test_the_scan_sees_words_and_passes_marks():
    source = (
        '{% load i18n %}<p title="Hello there">{% translate "Marked" %}</p>'
        "<script>let words = 'not read';</script>"
        '<p aria-label="{{ label }}">{% blocktranslate %}Hi {{ name }}{% endblocktranslate %}</p>'
        "<p>{{ value }} · 3</p><!-- a comment --><b>Left out</b>"
    )
    assert unmarked_text(source) == ["Hello there", "Left out"]


def test_the_not_converted_list_names_templates_that_exist():
    assert sorted(NOT_CONVERTED - set(templates())) == []


@pytest.mark.parametrize("name", sorted(templates()))
def test_every_template_off_the_list_marks_its_words(name):
    found = unmarked_text(templates()[name].read_text(encoding="utf-8"))
    if name in NOT_CONVERTED:
        assert found, f"{name} has no unmarked text now: take it off NOT_CONVERTED"
    else:
        assert found == [], f"{name}: unmarked text {found[:5]} (docs/translation.md)"
