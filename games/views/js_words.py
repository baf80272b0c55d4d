"""``/words.js``: the words the site's scripts write, in one language, as a script that sets
``window.parlourWordsTable`` (docs/translation.md, "The words JavaScript writes").

``{% js_words %}`` (``games/templatetags/js_words.py``) links it from every page as
``/words.js?lang=<code>&v=<digest>``: the language named, and a digest of the words, so the
browser keeps each language's file for a day and fetches a new one when the words change. A
missing or unknown ``lang`` gives the reader's own language (never an error). The words stay
out of the HTML pages themselves; ``static/js/words.js`` reads the table.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games.presentation.js_words import words_script

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


@require_safe
@cache_control(max_age=86400)
def words(request: HttpRequest) -> HttpResponse:
    """``/words.js``."""
    asked = request.GET.get("lang", "")
    language = asked if asked in LANGUAGE_CODES else (get_language() or settings.LANGUAGE_CODE)
    response = HttpResponse(words_script(language), content_type="text/javascript; charset=utf-8")
    response["Content-Language"] = language
    return response
