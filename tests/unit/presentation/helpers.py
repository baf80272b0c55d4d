"""Logs and views for the presentation tests, made by the engines themselves (no database)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engines import get_engine
from games.presentation import LogEntry

NAMES = ["Ann", "Bea", "Cal", "Dan"]


def random_play(
    game: str,
    num_players: int,
    seed: int,
    options: dict[str, Any],
    *,
    viewer: int | None,
    redact: bool = True,
    max_steps: int | None = None,
    until: Callable[[Any], bool] | None = None,
) -> tuple[Any, list[LogEntry]]:
    """The final state of a random match and its log: the deal first, then one entry per step,
    each entry's events redacted for ``viewer`` unless ``redact`` is False. Play stops early
    after ``max_steps`` steps, or at the first state ``until`` holds for."""
    engine = get_engine(game)
    state = engine.new_game(num_players, seed, options)
    rng = random.Random(seed)

    def entry(seat: int | None) -> LogEntry:
        events = engine.events(state)
        return LogEntry(seat, engine.redact(events, viewer) if redact else events)

    log = [entry(None)]
    while not engine.is_over(state) and (max_steps is None or len(log) <= max_steps):
        if until is not None and until(state):
            break
        if engine.round_over(state):
            state = engine.next_round(state)
            log.append(entry(None))
            continue
        seat = rng.choice(engine.awaiting(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        log.append(entry(seat))
    return state, log
