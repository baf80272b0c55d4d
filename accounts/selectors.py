"""Reads for the accounts pages: the nav badge's count."""

from __future__ import annotations

from games.models import Seat


def awaited_count(*, user_id: int) -> int:
    """How many matches wait for this person's move: one count on the ``seat_user_awaited``
    index (``awaited_since`` is set only while a match waits for the seat, cleared at its end)."""
    return Seat.objects.filter(user_id=user_id, awaited_since__isnull=False).count()
