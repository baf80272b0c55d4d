"""The registered games for every template (navigation, home, rules links): templates loop over
the registry and never name a game."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from games.engines import registered


def parlour_games(request: HttpRequest) -> dict[str, Any]:
    """``parlour_games``: each registered game's engine, in the site's order (no query)."""
    return {"parlour_games": registered()}


def parlour_live(request: HttpRequest) -> dict[str, Any]:
    """``parlour_live``: whether pages listen to ``/live/`` (docs/live.md) or only poll."""
    return {"parlour_live": settings.PARLOUR_LIVE}
