"""League standings arithmetic (docs/competitions.md, "Standings" and "When a league ends"):
the points per table from the ranks, forfeits and resignations scoring nothing, the tie-breaks,
shared places, withdrawn people last; and the league's length."""

from __future__ import annotations

import datetime as dt

from competitions.league_scoring import SeatResult, circle_standings, seat_points
from competitions.league_terms import league_length, league_waves


def test_points_are_two_a_seat_beaten_and_one_a_seat_tied():
    assert [seat_points([1, 2], s) for s in (0, 1)] == [2, 0]
    assert [seat_points([1, 1], s) for s in (0, 1)] == [1, 1]
    assert [seat_points([1, 2, 3], s) for s in (0, 1, 2)] == [4, 2, 0]
    assert [seat_points([1, 1, 3], s) for s in (0, 1, 2)] == [3, 3, 0]
    assert [seat_points([2, 1, 2, 4], s) for s in range(4)] == [3, 6, 3, 0]


def test_a_forfeit_and_a_resigned_seat_score_nothing_and_others_keep_their_points():
    tables = [
        [SeatResult("ann", 1, forfeited=True), SeatResult("bea", 2)],
        [SeatResult("bea", 1), SeatResult("cal", 2, resigned=True)],
    ]
    rows = {r.user: r for r in circle_standings(["ann", "bea", "cal"], tables)}
    assert (rows["ann"].points, rows["ann"].forfeits, rows["ann"].won) == (0, 1, 0)
    assert (rows["bea"].points, rows["bea"].won) == (2, 1)
    assert (rows["cal"].points, rows["cal"].played) == (0, 1)


def test_ties_break_on_wins_then_forfeits_then_share_the_place():
    tables = [
        [SeatResult("ann", 1), SeatResult("bea", 1)],  # a draw: 1 each, both "won"
        [SeatResult("cal", 1), SeatResult("dan", 2)],
        [SeatResult("dan", 1), SeatResult("cal", 2, forfeited=True)],
        [SeatResult("eve", 1), SeatResult("fay", 1)],
        [SeatResult("eve", 1), SeatResult("fay", 1)],
    ]
    rows = circle_standings(["ann", "bea", "cal", "dan", "eve", "fay"], tables)
    order = [(r.user, r.place, r.points) for r in rows]
    assert order == [
        ("eve", 1, 2),
        ("fay", 1, 2),
        ("dan", 3, 2),  # 2 points, 1 win, no forfeit: ahead of cal's forfeit
        ("cal", 4, 2),
        ("ann", 5, 1),
        ("bea", 5, 1),
    ]


def test_withdrawn_people_come_last_without_a_place():
    tables = [[SeatResult("ann", 1), SeatResult("bea", 2)]]
    rows = circle_standings(["ann", "bea", "cal"], tables, withdrawn={"ann"})
    assert [(r.user, r.place, r.withdrawn) for r in rows] == [
        ("bea", 1, False),
        ("cal", 1, False),
        ("ann", None, True),
    ]


def test_seats_of_people_outside_the_circle_are_ignored():
    rows = circle_standings(["ann"], [[SeatResult("bot-1-1", 1), SeatResult("ann", 2)]])
    assert [(r.user, r.points, r.played) for r in rows] == [("ann", 0, 1)]


def test_a_league_lasts_its_waves_of_table_allowances():
    # circles of 5 at two seats: 4 tables each; 2 at once -> 2 waves
    assert league_waves(circle_size=5, seats=2, open_most=2) == 2
    assert league_waves(circle_size=5, seats=2, open_most=3) == 2
    assert league_waves(circle_size=5, seats=2, open_most=4) == 1
    length = league_length(circle_size=5, seats=2, open_most=2, deadline_days=3, spans=6)
    assert length == dt.timedelta(days=36)
    # three seats in circles of 16: 15 tables each, 1 at once
    assert league_waves(circle_size=16, seats=3, open_most=1) == 15
