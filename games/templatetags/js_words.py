"""``{% js_words %}``: the ``<script>`` that brings the words the site's scripts write, in the
reader's language (``/words.js``, ``games/views/js_words.py``; read by ``static/js/words.js``;
docs/translation.md, "The words JavaScript writes"). Its address names the language and a
digest of the words, so each language's file is fetched once and kept."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.presentation.js_words import words_digest

register = template.Library()


@register.simple_tag
def js_words() -> SafeString:
    language = get_language() or settings.LANGUAGE_CODE
    if language not in {code for code, _name in settings.LANGUAGES}:
        language = settings.LANGUAGE_CODE
    return format_html(
        '<script src="{}?lang={}&amp;v={}" defer></script>',
        reverse("js_words"),
        language,
        words_digest(language),
    )
