"""A Swiss cup's length and standings (competitions/swiss_standings.py): the points a table
gives, the order with its tie-breaks, computed from the results alone."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.swiss_standings import (
    BYE_POINTS,
    TableResult,
    rounds_for,
    standings,
    table_points,
)


def test_two_seats_score_a_win_one_a_draw_half_a_loss_nothing() -> None:
    assert table_points(TableResult(seats=(7, 3), places=(0, 1))) == {7: 1, 3: 0}
    assert table_points(TableResult(seats=(7, 3), places=(1, 0))) == {7: 0, 3: 1}
    assert table_points(TableResult(seats=(7, 3), places=(0, 0))) == {7: Fraction(1, 2), 3: 0.5}


def test_more_seats_score_the_share_of_the_others_beaten_a_tie_counting_half() -> None:
    points = table_points(TableResult(seats=(1, 2, 3, 4), places=(2, 0, 0, 3)))
    assert points == {
        2: Fraction(5, 6),  # beat two of three, tied one
        3: Fraction(5, 6),
        1: Fraction(1, 3),  # beat one of three
        4: Fraction(0),
    }


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 8).flatmap(lambda m: st.lists(st.integers(0, 3), min_size=m, max_size=m)))
def test_a_table_of_m_gives_m_over_two_points_each_between_nothing_and_one(
    places: list[int],
) -> None:
    points = table_points(TableResult(seats=tuple(range(len(places))), places=tuple(places)))
    assert sum(points.values()) == Fraction(len(places), 2)
    assert all(0 <= value <= 1 for value in points.values())
    for a, b in itertools.permutations(range(len(places)), 2):
        if places[a] < places[b]:
            assert points[a] > points[b]


def test_the_order_is_points_then_buchholz_then_tables_won_then_entry_order() -> None:
    tables = [
        TableResult(seats=(1, 2), places=(0, 1)),  # 1 beats 2
        TableResult(seats=(3, 4), places=(0, 1)),  # 3 beats 4
        TableResult(seats=(5, 6), places=(0, 0)),  # a draw
        TableResult(seats=(1, 3), places=(1, 0)),  # 3 beats 1
        TableResult(seats=(2, 5), places=(0, 1)),  # 2 beats 5
        TableResult(seats=(4, 6), places=(1, 0)),  # 6 beats 4
    ]
    lines = standings([1, 2, 3, 4, 5, 6], tables)
    by_id = {line.id: line for line in lines}
    assert [by_id[i].points for i in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 0, 0.5, 1.5]
    # 1 and 2 have a point each: 1 met 2 (1 point) and 3 (2), Buchholz 3; 2 met 1 (1) and
    # 5 (1/2), Buchholz 3/2: 1 is above 2
    assert by_id[1].buchholz == 3
    assert by_id[2].buchholz == Fraction(3, 2)
    assert [line.id for line in lines] == [3, 6, 1, 2, 5, 4]
    # a draw is a shared first place: 6 drew and won, 3 won twice
    assert [by_id[i].firsts for i in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 0, 1, 2]
    assert [line.place for line in lines] == [1, 2, 3, 4, 5, 6]


def test_equal_points_are_parted_by_buchholz_then_tables_won_then_entry_order() -> None:
    tables = [
        TableResult(seats=(1, 2), places=(0, 1)),
        TableResult(seats=(3, 4), places=(0, 1)),
        TableResult(seats=(5, 6), places=(0, 0)),
        TableResult(seats=(7, 8), places=(0, 0)),
    ]
    lines = standings([8, 7, 6, 5, 4, 3, 2, 1], tables)
    # 1 and 3 won, equal Buchholz (0) and tables won (1): entry order puts 3 (entered
    # before 1) first. The four who drew: 1/2 each, Buchholz 1/2, a shared first place each.
    assert [line.id for line in lines] == [3, 1, 8, 7, 6, 5, 4, 2]


def test_a_bye_scores_half_a_point_and_adds_nothing_to_buchholz() -> None:
    lines = standings([1, 2, 3], [TableResult(seats=(1, 2), places=(0, 1))], byes=[3])
    by_id = {line.id: line for line in lines}
    assert by_id[3].points == BYE_POINTS == Fraction(1, 2)
    assert by_id[3].buchholz == 0
    assert [line.id for line in lines] == [1, 3, 2]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(2, 8), st.integers(0, 2**32))
def test_standings_rank_everyone_once_in_the_order_stated(
    people: int, seats: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = rng.sample(range(1, 1000), people)
    tables = []
    for _ in range(rng.randint(0, 30)):
        seated = tuple(rng.sample(entrants, min(people, rng.randint(2, seats))))
        tables.append(TableResult(seats=seated, places=tuple(rng.randint(0, 2) for _ in seated)))
    byes = [rng.choice(entrants) for _ in range(rng.randint(0, 3))]
    lines = standings(entrants, tables, byes)
    assert [line.place for line in lines] == list(range(1, people + 1))
    assert sorted(line.id for line in lines) == sorted(entrants)
    keys = [(-line.points, -line.buchholz, -line.firsts, entrants.index(line.id)) for line in lines]
    assert keys == sorted(keys)
    total = sum(Fraction(len(t.seats), 2) for t in tables) + BYE_POINTS * len(byes)
    assert sum(line.points for line in lines) == total


@pytest.mark.parametrize(
    ("people", "seats", "rounds"),
    [
        (17, 2, 6),
        (32, 2, 6),
        (33, 2, 7),
        (1000, 2, 11),
        (20, 3, 4),
        (27, 3, 4),
        (28, 3, 5),
        (100, 4, 5),
        (1000, 4, 6),
        (1000, 6, 5),
        (20, 8, 3),
        (64, 8, 3),
        (65, 8, 4),
    ],
)
def test_a_cup_plays_the_rounds_that_leave_one_unbeaten_plus_one(
    people: int, seats: int, rounds: int
) -> None:
    assert rounds_for(people, seats) == rounds
    assert seats ** (rounds - 2) < people <= seats ** (rounds - 1)


@pytest.mark.parametrize(
    ("entrants", "tables", "message"),
    [
        ([1, 1], [], "listed twice"),
        ([1, 2], [TableResult(seats=(1, 9), places=(0, 1))], "did not enter"),
        ([1, 2], [TableResult(seats=(1, 1), places=(0, 1))], "twice"),
        ([1, 2], [TableResult(seats=(1, 2), places=(0,))], "a place for each"),
    ],
)
def test_bad_results_are_refused(entrants: list[int], tables: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        standings(entrants, tables)


def test_a_cup_of_fewer_than_two_is_refused() -> None:
    with pytest.raises(ValueError, match="two people"):
        rounds_for(1, 4)
