"""Outcomes as each seat's result, score and rank (docs/engine-contract.md, Results)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engines import get_engine
from games.engines.results import Standing, standings


def table(outcome: dict, n: int) -> list[tuple[str, int, int]]:
    return [(s.result, s.score, s.rank) for s in standings(outcome, n)]


def test_a_faraway_win_the_others_lose_ranked_by_story_cards():
    outcome = {"winners": [2], "draw": False, "scores": [4, 7, 9, 4]}
    assert table(outcome, 4) == [("lost", 4, 3), ("lost", 7, 2), ("won", 9, 1), ("lost", 4, 3)]


def test_the_faraway_turn_cap_draws_every_seat():
    outcome = {"winners": [], "draw": True, "scores": [3, 8, 5]}
    assert table(outcome, 3) == [("drawn", 3, 1), ("drawn", 8, 1), ("drawn", 5, 1)]


def test_a_gulliver_win_ranks_the_rest_with_shared_ranks_1224():
    outcome = {"winners": [1], "draw": False, "scores": [120, 265, 120, -15, 200]}
    assert table(outcome, 5) == [
        ("lost", 120, 3),
        ("won", 265, 1),
        ("lost", 120, 3),
        ("lost", -15, 5),
        ("lost", 200, 2),
    ]


def test_a_shared_gulliver_win_at_the_round_cap_is_drawn_for_the_winners_only():
    outcome = {"winners": [0, 2], "draw": True, "scores": [180, 90, 180, 95]}
    assert table(outcome, 4) == [
        ("drawn", 180, 1),
        ("lost", 90, 4),
        ("drawn", 180, 1),
        ("lost", 95, 3),
    ]


def test_standings_are_frozen():
    (first, _) = standings({"winners": [0], "draw": False, "scores": [9, 2]}, 2)
    assert first == Standing("won", 9, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.rank = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    "outcome",
    [
        {"winners": [], "draw": False, "scores": [0, 0]},  # not over
        {"winners": [0], "draw": False, "scores": [9]},  # a score short
        {"winners": [2], "draw": False, "scores": [9, 1]},  # no such seat
    ],
)
def test_an_outcome_that_is_no_result_is_refused(outcome):
    with pytest.raises(ValueError):
        standings(outcome, 2)


def play_to_the_end(game: str, n: int, seed: int, options: dict) -> dict:
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(n, seed, options)
    while not engine.is_over(state):
        if engine.round_over(state):
            state = engine.next_round(state)
            continue
        seat = engine.awaiting(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return engine.outcome(state)


@pytest.mark.parametrize(
    ("game", "n", "options"),
    [("faraway", 2, {}), ("faraway", 4, {}), ("gulliver", 3, {"target": 60}), ("gulliver", 6, {})],
)
def test_real_outcomes_of_both_games(game, n, options):
    for seed in range(4):
        outcome = play_to_the_end(game, n, seed, options)
        rows = standings(outcome, n)
        assert [s.score for s in rows] == outcome["scores"]
        winners = [s for s, row in enumerate(rows) if row.rank == 1]
        assert winners == (outcome["winners"] or list(range(n)))
        for seat, row in enumerate(rows):
            if row.result == "lost":
                better = [x for x in rows if x.result == "lost" and x.score > row.score]
                assert row.rank == len(outcome["winners"]) + len(better) + 1
            else:
                assert row.result == ("drawn" if outcome["draw"] else "won")
                assert seat in outcome["winners"] or not outcome["winners"]
