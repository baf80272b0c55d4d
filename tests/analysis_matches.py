"""Finished matches to analyse, played quickly through the services with greedy moves.

Shared by the analysis tests (integration, worker, browser) and bench/analysis.py: each seat is
a person whose moves are the greedy bot's choice from their own view, so a match is short,
seeded and the same every run; Gulliver's next deals are logged as the server would.
"""

from __future__ import annotations

from typing import Any

from games import bots
from games.engines import get_engine
from games.models import Match
from games.services import match_next_round, move_submit


def play_greedy(match: Match, *, until_ply: int | None = None) -> Match:
    """Play ``match`` to its end (or to ``until_ply``) with every awaited person's greedy move."""
    engine = get_engine(match.game)
    seats = {s.index: s for s in match.seats.all()}
    while True:
        # Read afresh each time: where tasks run after each commit, the server deals itself.
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or (
            until_ply is not None and match.ply >= until_ply
        ):
            break
        state = engine.load(match.state)
        if engine.round_over(state):
            match_next_round(match=match, expected_version=match.version)
            continue
        seat = engine.awaiting(state)[0]
        move = greedy_move(match, state, seat)
        move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)
    return match


def greedy_move(match: Match, state: Any, seat: int) -> dict[str, Any]:
    """The greedy bot's move for ``seat``, decided from that seat's view (as a bot would)."""
    view = get_engine(match.game).view(state, seat)
    return bots.choose_move(match.game, "greedy", view, seed=match.ply * 31 + seat)
