"""One Swiss round of a cup: who sits at which table, in which seat (docs/competitions.md).

Pure arithmetic, no framework, clock or random generator of its own: the first round's draw is
a ``random.Random(seed)`` the caller passes in, so a round is the same every time for the same
inputs.
A cup too big for one league circle plays rounds; before each, ``pair_round`` takes the people
still in (with their points so far, in the cup's tie-break order), every table played so far
(ids in seat order) and the byes given, and returns the round's tables.

- **Table sizes** (``table_sizes``): as few tables as seat everyone, as even as can be (so some
  tables have one seat fewer, the smaller ones at the bottom); when even tables would seat fewer
  than the game's least, the fewest people needed sit out with a bye (at two seats: one, when
  the field is odd). A bye goes to the lowest ranked of those with the fewest byes so far.
- **Who sits together**: ranked by points (the order given breaks ties), tables are filled top
  down; at two seats by a maximum-weight matching (``competitions/swiss_pairs.py``), at three or
  more by a search that moves people to a neighbouring table to avoid repeat meetings
  (``competitions/swiss_tables.py``).
- **Seats** (``seat_order``): seat 0 first, each seat in turn goes to whoever at the table is
  furthest below their share of it (times sat in it, times the table's size, less tables
  played), then sat in it longest ago, then the better ranked. At three seats or more
  people are first swapped between neighbouring tables when that lowers the sum, over the two
  tables, of the squared times each seat's taker has sat there (``seat_cost``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from competitions.swiss_pairs import pair_two_seats
from competitions.swiss_tables import balance_seats, group_tables

# Seats at a cup's table: the games' range (a game's own minimum and maximum decide among these).
SEAT_RANGE = range(2, 9)


class Shuffler(Protocol):
    """What draws the first round: ``random.Random(seed)`` is one."""

    def shuffle(self, x: list[Entrant], /) -> None: ...


@dataclass(frozen=True)
class Entrant:
    """A person still in the cup and their points so far."""

    id: int
    points: Fraction = field(default_factory=Fraction)


@dataclass(frozen=True)
class SwissRound:
    """A round's tables, top table first, each the ids in seat order (seat 0 first), and the ids
    given a bye, best ranked first."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def table_sizes(people: int, seats: int, least: int = 2) -> tuple[tuple[int, ...], int]:
    """The tables' sizes, biggest first, for ``people`` at tables of at most ``seats`` and at
    least ``least``, and how many people sit out with a bye."""
    if not 2 <= least <= seats:
        raise ValueError(f"A table seats between 2 and {seats}, not at least {least}.")
    for byes in range(people + 1):
        seated = people - byes
        if seated == 0:
            return (), people
        tables = -(-seated // seats)
        small, larger = divmod(seated, tables)
        if small >= least:
            return (small + 1,) * larger + (small,) * (tables - larger), byes
    raise AssertionError("unreachable: seating nobody always works")


def pair_round(
    entrants: Sequence[Entrant],
    seats: int,
    *,
    history: Sequence[Sequence[int]] = (),
    byes: Sequence[int] = (),
    least_seats: int = 2,
    draw: Shuffler | None = None,
) -> SwissRound:
    """The next round for ``entrants`` (in the cup's tie-break order: it breaks equal points)
    at tables of at most ``seats``. ``history`` is every table played so far in the order
    played, each the ids in seat order; ``byes`` the id of each bye given so far. ``draw``, for
    the first round, shuffles the entrants before they are ranked."""
    if seats not in SEAT_RANGE:
        raise ValueError(f"A cup's table seats 2 to 8 people, not {seats}.")
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("An entrant is listed twice.")
    order = list(entrants)
    if draw is not None:
        draw.shuffle(order)
    ranked = sorted(order, key=lambda entrant: -entrant.points)
    sizes, bye_count = table_sizes(len(ranked), seats, least_seats)
    given = Counter(byes)
    sitting_out = sorted(range(len(ranked)), key=lambda rank: (given[ranked[rank].id], -rank))[
        :bye_count
    ]
    out = {ranked[rank].id for rank in sitting_out}
    playing = [entrant for entrant in ranked if entrant.id not in out]
    position = {entrant.id: rank for rank, entrant in enumerate(playing)}
    met = _meetings(history, position)
    record = SeatRecord.of(history)
    if not sizes:
        tables: list[list[int]] = []
    elif seats == 2:
        tables = _pairs(playing, met, record)
    else:
        tables = _groups(playing, sizes, met, record)
    seated = [[playing[rank].id for rank in table] for table in tables]
    return SwissRound(
        tables=tuple(seat_order(table, record) for table in seated),
        byes=tuple(entrant.id for entrant in ranked if entrant.id in out),
    )


def _pairs(
    playing: Sequence[Entrant], met: Mapping[int, Mapping[int, int]], record: SeatRecord
) -> list[list[int]]:
    """Tables of two (rank positions): the matching over score groups and seat leanings."""
    distinct = sorted({entrant.points for entrant in playing}, reverse=True)
    group = {points: index for index, points in enumerate(distinct)}
    groups = [group[entrant.points] for entrant in playing]
    leaning = [record.times[(e.id, 0)] - record.times[(e.id, 1)] for e in playing]
    return [list(pair) for pair in pair_two_seats(groups, leaning, met)]


def _groups(
    playing: Sequence[Entrant],
    sizes: Sequence[int],
    met: Mapping[int, Mapping[int, int]],
    record: SeatRecord,
) -> list[list[int]]:
    """Tables of three or more (rank positions): top down, then swaps to balance seats."""
    met_sets = {person: set(others) for person, others in met.items()}
    counts = [[record.times[(e.id, seat)] for seat in range(max(sizes))] for e in playing]

    def seat_cost(table: Sequence[int]) -> int:
        """The sum of squares of the times each seat's taker (chosen as ``seat_order`` chooses,
        by times alone) has sat there: lower is better balanced."""
        left, total = list(table), 0
        for seat in range(len(table)):
            person = min(left, key=lambda p: counts[p][seat])
            total += counts[person][seat] ** 2
            left.remove(person)
        return total

    return balance_seats(group_tables(sizes, met_sets), sizes, met_sets, seat_cost)


def _meetings(
    history: Sequence[Sequence[int]], position: Mapping[int, int]
) -> dict[int, dict[int, int]]:
    """For each rank position, the positions met before and how many times."""
    met: dict[int, dict[int, int]] = defaultdict(dict)
    for table in history:
        here = [position[person] for person in table if person in position]
        for a in here:
            for b in here:
                if a != b:
                    met[a][b] = met[a].get(b, 0) + 1
    return dict(met)


def seat_order(table: Sequence[int], record: SeatRecord) -> tuple[int, ...]:
    """``table``'s people (best ranked first) in seat order: each seat from seat 0 on goes to
    whoever is furthest below their share of it (times in it x the table's size - tables
    played), then sat in it the longest ago, then the better ranked."""
    rank = {person: index for index, person in enumerate(table)}
    left = list(table)
    order = []
    for seat in range(len(table)):
        person = min(
            left,
            key=lambda p: (
                record.times[(p, seat)] * len(table) - record.tables[p],
                record.last.get((p, seat), -1),
                rank[p],
            ),
        )
        order.append(person)
        left.remove(person)
    return tuple(order)


@dataclass(frozen=True)
class SeatRecord:
    """How many times each (person, seat) was sat in, the index of the last such table, and
    how many tables each person sat at."""

    times: Counter[tuple[int, int]]
    last: dict[tuple[int, int], int]
    tables: Counter[int]

    @classmethod
    def of(cls, history: Sequence[Sequence[int]]) -> SeatRecord:
        times: Counter[tuple[int, int]] = Counter()
        last: dict[tuple[int, int], int] = {}
        tables: Counter[int] = Counter()
        for played, past in enumerate(history):
            for seat, person in enumerate(past):
                times[(person, seat)] += 1
                last[(person, seat)] = played
                tables[person] += 1
        return cls(times=times, last=last, tables=tables)
