"""The strong bot: determinized Monte Carlo search with paired rollouts.

Each iteration deals the cards the bot cannot see at random, consistently with its view
(``engine.sample_state``: a *determinization*), and then tries every candidate move in that
same deal, each followed by the same truncated rollout (greedy play by every seat, with the
same random stream) and scored by a game-specific evaluation. Comparing moves on common deals
and common futures (common random numbers) cancels most of the luck that would otherwise
drown the small differences between good moves; statistics pool over all the deals, so the
move chosen is the one that does best across the hands the opponents might hold.

This is a rollout improvement of the greedy policy: the bot keeps the greedy move unless the
search shows, beyond its own noise, that another one does better. An information-set tree
search (ISMCTS with UCB) was tried first: its per-move statistics were too noisy to separate
moves whose win chances differ by a few per cent, and it lost to greedy (see docs/bots.md).

Candidates that fall clearly behind are dropped as the deals accumulate (successive
elimination), so the budget goes to telling the close ones apart.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .common import Budget, History, Move, View, move_key, playable_moves

# A move other than the greedy one is chosen only if it beats it by this many standard errors
# of the paired difference; candidates further than ELIMINATE standard errors behind the
# leader (after MIN_DEALS deals) stop being tried.
MARGIN = 1.0
ELIMINATE = 3.0
MIN_DEALS = 8


# Deals a full state consistent with what the deciding seat knows (a determinization).
Sampler = Callable[[random.Random], Any]


class Knowledge(Protocol):
    """What the search needs to know about one game beyond the engine contract."""

    def ended(self, engine: Any, state: Any) -> bool: ...

    def rewards(self, engine: Any, state: Any) -> list[float]:
        """Each seat's expected share of a win from here, in [0, 1]; exact once ``ended``."""
        ...

    def rollout_depth(self, num_players: int) -> int: ...

    def sampler(self, engine: Any, view: View, history: History) -> Sampler | None:
        """How to deal a determinization for ``view`` (``None``: ``engine.sample_state``)."""
        ...

    def policy(
        self, engine: Any, state: Any, seat: int, moves: Sequence[Move], rng: random.Random
    ) -> Move: ...


@dataclass
class SearchReport:
    """What a search did, for benchmarks and tests (not part of a decision)."""

    deals: int
    rollouts: int
    means: dict[Any, float]  # move key -> mean reward over the deals it was tried in
    chosen_over_greedy: bool
    seconds: float
    chosen: Any = None  # the chosen move's key


def to_move(engine: Any, state: Any) -> tuple[int, list[Move]]:
    seat = engine.awaiting(state)[0]
    return seat, playable_moves(engine.legal_moves(state, seat))


def rollout(
    engine: Any, knowledge: Knowledge, state: Any, depth: int, rng: random.Random
) -> list[float]:
    for _ in range(depth):
        if knowledge.ended(engine, state):
            break
        seat, legal = to_move(engine, state)
        move = legal[0] if len(legal) == 1 else knowledge.policy(engine, state, seat, legal, rng)
        state = engine.apply(state, seat, move)
    return knowledge.rewards(engine, state)


def search(
    engine: Any,
    knowledge: Knowledge,
    view: View,
    moves: Sequence[Move],
    greedy: Move,
    rng: random.Random,
    budget: Budget,
    *,
    sample: Sampler | None = None,
    keep: Sequence[Move] = (),
    ceilings: Sequence[float] | None = None,
) -> tuple[Move, SearchReport]:
    """Choose among ``moves`` (the seat's playable moves; ``greedy`` is one of them).

    ``sample`` deals each determinization (default: ``engine.sample_state(view, rng)``, the
    view's facts only); ``keep`` lists moves never dropped from the comparison (an analysis
    keeps the move a person played, so its mean covers every deal); ``ceilings``, one per move,
    caps what a move may score in any deal (a stalled Faraway position: a move that keeps the
    stall is worth a draw at most, ``faraway_stalls``)."""
    if sample is None:

        def sample(r: random.Random) -> Any:
            return engine.sample_state(view, r)

    started = time.perf_counter()
    deadline = started + budget.time_ms / 1000.0 if budget.time_ms is not None else None
    seat = view["seat"]
    depth = knowledge.rollout_depth(len(view["hand_counts"]))
    keys = [move_key(m) for m in moves]
    greedy_key = move_key(greedy)
    kept = {greedy_key, *(move_key(m) for m in keep)}
    # Per candidate: sum of rewards, and sum / sum of squares of its difference to greedy's
    # reward in the same deal (greedy is always kept, so every difference is paired).
    total = dict.fromkeys(keys, 0.0)
    tried = dict.fromkeys(keys, 0)
    diff = dict.fromkeys(keys, 0.0)
    diff_sq = dict.fromkeys(keys, 0.0)
    alive = list(range(len(moves)))
    deals = rollouts = 0
    while budget.iterations is None or deals < budget.iterations:
        if deadline is not None and deals and time.perf_counter() >= deadline:
            break
        deals += 1
        state = sample(rng)
        future = rng.getrandbits(64)
        results = {}
        for i in alive:
            after = engine.apply(state, seat, moves[i])
            value = rollout(engine, knowledge, after, depth, random.Random(future))[seat]
            results[keys[i]] = value if ceilings is None else min(value, ceilings[i])
            rollouts += 1
        base = results[greedy_key]
        for key, value in results.items():
            total[key] += value
            tried[key] += 1
            d = value - base
            diff[key] += d
            diff_sq[key] += d * d
        if deals >= MIN_DEALS and len(alive) > 1:
            alive = _survivors(alive, keys, kept, diff, diff_sq, deals)
        if len(alive) == 1:
            break
    best_key = greedy_key
    best_edge = 0.0
    margin = getattr(knowledge, "margin", MARGIN)
    for i in alive:
        key = keys[i]
        if key == greedy_key:
            continue
        mean, se = _paired(diff[key], diff_sq[key], deals)
        if mean > margin * se and mean > best_edge:
            best_key, best_edge = key, mean
    means = {key: total[key] / tried[key] for key in keys if tried[key]}
    report = SearchReport(
        deals, rollouts, means, best_key != greedy_key, time.perf_counter() - started, best_key
    )
    return moves[keys.index(best_key)], report


def _paired(sum_d: float, sum_sq: float, count: int) -> tuple[float, float]:
    mean = sum_d / count
    if count < 2:
        return mean, math.inf
    var = max(0.0, (sum_sq - count * mean * mean) / (count - 1))
    return mean, math.sqrt(var / count)


def _survivors(
    alive: list[int],
    keys: list[Any],
    kept: set[Any],
    diff: dict[Any, float],
    diff_sq: dict[Any, float],
    deals: int,
) -> list[int]:
    """Drop candidates clearly worse than greedy (the yardstick every move is paired with);
    the ``kept`` moves (greedy's among them) always stay."""
    keep = []
    for i in alive:
        key = keys[i]
        if key in kept:
            keep.append(i)
            continue
        mean, se = _paired(diff[key], diff_sq[key], deals)
        if mean + ELIMINATE * se >= 0.0:
            keep.append(i)
    return keep
