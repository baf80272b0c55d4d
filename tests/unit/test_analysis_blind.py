"""The post-game analysis never uses what the person could not see: ``bots.assess`` judges a
decision the same when every card hidden from that seat is dealt differently (the same test
the bots pass, tests/unit/bots/test_*_bots.py), with the public log it is given in the site."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import bots
from games.engines import get_engine

from .bots.helpers import twin

BUDGET = bots.Budget(iterations=6)
OPTIONS = {"faraway": {}, "gulliver": {"target": 60}}


def decisions(game: str, num_players: int, seed: int, every: int) -> Iterator[tuple]:
    """(state, seat, move played, public history before it) along a greedy game, every
    ``every``-th move; Gulliver's deals go in the history as the site logs them."""
    engine = get_engine(game)
    state = engine.new_game(num_players, seed, dict(OPTIONS[game]))
    history: list[tuple[int | None, dict[str, Any]]] = []
    ply = 0
    while not engine.is_over(state):
        if engine.round_over(state):
            state = engine.next_round(state)
            history.append((None, {"type": "next_round"}))
            continue
        seat = engine.awaiting(state)[0]
        view = engine.view(state, seat)
        move = bots.choose_move(game, "greedy", view, seed=ply)
        if ply % every == 0:
            yield state, seat, move, list(history)
        state = engine.apply(state, seat, move)
        history.append((seat, move))
        ply += 1


@pytest.mark.parametrize(("game", "num_players"), [("faraway", 2), ("faraway", 4), ("gulliver", 3)])
def test_an_assessment_is_the_same_whatever_the_unseen_cards(game: str, num_players: int) -> None:
    engine = get_engine(game)
    compared = 0
    for state, seat, move, history in decisions(game, num_players, 20 + num_players, every=5):
        other = twin(game, state, seat, seed=compared + 1)
        view = engine.view(state, seat)
        assert engine.view(other, seat) == {**view, "events": []}
        if engine.dump(other) == engine.dump(state):
            continue  # nothing hidden from this seat differed
        mine = bots.assess(game, view, move, seed=7, budget=BUDGET, history=history)
        theirs = bots.assess(
            game, engine.view(other, seat), move, seed=7, budget=BUDGET, history=history
        )
        assert mine == theirs, (game, seat, move)
        compared += mine is not None
        if compared >= 6:
            break
    assert compared >= 6, "too few judged decisions with hidden cards to compare"
