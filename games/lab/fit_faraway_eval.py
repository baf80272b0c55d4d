"""Fit the Faraway Tree evaluation (games/bots/faraway_eval.py) to seeded greedy self-play.

Plays ``--games`` greedy-vs-greedy games per table size (deal seeds ``seed * 1_000_000 + i``),
keeps each position met along the way with probability ``--keep``, labels it with the seat
that went on to win, and fits the conditional logit ``P(s wins) = softmax_s(w . f_s)`` by
Newton's method (a small ridge keeps it well posed). Prints the weights as the Python literal
that ``WEIGHTS`` holds, with each fit's log loss on held-out games beside the hand-made
evaluation's.

    .venv/bin/python -m games.lab.fit_faraway_eval --players 2 3 4 --games 3000 --seed 11
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence

from games.bots.faraway import FarawaySearch, progress, win_chances
from games.bots.faraway_eval import FEATURES, seat_features
from games.bots.search import to_move
from games.engines import get_engine

RIDGE = 1e-3  # per position, on every weight
MAX_MOVES = 4000

# One position: the features of every seat, the winner, and the hand-made evaluation's shares.
Sample = tuple[list[list[float]], int, list[float]]


def self_play(num_players: int, deal_seed: int, keep: float, rng: random.Random) -> list[Sample]:
    """One greedy self-play game; the positions kept, labelled with its winner."""
    engine = get_engine("faraway")
    knowledge = FarawaySearch(num_players)
    state = engine.new_game(num_players, deal_seed)
    kept = []
    for _ in range(MAX_MOVES):
        if engine.is_over(state):
            break
        if rng.random() < keep:
            feats = [seat_features(state, s) for s in range(num_players)]
            old = win_chances(
                [progress(state.rows[s], state.hands[s], state.pens[s]) for s in range(num_players)]
            )
            kept.append((feats, old))
        seat, legal = to_move(engine, state)
        move = legal[0] if len(legal) == 1 else knowledge.policy(engine, state, seat, legal, rng)
        state = engine.apply(state, seat, move)
    winners = engine.outcome(state)["winners"] if engine.is_over(state) else []
    if len(winners) != 1:
        return []
    return [(feats, winners[0], old) for feats, old in kept]


def _probs(weights: Sequence[float], feats: list[list[float]]) -> list[float]:
    scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f in feats]
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return [v / total for v in e]


def fit(samples: list[Sample], iterations: int = 12) -> list[float]:
    """Newton's method on the conditional logit's ridge-penalised log likelihood."""
    k = len(FEATURES)
    w = [0.0] * k
    ridge = RIDGE * len(samples)
    for _ in range(iterations):
        grad = [-ridge * wi for wi in w]
        hess = [[(ridge if i == j else 0.0) for j in range(k)] for i in range(k)]
        for feats, winner, _ in samples:
            p = _probs(w, feats)
            mean = [sum(p[s] * feats[s][i] for s in range(len(feats))) for i in range(k)]
            fy = feats[winner]
            for i in range(k):
                grad[i] += fy[i] - mean[i]
            for s, f in enumerate(feats):
                d = [f[i] - mean[i] for i in range(k)]
                ps = p[s]
                for i in range(k):
                    di = ps * d[i]
                    if di == 0.0:
                        continue
                    row = hess[i]
                    for j in range(k):
                        row[j] += di * d[j]
        step = _solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b by Gaussian elimination with partial pivoting (a is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def log_loss(samples: list[Sample], weights: Sequence[float] | None) -> float:
    """Mean -log P(winner) of the model (``None``: the hand-made evaluation)."""
    total = 0.0
    for feats, winner, old in samples:
        p = old if weights is None else _probs(weights, feats)
        total -= math.log(max(p[winner], 1e-12))
    return total / max(1, len(samples))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--keep", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    fitted = {}
    for n in args.players:
        started = time.perf_counter()
        rng = random.Random(f"fit-faraway-{args.seed}-{n}")
        train: list[Sample] = []
        test: list[Sample] = []
        for i in range(args.games):
            game = self_play(n, args.seed * 1_000_000 + i, args.keep, rng)
            (test if i % 5 == 4 else train).extend(game)
        w = fit(train)
        fitted[n] = w
        print(
            f"# {n} players: {len(train)} positions fitted, {len(test)} held out;"
            f" held-out log loss {log_loss(test, w):.4f} (hand-made {log_loss(test, None):.4f},"
            f" uniform {math.log(n):.4f}); {time.perf_counter() - started:.0f} s"
        )
    print("WEIGHTS: dict[int, tuple[float, ...]] = {")
    for n, w in fitted.items():
        print(f"    {n}: (")
        for name, value in zip(FEATURES, w, strict=True):
            print(f"        {value:.4f},  # {name}")
        print("    ),")
    print("}")


if __name__ == "__main__":
    main()
