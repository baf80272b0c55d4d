"""Positions for the bot tests: real games played by seeded bots, and states that differ from
a real one only in the cards a seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.bots import choose_move
from games.engines import get_engine


def positions(
    game: str, num_players: int, seed: int, *, every: int = 1, options: dict | None = None
) -> Iterator[tuple[Any, int]]:
    """(state, awaited seat) along one game between random-level bots (which wander into more
    varied positions than greedy ones), every ``every``-th move."""
    engine = get_engine(game)
    state = engine.new_game(num_players, seed, dict(options or {}))
    ply = 0
    while not engine.is_over(state):
        if game == "gulliver" and engine.round_over(state):
            state = engine.next_round(state)
            continue
        seat = engine.awaiting(state)[0]
        if ply % every == 0:
            yield state, seat
        move = choose_move(game, "random", engine.view(state, seat), seed=seed * 7919 + ply)
        state = engine.apply(state, seat, move)
        ply += 1


def logged(
    game: str, num_players: int, seed: int, *, level: str = "greedy", options: dict | None = None
) -> Iterator[tuple[Any, int, list]]:
    """(state, awaited seat, the public move log so far) along one game between seeded
    ``level`` bots; Gulliver's deals go in the log as the site logs them."""
    engine = get_engine(game)
    state = engine.new_game(num_players, seed, dict(options or {}))
    history: list = []
    while not engine.is_over(state):
        if game == "gulliver" and engine.round_over(state):
            state = engine.next_round(state)
            history.append((None, {"type": "next_round"}))
            continue
        seat = engine.awaiting(state)[0]
        yield state, seat, list(history)
        view = engine.view(state, seat)
        move = choose_move(game, level, view, seed=seed * 7919 + len(history))
        state = engine.apply(state, seat, move)
        history.append((seat, move))


def twin(game: str, state: Any, seat: int, seed: int) -> Any:
    """A state that shows ``seat`` exactly the same view as ``state`` but deals every card it
    cannot see afresh (the engine's own determinization, then a real state via dump/load)."""
    engine = get_engine(game)
    sampled = engine.sample_state(engine.view(state, seat), random.Random(seed))
    return engine.load(engine.dump(sampled))
