"""A cup's record (docs/competitions.md, "Cups"), read: its terms, entries, the entrants in
entry order, every round's tables (the people in seat order, byes too) with each match's whole
record (``games.selectors.records.match_record``) and the standings the site computed, so
anyone can recompute them offline (``python -m competitions.verify_cup``). Built only once the
cup has ended, when every match is over and its record may show everything (seed and salt
included)."""

from __future__ import annotations

from typing import Any

from competitions.cup_standings import cup_results
from competitions.models import Entry, Event, EventTable
from games.models import Seat
from games.selectors.records import match_record

FORMAT = "parlour-cup-record"
FORMAT_VERSION = 1


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat()


def cup_record(*, event: Event) -> dict[str, Any]:
    """The record of a finished cup (a query per table for its moves, beside a few)."""
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
    rows = EventTable.objects.filter(event_id=event.pk).select_related("match")
    for table in rows.order_by("circle", "number"):
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
                "round": table.circle + 1,
                "number": table.number + 1,
                "people": [names.get(user_id, "?") for user_id in table.labels],
                "dropped": table.dropped,
                "match": record,
            }
        )
    withdrawn = {user_id for user_id, _, w in entries if w}
    standings = [
        {
            "place": line.place,
            "username": names.get(int(line.user), "?"),
            "points": str(line.points),
            "buchholz": str(line.buchholz),
            "won": line.firsts,
            "played": line.played,
            "byes": line.byes,
            "forfeits": line.forfeits,
            "withdrawn": line.withdrawn,
        }
        for line in cup_results(event=event, withdrawn=withdrawn).lines
    ]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "cup": {
            "id": event.pk,
            "name": event.name,
            "game": event.game,
            "seats": event.seats,
            "rounds": event.rounds,
            "deadline_days": event.deadline_days,
            "holidays": event.holidays,
            "absences_most": event.absences_most,
            "started_at": _iso(event.started_at),
            "ends_at": _iso(event.ends_at),
            "finished_at": _iso(event.finished_at),
        },
        "entries": [{"username": name, "withdrawn": w} for _, name, w in entries],
        "entrants": [names.get(user_id, "?") for user_id in (event.draw[0] if event.draw else [])],
        "tables": tables,
        "standings": standings,
    }
