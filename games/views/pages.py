"""The rules pages, rendered from the project's own docs."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import pages
from games.engines import ENGINE_NAMES
from games.models import Match


@require_GET
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in ENGINE_NAMES:
        raise Http404
    path = Path(settings.BASE_DIR) / "docs" / "rules" / f"{game}.md"
    if not path.is_file():
        raise Http404
    return render(
        request,
        "games/rules.html",
        {"title": Match.Game(game).label, "game": game, "body": pages.render_markdown(path)},
    )
