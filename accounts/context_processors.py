"""The nav badge for every template, as a lazy value: only a page that prints it pays its query.

Partials rendered with the request (the table's poll and move answers) run every context
processor too; a lazy object keeps them at their own queries.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.selectors.notifications import awaited_count


def turn_badge(request: HttpRequest) -> dict[str, Any]:
    """``turn_badge``: the number of matches waiting for the signed-in user's move (0 when
    signed out), counted the first time a template uses it."""

    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return awaited_count(user_id=user.pk)

    return {"turn_badge": SimpleLazyObject(count)}
