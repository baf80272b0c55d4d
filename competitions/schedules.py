"""League schedules: which people sit at which tables, and in which seats (docs/competitions.md).

Pure data and arithmetic, no Django: a circle of ``people`` at tables of ``seats`` plays every
table of its schedule, and the schedule keeps two promises a league makes on entry:

- every pair of people meets at the same number of tables (``meetings``);
- every person sits in every seat position equally often (the first turn matters in both
  games), with no one set aside to balance it.

A schedule is a few *base tables* over the labels 0 to people-1. A base table is turned round
the circle: adding t to every label, modulo ``people``, for t = 0 to people-1, gives ``people``
tables. Seat j of the base table then holds each label exactly once over the turns, so every
person sits in seat j once per base table: seat positions balance by construction. The base
tables are chosen so that the pairs balance too (``tools/league_designs.py`` finds them;
``tests/unit/competitions/test_schedules.py`` checks both promises for every size offered). A size
with no schedule here is not offered (``offered_sizes``): a circle of it could not keep both.

Labels are not people: the league draws which person takes which label.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Seats at a league's table: two to eight, the games' range (a game's own minimum and maximum
# players decide what a league of that game offers among these).
SEAT_RANGE = range(2, 9)

# A circle holds at most this many people; a bigger league splits into circles.
MOST_PEOPLE = 16

# (seats, people): the base tables for three seats or more: the cyclic designs with at most 15
# tables each that `tools/league_designs.py` finds. A base table used twice is written from
# another seat the second time, so a pair that meets twice there does not sit the same way
# round twice. Other sizes are not offered. Two seats follow a rule (``_two_seat_bases``).
DESIGNS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (3, 4): ((0, 1, 2),),  # 3 tables each
    (3, 5): ((0, 1, 2), (0, 1, 3)),  # 6 tables each
    (3, 7): ((0, 1, 3),),  # 3 tables each
    (3, 9): ((0, 1, 2), (0, 1, 4), (0, 2, 5), (2, 5, 0)),  # 12 tables each
    (3, 11): ((0, 1, 2), (0, 1, 4), (0, 2, 6), (2, 6, 0), (0, 3, 6)),  # 15 tables each
    (3, 13): ((0, 1, 4), (0, 2, 7)),  # 6 tables each
    (3, 16): ((0, 1, 2), (0, 2, 6), (0, 3, 8), (0, 3, 9), (0, 4, 9)),  # 15 tables each
    (4, 5): ((0, 1, 2, 3),),  # 4 tables each
    (4, 7): ((0, 1, 2, 4),),  # 4 tables each
    (4, 9): ((0, 1, 2, 4), (0, 1, 4, 6)),  # 8 tables each
    (4, 10): ((0, 1, 2, 4), (0, 1, 3, 6), (0, 1, 4, 6)),  # 12 tables each
    (4, 13): ((0, 1, 3, 9),),  # 4 tables each
    (5, 6): ((0, 1, 2, 3, 4),),  # 5 tables each
    (5, 7): ((0, 1, 2, 3, 4), (0, 1, 2, 3, 5), (0, 1, 2, 4, 5)),  # 15 tables each
    (5, 9): ((0, 1, 2, 3, 5), (0, 1, 3, 5, 6)),  # 10 tables each
    (5, 11): ((0, 1, 2, 4, 7),),  # 5 tables each
    (5, 13): ((0, 1, 2, 3, 6), (0, 1, 3, 6, 9), (0, 1, 5, 7, 9)),  # 15 tables each
    (5, 16): ((0, 1, 2, 3, 7), (0, 1, 4, 8, 11), (0, 2, 5, 10, 12)),  # 15 tables each
    (6, 7): ((0, 1, 2, 3, 4, 5),),  # 6 tables each
    (6, 11): ((0, 1, 2, 4, 5, 7),),  # 6 tables each
    (6, 13): ((0, 1, 2, 3, 5, 9), (0, 1, 3, 6, 7, 11)),  # 12 tables each
    (6, 16): ((0, 1, 2, 3, 6, 10), (0, 1, 3, 6, 8, 12)),  # 12 tables each
    (7, 8): ((0, 1, 2, 3, 4, 5, 6),),  # 7 tables each
    (7, 13): ((0, 1, 2, 3, 4, 7, 9), (0, 1, 2, 4, 5, 8, 10)),  # 14 tables each
    (7, 15): ((0, 1, 2, 4, 5, 8, 10),),  # 7 tables each
    (8, 9): ((0, 1, 2, 3, 4, 5, 6, 7),),  # 8 tables each
    (8, 15): ((0, 1, 2, 3, 5, 7, 8, 11),),  # 8 tables each
}


class NoSchedule(ValueError):
    """No balanced schedule is kept for this many people at tables of this many seats."""


@dataclass(frozen=True)
class LeagueSchedule:
    """Every table of a circle, each a tuple of labels in seat order (seat 0 first)."""

    people: int
    seats: int
    tables: tuple[tuple[int, ...], ...]
    meetings: int  # how many tables every pair of people shares

    @property
    def tables_each(self) -> int:
        """How many tables every person sits at."""
        return len(self.tables) * self.seats // self.people


def meetings_by_distance(table: Sequence[int], people: int) -> tuple[int, ...]:
    """How many turns of a base table seat two labels ``d`` apart together, for d = 1 to
    people // 2: the number of labels ``a`` in the table with ``a + d`` in it too."""
    members = {label % people for label in table}
    return tuple(
        sum(1 for a in members if (a + d) % people in members) for d in range(1, people // 2 + 1)
    )


def _two_seat_bases(people: int) -> tuple[tuple[int, int], ...]:
    """Two seats: a round robin, one base table per distance. With an odd number of people each
    pair meets once and everyone sits first as often as second. With an even number nobody
    could (each plays an odd number of tables), so each pair meets twice, once each way round:
    every distance twice, the second time reversed, but the half-way distance, whose turns
    already seat each such pair both ways."""
    bases: list[tuple[int, int]] = []
    for distance in range(1, people // 2 + 1):
        bases.append((0, distance))
        if people % 2 == 0 and 2 * distance != people:
            bases.append((distance, 0))
    return tuple(bases)


def _bases(people: int, seats: int) -> tuple[tuple[int, ...], ...] | None:
    if seats == 2:
        return _two_seat_bases(people) if 3 <= people <= MOST_PEOPLE else None
    return DESIGNS.get((seats, people))


def offered_sizes(seats: int) -> tuple[int, ...]:
    """The numbers of people a circle at tables of ``seats`` may have, smallest first."""
    return tuple(p for p in range(seats + 1, MOST_PEOPLE + 1) if _bases(p, seats) is not None)


def league_schedule(people: int, seats: int) -> LeagueSchedule:
    """The schedule for ``people`` at tables of ``seats``: the base tables turned round the
    circle, turn by turn, so each person's tables are spread through the list (a league opens
    them in order as people have room for them). ``NoSchedule`` for a size not offered."""
    bases = _bases(people, seats)
    if bases is None:
        sizes = ", ".join(map(str, offered_sizes(seats))) or "none"
        raise NoSchedule(
            f"No balanced schedule for {people} people at tables of {seats} (sizes: {sizes})."
        )
    tables = tuple(
        tuple((label + turn) % people for label in base) for turn in range(people) for base in bases
    )
    meetings = sum(meetings_by_distance(base, people)[0] for base in bases)
    return LeagueSchedule(people=people, seats=seats, tables=tables, meetings=meetings)
