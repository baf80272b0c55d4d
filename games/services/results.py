"""A finished match's result as columns: each seat's result, score and rank."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import queue
from games.engines.resignation import resigned_order, resigned_standings
from games.models import Match, Seat


def match_results_store(
    *,
    match: Match,
    outcome: dict[str, Any],
    seats: Sequence[Seat],
    game_over: bool = True,
) -> None:
    """Write ``Seat.result/score/rank`` from the engine's outcome, in the caller's transaction
    (the one that ends the match), and clear ``awaited_since``: nobody is awaited any more.
    Resigners rank last (``games.engines.resignation``); ``game_over`` false: resignations
    ended the match before the game did.

    The caller has saved ``rating_status = "pending"`` with the match (``state_store``); the
    rating task is enqueued once this transaction commits (docs/ratings.md), and the
    sweeper picks the match up should that message be lost."""
    table = resigned_standings(
        outcome,
        match.num_players,
        resigned_order({s.index: s.resigned_ply for s in seats}),
        game_over=game_over,
    )
    rows = list(seats)
    for seat in rows:
        standing = table[seat.index]
        seat.result = standing.result
        seat.score = standing.score
        seat.rank = standing.rank
        seat.awaited_since = None
    Seat.objects.bulk_update(rows, ["result", "score", "rank", "awaited_since"])
    queue.enqueue(queue.RATINGS_UPDATE, match.pk, match.version)
