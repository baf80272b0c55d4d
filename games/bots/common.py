"""What every bot level shares: budgets, seeded randomness, move keys, the voting rule.

The bot layer is pure like the engines: no Django, Celery, database or global ``random``.
The only clock is ``time.perf_counter`` inside the strong bot's thinking loop, and only when a
time budget is asked for; an iteration budget makes every decision reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

Move = dict[str, Any]
View = dict[str, Any]
# A match's public move log: (seat, move) in order; seat None for a seatless step
# (Gulliver's {"type": "next_round"}). Every move payload is public (the cards a draw brings
# are not in it).
History = Sequence[tuple[int | None, Move]]


@dataclass(frozen=True)
class Budget:
    """How long the strong bot may think. It stops at whichever limit comes first; at least
    one must be set. Tests and tournaments use ``iterations`` alone, so that a run replays."""

    iterations: int | None = None
    time_ms: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None:
            raise ValueError("A budget needs iterations, time_ms or both.")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1.")
        if self.time_ms is not None and self.time_ms <= 0:
            raise ValueError("time_ms must be positive.")


def bot_rng(game: str, level: str, seed: int) -> random.Random:
    """A private RNG per decision; string keys hash stably across processes (unlike ``hash``)."""
    return random.Random(f"parlour-bot|{game}|{level}|{seed}")


def move_key(move: Move) -> Hashable:
    """A hashable, order-independent name for a move dict, for search-tree edges."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in move.items()))


def playable_moves(legal: Sequence[Move]) -> list[Move]:
    """The moves a bot considers, by the house rule for bots (docs/rulings.md, Challenges): the
    engine already refuses ungrammatical cards, so a bot never challenges and, asked to vote,
    accepts. Every level follows this, so even the random bot never disputes a card."""
    accept = [m for m in legal if m.get("type") == "vote" and m.get("accept") is True]
    if accept:
        return accept
    return [m for m in legal if m.get("type") not in ("challenge", "vote")]
