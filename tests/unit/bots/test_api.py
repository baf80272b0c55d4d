"""The public bot API the worker calls: levels, budgets, refusals."""

from __future__ import annotations

import time

import pytest

from games.bots import DEFAULT_BUDGET, LEVELS, Budget, choose_move, decide
from games.engines import get_engine

from .helpers import positions


def contested(game: str, num_players: int, seed: int):
    engine = get_engine(game)
    options = {"target": 60} if game == "gulliver" else {}
    for state, seat in positions(game, num_players, seed, options=options):
        view = engine.view(state, seat)
        if len(view["legal_moves"]) > 2:
            return view
    raise AssertionError("no contested position")


def test_levels_and_default_budget():
    assert LEVELS == ("random", "greedy", "strong")
    assert DEFAULT_BUDGET.time_ms is not None and DEFAULT_BUDGET.time_ms <= 1000


def test_budget_needs_a_positive_limit():
    with pytest.raises(ValueError):
        Budget()
    with pytest.raises(ValueError):
        Budget(iterations=0)
    with pytest.raises(ValueError):
        Budget(time_ms=-1)


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_a_time_budget_is_kept(game):
    view = contested(game, 3, 21)
    started = time.perf_counter()
    move, report = decide(game, "strong", view, seed=1, budget=Budget(time_ms=40))
    elapsed = time.perf_counter() - started
    assert move in view["legal_moves"]
    assert report is not None and report.deals >= 1
    # One deal may run past the deadline; a few hundred ms is the slack for a loaded machine.
    assert elapsed < 0.04 + 0.5


def test_refusals_are_readable():
    view = contested("faraway", 2, 4)
    with pytest.raises(ValueError, match="level"):
        choose_move("faraway", "expert", view, seed=1)
    engine = get_engine("faraway")
    spectator = engine.view(engine.new_game(2, 1), None)
    with pytest.raises(ValueError, match="no move"):
        choose_move("faraway", "greedy", spectator, seed=1)
    with pytest.raises(KeyError):
        choose_move("chess", "greedy", view, seed=1)


def test_the_returned_move_is_a_copy():
    view = contested("gulliver", 2, 8)
    for level in LEVELS:
        move = choose_move("gulliver", level, view, seed=3, budget=Budget(iterations=2))
        move["type"] = "tampered"
        assert all(m["type"] != "tampered" for m in view["legal_moves"])
