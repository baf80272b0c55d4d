"""A league's record (docs/competitions.md, "Records"), read: its terms, entries, draw and
schedule, every table's whole match record (``games.selectors.records.match_record``) and the
standings the site computed, so anyone can recompute them offline
(``python -m competitions.verify_league``). Built only once the league has ended, when every
match is over and its record may show everything (seed and salt included)."""

from __future__ import annotations

from typing import Any

from competitions.league_standings import league_standings
from competitions.models import Entry, Event, EventTable
from games.models import Seat
from games.selectors.records import match_record

FORMAT = "parlour-league-record"
FORMAT_VERSION = 1


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat()


def league_record(*, event: Event) -> dict[str, Any]:
    """The record of a finished league (a query per table for its moves, beside a few)."""
    entries = list(
        Entry.objects.filter(event_id=event.pk)
        .order_by("entered_at", "pk")
        .values_list("user_id", "user__username", "withdrawn")
    )
    names = {user_id: name for user_id, name, _ in entries}
    seats_by_match: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match__event_table__event_id=event.pk).select_related("user"):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    tables = []
    for table in EventTable.objects.filter(event_id=event.pk).select_related("match"):
        record = None
        if table.match is not None:
            seats = sorted(seats_by_match.get(table.match_id, []), key=lambda s: s.index)
            record = match_record(
                match=table.match,
                seats=seats,
                names=[s.user.username if s.user else (s.bot_level or "") for s in seats],
                viewer_seat=None,
            )
        tables.append(
            {
                "circle": table.circle,
                "number": table.number,
                "labels": table.labels,
                "dropped": table.dropped,
                "match": record,
            }
        )
    withdrawn = {user_id for user_id, _, w in entries if w}
    standings = [
        [
            {
                "place": row.place,
                "username": names[int(row.user)],
                "points": row.points,
                "played": row.played,
                "won": row.won,
                "forfeits": row.forfeits,
                "withdrawn": row.withdrawn,
            }
            for row in circle.rows
        ]
        for circle in league_standings(event=event, withdrawn=withdrawn)
    ]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "league": {
            "id": event.pk,
            "name": event.name,
            "game": event.game,
            "seats": event.seats,
            "circle_size": event.circle_size,
            "circles": event.circles,
            "deadline_days": event.deadline_days,
            "holidays": event.holidays,
            "open_tables_most": event.open_tables_most,
            "absences_most": event.absences_most,
            "started_at": _iso(event.started_at),
            "ends_at": _iso(event.ends_at),
            "finished_at": _iso(event.finished_at),
        },
        "entries": [{"username": name, "withdrawn": w} for _, name, w in entries],
        "draw": [[names[user_id] for user_id in circle] for circle in event.draw],
        "tables": tables,
        "standings": standings,
    }
