"""The league schedules keep their two promises for every size offered (competitions/schedules.py):
every pair of people meets at the same number of tables, and every person sits in every seat
position equally often. Checked exhaustively: the sizes offered are few."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from competitions import schedules
from competitions.schedules import (
    DESIGNS,
    MOST_PEOPLE,
    SEAT_RANGE,
    NoSchedule,
    league_schedule,
    offered_sizes,
)
from tests.unit.purity import absolute_imports

OFFERED = [(seats, people) for seats in SEAT_RANGE for people in offered_sizes(seats)]


@pytest.mark.parametrize(("seats", "people"), OFFERED)
def test_every_table_seats_distinct_people_of_the_circle(seats: int, people: int) -> None:
    schedule = league_schedule(people, seats)
    assert schedule.tables
    for table in schedule.tables:
        assert len(table) == seats
        assert len(set(table)) == seats
        assert all(0 <= label < people for label in table)


@pytest.mark.parametrize(("seats", "people"), OFFERED)
def test_every_pair_meets_the_same_number_of_times(seats: int, people: int) -> None:
    schedule = league_schedule(people, seats)
    met = Counter(
        pair for table in schedule.tables for pair in itertools.combinations(sorted(table), 2)
    )
    every_pair = list(itertools.combinations(range(people), 2))
    assert {met[pair] for pair in every_pair} == {schedule.meetings}
    assert schedule.meetings >= 1


@pytest.mark.parametrize(("seats", "people"), OFFERED)
def test_every_person_sits_in_every_seat_equally_often(seats: int, people: int) -> None:
    schedule = league_schedule(people, seats)
    sat = Counter((label, seat) for table in schedule.tables for seat, label in enumerate(table))
    assert schedule.tables_each % seats == 0
    expected = schedule.tables_each // seats
    assert {sat[(label, seat)] for label in range(people) for seat in range(seats)} == {expected}


@pytest.mark.parametrize("people", offered_sizes(2))
def test_two_seats_every_pair_sits_each_way_round_as_often(people: int) -> None:
    """Two seats: once each way round when they meet twice; with an odd number of people, who
    meet once, everyone still sits first as often as second (the test above)."""
    schedule = league_schedule(people, 2)
    ways = Counter(schedule.tables)
    if schedule.meetings == 2:
        assert all(ways[(a, b)] == 1 for a, b in itertools.permutations(range(people), 2))
    else:
        assert people % 2 == 1 and schedule.meetings == 1


def test_two_seats_offer_every_circle_and_more_seats_the_designs_kept() -> None:
    assert offered_sizes(2) == tuple(range(3, MOST_PEOPLE + 1))
    for seats in SEAT_RANGE[1:]:
        assert offered_sizes(seats) == tuple(sorted(p for s, p in DESIGNS if s == seats))
        assert offered_sizes(seats), f"no circle offered at tables of {seats}"


@pytest.mark.parametrize(("seats", "people"), [(s, p) for s, p in OFFERED if s > 2])
def test_no_one_is_asked_to_sit_at_more_than_fifteen_tables(seats: int, people: int) -> None:
    assert league_schedule(people, seats).tables_each <= 15


@pytest.mark.parametrize(("seats", "people"), [(3, 6), (4, 8), (2, 2), (2, 17), (3, 3), (9, 10)])
def test_a_size_not_offered_is_refused_with_the_sizes_that_are(seats: int, people: int) -> None:
    with pytest.raises(NoSchedule, match="No balanced schedule"):
        league_schedule(people, seats)


def test_a_base_table_used_twice_is_written_from_another_seat() -> None:
    for (seats, people), bases in DESIGNS.items():
        assert len(set(bases)) == len(bases), f"{seats} seats, {people} people: a repeat"


def test_the_schedules_are_pure_arithmetic() -> None:
    """No framework, database, clock or random generator: a schedule is the same every time."""
    source = Path(schedules.__file__)
    roots = {
        name.split(".")[0]
        for _where, _line, name in absolute_imports(source.parent)
        if _where == source.name
    }
    assert roots <= {"__future__", "collections", "dataclasses"}


def test_the_docs_list_exactly_the_sizes_offered() -> None:
    """docs/competitions.md's table of sizes is what the code offers, figures included."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "competitions.md").read_text()
    for seats in SEAT_RANGE:
        cells = []
        for people in offered_sizes(seats):
            schedule = league_schedule(people, seats)
            cells.append(f"{people} ({schedule.tables_each}, {schedule.meetings})")
        assert f"| {seats} | {', '.join(cells)} |" in doc
