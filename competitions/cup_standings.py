"""A cup's standings and history, read (docs/competitions.md, "Cups"): computed each time
from its finished matches, never stored. Three queries however big the cup: its tables (every
round's, byes included), the seats of its finished matches (each seat's rank and resignation)
and the deadline moves made at its tables; the arithmetic is ``competitions.cup_scoring``'s,
which the offline verifier uses too. The next round is paired from what this returns."""

from __future__ import annotations

from dataclasses import dataclass

from competitions.cup_scoring import CupLine, cup_standings
from competitions.league_scoring import SeatResult
from competitions.league_standings import deadline_seats
from competitions.models import Event, EventTable
from games.models import Match, Seat


@dataclass(frozen=True)
class CupResults:
    """The cup so far: its standings, every table opened (round by round, the people's ids
    in seat order: the pairing's history) and the person of every bye given."""

    lines: list[CupLine]
    history: list[tuple[int, ...]]
    byes: list[int]


def cup_results(*, event: Event, withdrawn: set[int]) -> CupResults:
    """The standings of ``event`` (``withdrawn``: listed last), its history and byes."""
    entrants = event.draw[0] if event.draw else []
    history: list[tuple[int, ...]] = []
    byes: list[int] = []
    tables = EventTable.objects.filter(event_id=event.pk).order_by("circle", "number")
    for labels, match_id, dropped in tables.values_list("labels", "match_id", "dropped"):
        if dropped == EventTable.Dropped.BYE:
            byes.append(labels[0])
        elif match_id is not None:
            history.append(tuple(labels))
    deadline = deadline_seats(event)
    rows = Seat.objects.filter(
        match__event_table__event_id=event.pk, match__status=Match.Status.FINISHED
    ).values_list("match_id", "index", "user_id", "rank", "resigned_ply")
    finished: dict[int, list[SeatResult]] = {}
    for match_id, index, user_id, rank, resigned_ply in rows.order_by("match_id", "index"):
        finished.setdefault(match_id, []).append(
            SeatResult(
                user=user_id if user_id is not None else f"bot-{match_id}-{index}",
                rank=rank or 0,
                resigned=resigned_ply is not None,
                forfeited=(match_id, index) in deadline,
            )
        )
    lines = cup_standings(entrants, finished.values(), byes, withdrawn & set(entrants))
    return CupResults(lines=lines, history=history, byes=byes)
