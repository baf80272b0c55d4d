"""A league's standings, read (docs/competitions.md, "Standings"): computed each time from its
finished matches, never stored. Two queries however big the league: its tables' seats (with the
match's state and each seat's rank) and the deadline moves made at its tables; the arithmetic is
``competitions.league_scoring``'s, which the offline verifier uses too."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from competitions.league_scoring import SeatResult, StandingRow, circle_standings
from competitions.models import Event
from games.models import Match, Move, Seat


@dataclass(frozen=True)
class CircleStandings:
    """One circle's standings, best first, its people by user id."""

    circle: int
    rows: list[StandingRow]


def deadline_seats(event: Event) -> set[tuple[int, int]]:
    """(match id, seat index) of every seat the deadline bot moved for, at the league's tables."""
    return set(
        Move.objects.filter(match__event_table__event_id=event.pk, auto=Move.Auto.DEADLINE)
        .values_list("match_id", "seat")
        .distinct()
    )


def forfeit_counts(event: Event) -> Counter[int]:
    """How many of the league's tables each person forfeited (two queries)."""
    deadline = deadline_seats(event)
    seats = Seat.objects.filter(
        match__event_table__event_id=event.pk, user_id__isnull=False
    ).values_list("match_id", "index", "user_id")
    return Counter(user_id for match_id, index, user_id in seats if (match_id, index) in deadline)


def league_standings(*, event: Event, withdrawn: set[int]) -> list[CircleStandings]:
    """Every circle's standings (``withdrawn``: the people withdrawn, listed last)."""
    deadline = deadline_seats(event)
    rows = Seat.objects.filter(
        match__event_table__event_id=event.pk, match__status=Match.Status.FINISHED
    ).values_list(
        "match_id", "match__event_table__circle", "index", "user_id", "rank", "resigned_ply"
    )
    tables: dict[int, tuple[int, list[tuple[int, SeatResult]]]] = {}
    for match_id, circle, index, user_id, rank, resigned_ply in rows.order_by("match_id", "index"):
        result = SeatResult(
            user=user_id if user_id is not None else f"bot-{match_id}-{index}",
            rank=rank or 0,
            resigned=resigned_ply is not None,
            forfeited=(match_id, index) in deadline,
        )
        tables.setdefault(match_id, (circle, []))[1].append((index, result))
    by_circle: dict[int, list[list[SeatResult]]] = {c: [] for c in range(len(event.draw))}
    for circle, seats in tables.values():
        by_circle[circle].append([result for _, result in sorted(seats, key=lambda s: s[0])])
    return [
        CircleStandings(
            circle=circle,
            rows=circle_standings(people, by_circle[circle], withdrawn=withdrawn),
        )
        for circle, people in enumerate(event.draw)
    ]
