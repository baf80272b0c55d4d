"""``{% js_words %}``: the words the site's JavaScript writes, in the reader's language, as a
``<script type="application/json" id="js-words">`` block (``static/js/words.js`` reads it;
docs/translation.md, "The words JavaScript writes"). Rendered once per language a process."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import get_language, override

from games.presentation.js_words import js_words as words

register = template.Library()


@lru_cache(maxsize=16)
def _rendered(language: str) -> SafeString:
    with override(language):
        return json_script(words(), "js-words")


@register.simple_tag
def js_words() -> SafeString:
    return _rendered(get_language() or "en-gb")
