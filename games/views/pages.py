"""The rules pages, rendered from the project's own docs."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import pages
from games.engines import get_engine


@require_GET
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rules: ``<PARLOUR_RULES_DIR>/<game>.md`` (``docs/rules/``), for a registered
    game only (the name never reaches the file system otherwise)."""
    try:
        title = get_engine(game).title
    except KeyError:
        raise Http404 from None
    path = Path(settings.PARLOUR_RULES_DIR) / f"{game}.md"
    if not path.is_file():
        raise Http404
    return render(
        request,
        "games/rules.html",
        {"title": title, "game": game, "body": pages.render_markdown(path)},
    )
