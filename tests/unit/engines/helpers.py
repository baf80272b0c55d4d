"""Matches played out by random legal moves, engine only: the logs the replay, record and
migration tests replay."""

from __future__ import annotations

import random
from typing import Any

from games.engines import get_engine, replay


def random_play(
    game: str, num_players: int, seed: int, options: dict | None, plies: int | None = None
) -> tuple[list[replay.Entry], Any]:
    """``plies`` entries of random legal play (to the end for ``None``), Gulliver's deals as
    seatless entries; returns the entries and the state after the last."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game(num_players, seed, options)
    entries: list[replay.Entry] = []
    while not engine.is_over(state) and (plies is None or len(entries) < plies):
        if engine.round_over(state):
            entry: replay.Entry = (None, dict(replay.NEXT_ROUND))
        else:
            seat = rng.choice(engine.awaiting(state))
            entry = (seat, rng.choice(engine.legal_moves(state, seat)))
        state = replay.step(engine, state, *entry)
        entries.append(entry)
    return entries, state
