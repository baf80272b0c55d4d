"""The registered games for every template (navigation, home, rules links): templates loop over
the registry and never name a game. And the nav badge (``notice_badge``: what the notices page
lists) as a lazy value: only a page that prints it pays its queries. Partials rendered with the
request (the table's poll and move answers) run every context processor too; a lazy object keeps
them at their own queries."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.engines import registered
from games.views.notice_sources import notice_badge_count


def parlour_games(request: HttpRequest) -> dict[str, Any]:
    """``parlour_games``: each registered game's engine, in the site's order (no query)."""
    return {"parlour_games": registered()}


def parlour_live(request: HttpRequest) -> dict[str, Any]:
    """``parlour_live``: whether pages listen to ``/live/`` (docs/live.md) or only poll."""
    return {"parlour_live": settings.PARLOUR_LIVE}


def notice_badge(request: HttpRequest) -> dict[str, Any]:
    """``notice_badge``: what awaits the signed-in user, every kind of notice they want added
    up (0 when signed out), counted the first time a template uses it."""

    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return notice_badge_count(user.pk)

    return {"notice_badge": SimpleLazyObject(count)}
