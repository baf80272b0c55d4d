"""A cup's standings (competitions/cup_scoring.py): the Swiss points from the matches' ranks, a
forfeited or resigned seat counted as finishing below everyone at its table, byes, withdrawn
people last without a place, and a seat of nobody (a deleted account) not listed."""

from __future__ import annotations

from fractions import Fraction

from competitions.cup_scoring import cup_standings, table_result
from competitions.league_scoring import SeatResult


def test_a_forfeit_or_a_resignation_places_the_seat_below_everyone():
    result = table_result(
        [
            SeatResult("ann", 1, forfeited=True),
            SeatResult("bea", 2),
            SeatResult("cal", 3, resigned=True),
        ]
    )
    assert result.seats == ("ann", "bea", "cal")
    assert result.places == (4, 2, 4)


def test_points_byes_order_and_the_withdrawn_last():
    tables = [
        [SeatResult("ann", 1), SeatResult("bea", 2)],
        [SeatResult("cal", 1, forfeited=True), SeatResult("dan", 2)],
    ]
    lines = cup_standings(["ann", "bea", "cal", "dan", "eve"], tables, ["eve"], ["bea"])
    assert [(line.user, line.place) for line in lines] == [
        ("ann", 1),
        ("dan", 2),
        ("eve", 3),
        ("cal", 4),
        ("bea", None),
    ]
    by = {line.user: line for line in lines}
    assert by["ann"].points == 1 and by["dan"].points == 1 and by["cal"].points == 0
    assert by["eve"].points == Fraction(1, 2) and by["eve"].byes == 1 and by["eve"].played == 0
    assert by["cal"].forfeits == 1 and by["cal"].played == 1
    assert by["bea"].withdrawn and not by["ann"].withdrawn


def test_a_seat_of_nobody_scores_and_is_listed_for_nobody():
    tables = [[SeatResult("ann", 2), SeatResult("bot-1-1", 1)]]
    lines = cup_standings(["ann", "bea"], tables)
    assert [line.user for line in lines] == ["ann", "bea"]  # ann met someone: the tie-break
    assert lines[0].points == 0 and lines[0].played == 1


def test_the_cup_arithmetic_imports_no_framework_clock_or_database():
    from pathlib import Path

    from tests.unit.purity import absolute_imports

    package = Path(__file__).resolve().parents[3] / "competitions"
    imported = {
        name
        for where, _line, name in absolute_imports(package)
        if where in {"cup_scoring.py", "cup_terms.py", "league_scoring.py", "league_terms.py"}
    }
    assert imported <= {
        "__future__",
        "collections",
        "collections.abc",
        "dataclasses",
        "datetime",
        "fractions",
        "math",
        "competitions.league_scoring",
        "competitions.league_terms",
        "competitions.schedules",
        "competitions.swiss_standings",
    }, imported
