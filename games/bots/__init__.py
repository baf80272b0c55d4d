"""Bots for Parlour's games, at three levels: ``random``, ``greedy`` and ``strong``.

A bot sees exactly what a person in its seat sees: it decides from ``engine.view(state, seat)``
(with its ``legal_moves``) and nothing else. The layer is pure (no Django, Celery or database);
the worker that plays bot seats calls :func:`choose_move` and submits the result like any move.

    from games.bots import Budget, choose_move
    move = choose_move("faraway", "strong", engine.view(state, seat), seed=..., budget=None)

``seed`` makes the decision reproducible; give each decision its own (e.g. derived from the
match seed and version). ``budget`` only matters to ``strong``: ``None`` means
``DEFAULT_BUDGET`` (a time budget suited to a worker); tests and tournaments pass
``Budget(iterations=...)`` so that their results replay exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engines import get_engine

from . import faraway, gulliver, gulliver_inference
from .common import Budget, History, Move, View, bot_rng, move_key, playable_moves
from .search import SearchReport, search

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "Assessment",
    "Budget",
    "History",
    "SearchReport",
    "assess",
    "choose_move",
    "decide",
]

LEVELS = ("random", "greedy", "strong")
# About 1 s of thought at most for a contested decision; forced moves are instant, so the
# median over a match stays well under that.
DEFAULT_BUDGET = Budget(time_ms=900.0)


# Each game's bot module, keyed like the engines' registry (a test holds the two equal).
GAME_BOTS = {"faraway": faraway, "gulliver": gulliver}
# The strong bot's per-game knowledge (rollout policy, evaluation, how deals are dealt) for a
# table of n players. A knowledge class may also name its own ``search`` (same signature as
# ``search.search``) and ``ceilings(view, moves, history)`` (the most each move may score, or
# None); the baseline classes it refines stay as they were (games/lab/players.py).
KNOWLEDGE = {"faraway": faraway.FarawayStrong, "gulliver": gulliver_inference.GulliverStrong}


def _greedy(game: str, view: View, moves: list[Move], rng: Any) -> Move:
    return GAME_BOTS[game].greedy_move(view, moves, rng)


def _strong(
    game: str,
    view: View,
    moves: list[Move],
    rng: Any,
    budget: Budget | None,
    history: History | None,
    keep: Sequence[Move] = (),
) -> tuple[Move, SearchReport]:
    engine = get_engine(game)
    knowledge = KNOWLEDGE[game](len(view["hand_counts"]))
    greedy = _greedy(game, view, moves, rng)
    sample = knowledge.sampler(engine, view, history or ())
    limit = getattr(knowledge, "ceilings", None)
    run = getattr(knowledge, "search", search)
    return run(
        engine,
        knowledge,
        view,
        moves,
        greedy,
        rng,
        budget or DEFAULT_BUDGET,
        sample=sample,
        keep=keep,
        ceilings=None if limit is None else limit(view, moves, history or ()),
    )


def decide(
    game: str,
    level: str,
    view: View,
    *,
    seed: int,
    budget: Budget | None = None,
    history: History | None = None,
) -> tuple[Move, SearchReport | None]:
    """Like :func:`choose_move`, also returning what the search did (``None`` if no search)."""
    get_engine(game)
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of {', '.join(LEVELS)}.")
    moves = playable_moves(view.get("legal_moves") or [])
    if not moves:
        raise ValueError(f"Seat {view.get('seat')!r} has no move to make in this view.")
    if len(moves) == 1:
        return copy.deepcopy(moves[0]), None
    rng = bot_rng(game, level, seed)
    if level == "random":
        return copy.deepcopy(rng.choice(moves)), None
    if level == "greedy":
        return copy.deepcopy(_greedy(game, view, moves, rng)), None
    move, report = _strong(game, view, moves, rng, budget, history)
    return copy.deepcopy(move), report


def choose_move(
    game: str,
    level: str,
    view: View,
    *,
    seed: int,
    budget: Budget | None = None,
    history: History | None = None,
) -> Move:
    """The move a bot of ``level`` makes in ``view`` (one of ``view["legal_moves"]``).

    ``history`` is the match's public move log so far (``(seat, move)`` pairs, ``seat`` ``None``
    for a seatless step such as Gulliver's ``next_round``); the strong bot reads what play has
    revealed from it. Bots never challenge and vote to accept (docs/rulings.md: the engine
    already refuses anything ungrammatical). Raises ``ValueError`` for an unknown level or a view
    with nothing to play.
    """
    return decide(game, level, view, seed=seed, budget=budget, history=history)[0]


@dataclass(frozen=True)
class Assessment:
    """The strong bot's judgement of one decision a player made (post-game analysis).

    ``played_chance`` and ``best_chance`` are the search's estimates, in [0, 1], of the seat's
    share of a win after the move played and after the move the bot prefers (``best``), over
    the same deals; ``cost`` is how much the move played gave away (never below 0)."""

    best: Move
    best_chance: float
    played_chance: float
    deals: int

    @property
    def cost(self) -> float:
        return max(0.0, self.best_chance - self.played_chance)


def assess(
    game: str,
    view: View,
    played: Move,
    *,
    seed: int,
    budget: Budget | None = None,
    history: History | None = None,
) -> Assessment | None:
    """How the strong bot judges ``played``, made by ``view``'s seat in ``view``.

    Reads only ``view`` and ``history`` (as a bot does). ``None`` when there was no choice to
    judge: a single playable move, or a move bots never make (a challenge, a vote to reject).
    """
    moves = playable_moves(view.get("legal_moves") or [])
    played_key = move_key(played)
    keys = [move_key(m) for m in moves]
    if len(moves) < 2 or played_key not in keys:
        return None
    rng = bot_rng(game, "analysis", seed)
    best, report = _strong(game, view, moves, rng, budget, history, keep=[played])
    best_key = move_key(best)
    return Assessment(
        copy.deepcopy(best), report.means[best_key], report.means[played_key], report.deals
    )
