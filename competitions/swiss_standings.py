"""A Swiss cup's length and final standings, from its results alone (docs/competitions.md).

Pure arithmetic, no framework: the standings are computed from the tables' results every time,
never kept as truth.

- **Rounds** (``rounds_for``): the fewest rounds r with seats**r >= people (each table has one
  winner, so that many rounds leave about one person who won every table), plus one.
- **Points of a table** (``table_points``): a person scores the share of the others at the table
  they finished ahead of, a tie counting half: at two seats a win is 1, a draw 1/2, a loss 0; a
  table of m always gives m/2 points in all. A bye scores ``BYE_POINTS``, a table's average.
- **Order** (``standings``): points; then the Buchholz-like sum, over the person's tables, of
  the mean final points of the others at that table (a bye adds nothing); then tables won
  (first place, shared or not); then the cup's entry order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

# What a bye scores: the average a table gives, so it neither helps nor hurts on average.
BYE_POINTS = Fraction(1, 2)


@dataclass(frozen=True)
class TableResult:
    """A played table: the ids in seat order and each seat's finishing place (0 the winner,
    equal places a tie)."""

    seats: tuple[int, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """A person's line in the standings (``place`` counts from 1)."""

    place: int
    id: int
    points: Fraction
    buchholz: Fraction
    firsts: int


def rounds_for(people: int, seats: int) -> int:
    """How many rounds a cup of ``people`` at tables of ``seats`` plays."""
    if people < 2 or seats < 2:
        raise ValueError("A cup needs two people at least, at tables of two at least.")
    rounds, reach = 0, 1
    while reach < people:
        rounds, reach = rounds + 1, reach * seats
    return rounds + 1


def table_points(result: TableResult) -> dict[int, Fraction]:
    """Each person's points from one table."""
    if len(result.seats) != len(result.places) or len(result.seats) < 2:
        raise ValueError("A table result needs a place for each of its two or more seats.")
    if len(set(result.seats)) != len(result.seats):
        raise ValueError("A table result lists someone twice.")
    others = len(result.seats) - 1
    return {
        person: Fraction(
            2 * sum(1 for other in result.places if other > place)
            + sum(1 for other in result.places if other == place)
            - 1,
            2 * others,
        )
        for person, place in zip(result.seats, result.places, strict=True)
    }


def standings(
    entrants: Sequence[int], tables: Sequence[TableResult], byes: Sequence[int] = ()
) -> tuple[Standing, ...]:
    """The cup's standings, first place first. ``entrants`` are everyone who took part, in
    entry order (the last tie-break); ``tables`` every table played, ``byes`` every bye given."""
    order = {person: index for index, person in enumerate(entrants)}
    if len(order) != len(entrants):
        raise ValueError("An entrant is listed twice.")
    strangers = {p for table in tables for p in table.seats} | set(byes)
    if strangers - order.keys():
        raise ValueError("A result names someone who did not enter.")
    points: dict[int, Fraction] = defaultdict(Fraction)
    firsts: dict[int, int] = defaultdict(int)
    for person in byes:
        points[person] += BYE_POINTS
    for table in tables:
        for person, scored in table_points(table).items():
            points[person] += scored
        best = min(table.places)
        for person, place in zip(table.seats, table.places, strict=True):
            firsts[person] += place == best
    buchholz: dict[int, Fraction] = defaultdict(Fraction)
    for table in tables:
        total = sum((points[p] for p in table.seats), Fraction())
        for person in table.seats:
            buchholz[person] += (total - points[person]) / (len(table.seats) - 1)
    ranked = sorted(entrants, key=lambda p: (-points[p], -buchholz[p], -firsts[p], order[p]))
    return tuple(
        Standing(
            place=place,
            id=person,
            points=points[person],
            buchholz=buchholz[person],
            firsts=firsts[person],
        )
        for place, person in enumerate(ranked, start=1)
    )
