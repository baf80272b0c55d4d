"""A ladder's record (docs/competitions.md, "The ladder's record"), read: its history of places
in order (joins, leaves, and each challenge's result with its match's whole record) and the
places now, so anyone can replay the places from the results without the site
(``python -m competitions.verify_ladder``). Language-free: kinds and names, no words.

Only a finished match's record is in it (a result is written when its match finishes, so every
result's match is over, and its record may show everything, seed and salt included); a
challenge still being played has no event yet, so nothing of a running match leaves the site.
"""

from __future__ import annotations

from typing import Any

from competitions.models import LadderEvent, LadderRung
from games.models import Match, Seat
from games.selectors.records import match_record

FORMAT = "parlour-ladder-record"
FORMAT_VERSION = 1


def _name(user: Any) -> str | None:
    return None if user is None else user.get_username()


def ladder_record(*, game: str) -> dict[str, Any]:
    """The record of ``game``'s ladder (a query per result for its match's moves)."""
    events = list(
        LadderEvent.objects.filter(ladder__game=game)
        .select_related("user", "other", "challenge__match")
        .order_by("at", "pk")
    )
    match_ids = [e.challenge.match_id for e in events if e.challenge is not None]
    seats_by_match: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match_id__in=match_ids).select_related("user"):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    history = []
    for event in events:
        record = None
        if event.challenge is not None and event.challenge.match.status == Match.Status.FINISHED:
            seats = sorted(seats_by_match.get(event.challenge.match_id, []), key=lambda s: s.index)
            record = match_record(
                match=event.challenge.match,
                seats=seats,
                names=[s.user.username if s.user else (s.bot_level or "") for s in seats],
                viewer_seat=None,
            )
        history.append(
            {
                "kind": event.kind,
                "at": event.at.isoformat(),
                "username": _name(event.user),
                "other": _name(event.other),
                "from_place": event.from_place,
                "to_place": event.to_place,
                "match": record,
            }
        )
    places = (
        LadderRung.objects.filter(ladder__game=game)
        .order_by("position")
        .values_list("user__username", flat=True)
    )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "ladder": {"game": game},
        "history": history,
        "places": list(places),
    }
