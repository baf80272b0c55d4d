"""League standings from the tables' results, pure (docs/competitions.md, "Standings"): the
site's league page and the offline verifier (``competitions.verify_league``) both call this, so
what the page shows is what anyone can recompute from the league's record.

Points at a finished table: two for every seat the person finished above, one for every other
seat they tied with (so at two seats a win is 2, a draw 1, a loss 0; at three, first alone is 4).
A *forfeit* (a table at which the deadline bot made a move for the person's seat) and a seat
the person resigned (withdrawing resigns their running tables) score nothing; the others at the
table keep the points the game gave them. Order: points, then tables won (ranked first, alone or
tied), then fewer forfeits; people equal on all three share the place (listed in the
draw's order). Withdrawn people are
listed after everyone still playing, without a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeatResult:
    """One person's seat at a finished table: their rank (1 is best), whether they resigned and
    whether the deadline bot moved for them there."""

    user: int | str
    rank: int
    resigned: bool = False
    forfeited: bool = False


@dataclass
class StandingRow:
    """One person's line: their place (``None`` when withdrawn), points, tables played, won,
    forfeited."""

    user: int | str
    withdrawn: bool = False
    points: int = 0
    played: int = 0
    won: int = 0
    forfeits: int = 0
    place: int | None = None
    key: tuple[int, int, int] = field(default=(0, 0, 0), repr=False)


def seat_points(ranks: Sequence[int], seat: int) -> int:
    """Two points for each seat ranked below ``seat``, one for each other seat tied with it."""
    mine = ranks[seat]
    below = sum(1 for r in ranks if r > mine)
    tied = sum(1 for r in ranks if r == mine) - 1
    return 2 * below + tied


def circle_standings(
    people: Iterable[int | str],
    tables: Iterable[Sequence[SeatResult]],
    withdrawn: Iterable[int | str] = (),
) -> list[StandingRow]:
    """The standings of one circle: ``people`` (everyone drawn into it), ``tables`` (each
    finished table's person seats, in seat order; seats of people not among ``people`` are
    ignored), ``withdrawn`` (people withdrawn: listed last, no place)."""
    rows = {person: StandingRow(user=person) for person in people}
    drawn = {person: position for position, person in enumerate(rows)}
    gone = set(withdrawn)
    for table in tables:
        ranks = [s.rank for s in table]
        for index, result in enumerate(table):
            row = rows.get(result.user)
            if row is None:
                continue
            row.played += 1
            if result.forfeited:
                row.forfeits += 1
            if result.forfeited or result.resigned:
                continue
            row.points += seat_points(ranks, index)
            if result.rank == 1:
                row.won += 1
    for row in rows.values():
        row.withdrawn = row.user in gone
        row.key = (-row.points, -row.won, row.forfeits)
    # Equal rows keep the draw's order (labels): the page and the verifier list them alike.
    ordered = sorted(rows.values(), key=lambda r: (r.withdrawn, r.key, drawn[r.user]))
    previous: StandingRow | None = None
    for position, row in enumerate(ordered, start=1):
        if row.withdrawn:
            continue
        if previous is not None and previous.key == row.key:
            row.place = previous.place
        else:
            row.place = position
        previous = row
    return ordered
