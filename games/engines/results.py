"""A finished match's outcome as each seat's result, score and rank (``docs/engine-contract.md``,
Results). Pure: the site writes these to ``Seat.result``, ``Seat.score`` and ``Seat.rank``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Result = Literal["won", "lost", "drawn"]


@dataclass(frozen=True)
class Standing:
    """One seat's part in the outcome. ``rank`` is 1 for the best; seats that tie share it and
    the next rank skips past them (standard competition ranking: 1, 2, 2, 4)."""

    result: Result
    score: int
    rank: int


def standings(outcome: dict[str, Any], num_players: int) -> list[Standing]:
    """Each seat's standing, indexed by seat, from an engine's ``outcome`` of a finished match.

    The winners have won, rank 1. A draw with several winners (Gulliver's tie at the round cap)
    makes them ``"drawn"`` instead; a draw with none (the Faraway turn cap) makes every seat
    ``"drawn"``, rank 1. Every other seat has lost and ranks below the winners by score,
    highest first. Raises ``ValueError`` for an outcome with neither a winner nor a draw (the
    match is not over) or one that does not fit the table.
    """
    scores = outcome["scores"]
    winners = set(outcome["winners"])
    draw = bool(outcome["draw"])
    if len(scores) != num_players or not winners <= set(range(num_players)):
        raise ValueError(f"This outcome does not fit a table of {num_players}: {outcome!r}.")
    if not winners and not draw:
        raise ValueError("The match is not over: its outcome has no winner and is no draw.")
    if not winners:
        return [Standing("drawn", int(score), 1) for score in scores]
    top: Result = "drawn" if draw else "won"
    losing = [scores[seat] for seat in range(num_players) if seat not in winners]
    table = []
    for seat, score in enumerate(scores):
        if seat in winners:
            table.append(Standing(top, int(score), 1))
        else:
            better = sum(1 for other in losing if other > score)
            table.append(Standing("lost", int(score), len(winners) + better + 1))
    return table
