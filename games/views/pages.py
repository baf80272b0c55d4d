"""The rules pages, rendered from the project's own docs in the reader's language."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.html import format_html
from django.views.decorators.http import require_GET

from games import pages
from games.engines import get_engine


@require_GET
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rules: ``<PARLOUR_RULES_DIR>/<game>.md`` (``docs/rules/``), or its translation
    into the reader's language beside it (``<game>.de.md``), for a registered game only (the
    name never reaches the file system otherwise). Without a translation the English page is
    served, marked as English (``lang``) inside the reader's page."""
    try:
        title = get_engine(game).title
    except KeyError:
        raise Http404 from None
    reader = translation.get_language() or settings.LANGUAGE_CODE
    found = pages.page_translated(
        Path(settings.PARLOUR_RULES_DIR), game, reader, settings.LANGUAGE_CODE
    )
    if found is None:
        raise Http404
    path, written_in = found
    body = pages.render_markdown(path)
    if written_in != reader:
        body = format_html('<div lang="{}">{}</div>', written_in, body)
    return render(request, "games/rules.html", {"title": title, "game": game, "body": body})
