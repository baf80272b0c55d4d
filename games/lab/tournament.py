"""Bot against bot, many games, with confidence intervals and a significance test.

    python -m games.lab.tournament faraway --games 2000 --seats greedy,random
    python -m games.lab.tournament faraway --games 400 --seats strong,greedy --iterations 200
    python -m games.lab.tournament gulliver --games 400 --seats strong,greedy,greedy,greedy \
        --iterations 100 --target 100

``--seats`` gives one level per seat (its length is the table size). Seats rotate: games come
in blocks of one deal per rotation, so every level plays every seat, and every deal, equally
often (a duplicate-style pairing that also cancels most of the luck of the deal). Games run in
``--processes`` worker processes (default 2, the machine's cores). With ``--iterations`` the
strong bot's budget is a fixed iteration count and a run replays exactly from ``--seed``;
``--budget-ms`` gives it wall-clock time instead (not reproducible).

A game's winner earns its level a win; a drawn game (Faraway's turn cap, a Gulliver tie at the
round cap) or a shared win between different levels counts as a draw. For each level the table
shows its win rate over all games with a 95% Wilson interval, its fair share (its seats / table
size) and the one-sided exact binomial p-value of its wins among decisive games against that
fair share: a small p means the level wins more often than seat-for-seat equality would give.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.bots import Budget
from games.engines import get_engine
from games.engines.gulliver import DEFAULT_TARGET
from games.lab.players import PLAYERS, decide, not_for

MAX_PLIES = 200_000


@dataclass(frozen=True)
class Job:
    game: str
    levels: tuple[str, ...]  # by seat, after rotation
    deal_seed: int
    rotation: int
    budget: Budget | None
    options: dict[str, Any]


@dataclass
class GameResult:
    winner_level: str | None  # None: a draw
    plies: int
    # level -> (decisions timed, seconds spent deciding)
    timing: dict[str, tuple[int, float]] = field(default_factory=dict)


def decision_seed(deal_seed: int, rotation: int, ply: int) -> int:
    return (deal_seed * 16 + rotation) * 1_000_003 + ply


def play_game(job: Job) -> GameResult:
    engine = get_engine(job.game)
    n = len(job.levels)
    state = engine.new_game(n, job.deal_seed, dict(job.options))
    is_gulliver = job.game == "gulliver"
    plies = 0
    decisions: Counter = Counter()
    seconds: Counter = Counter()
    history: list[tuple[int | None, dict[str, Any]]] = []  # the public move log, as on the site
    while not engine.is_over(state):
        if is_gulliver and engine.round_over(state):
            state = engine.next_round(state)
            history.append((None, {"type": "next_round"}))
            continue
        seat = engine.awaiting(state)[0]
        level = job.levels[seat]
        view = engine.view(state, seat)
        started = time.perf_counter()
        move = decide(
            level,
            job.game,
            view,
            truth=state,
            history=history,
            seed=decision_seed(job.deal_seed, job.rotation, plies),
            budget=job.budget,
        )
        seconds[level] += time.perf_counter() - started
        decisions[level] += 1
        state = engine.apply(state, seat, move)
        history.append((seat, move))
        plies += 1
        if plies > MAX_PLIES:
            raise RuntimeError(f"{job.game} deal {job.deal_seed}: no end after {plies} moves")
    outcome = engine.outcome(state)
    winner_levels = {job.levels[s] for s in outcome["winners"]}
    winner = None
    if not outcome["draw"] and len(winner_levels) == 1:
        winner = winner_levels.pop()
    timing = {lv: (decisions[lv], seconds[lv]) for lv in decisions}
    return GameResult(winner, plies, timing)


def jobs_for(
    game: str, seats: list[str], games: int, seed: int, budget: Budget | None, options: dict
) -> list[Job]:
    n = len(seats)
    jobs = []
    for i in range(games):
        deal, rotation = divmod(i, n)
        levels = tuple(seats[(s + rotation) % n] for s in range(n))
        jobs.append(Job(game, levels, seed * 1_000_000 + deal, rotation, budget, options))
    return jobs


# --- Statistics ------------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a binomial proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def binomial_upper_tail(successes: int, trials: int, p0: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, p0): the one-sided exact test's p-value."""
    if successes <= 0:
        return 1.0
    if p0 <= 0.0:
        return 0.0
    if p0 >= 1.0:
        return 1.0
    log_p, log_q = math.log(p0), math.log1p(-p0)
    terms = [
        math.lgamma(trials + 1)
        - math.lgamma(k + 1)
        - math.lgamma(trials - k + 1)
        + k * log_p
        + (trials - k) * log_q
        for k in range(successes, trials + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def p_text(p_value: float) -> str:
    # Below the smallest double the tail underflows to 0: say so rather than print 0.
    return "<1e-300" if p_value < 1e-300 else f"{p_value:.2e}"


@dataclass
class Summary:
    games: int
    draws: int
    wins: Counter
    plies: int
    timing: dict[str, list[float]]


def summarise(results: list[GameResult]) -> Summary:
    wins: Counter = Counter()
    draws = plies = 0
    timing: dict[str, list[float]] = {}
    for r in results:
        plies += r.plies
        if r.winner_level is None:
            draws += 1
        else:
            wins[r.winner_level] += 1
        for level, (count, secs) in r.timing.items():
            t = timing.setdefault(level, [0, 0.0])
            t[0] += count
            t[1] += secs
    return Summary(len(results), draws, wins, plies, timing)


def table(seats: list[str], summary: Summary) -> list[str]:
    n = len(seats)
    decisive = summary.games - summary.draws
    lines = [
        f"{'level':<8}{'seats':>6}{'wins':>7}{'win rate':>10}{'95% CI':>18}"
        f"{'fair':>7}{'p (> fair)':>13}{'ms/decision':>13}"
    ]
    for level in dict.fromkeys(seats):
        k = seats.count(level)
        wins = summary.wins[level]
        low, high = wilson(wins, summary.games)
        p_value = binomial_upper_tail(wins, decisive, k / n) if decisive else 1.0
        count, secs = summary.timing.get(level, (0, 0.0))
        per = 1000 * secs / count if count else 0.0
        lines.append(
            f"{level:<8}{k:>6}{wins:>7}{wins / summary.games:>10.3f}"
            f"{f'[{low:.3f}, {high:.3f}]':>18}{k / n:>7.3f}{p_text(p_value):>13}{per:>13.2f}"
        )
    lines.append(
        f"draws {summary.draws} of {summary.games} games; {decisive} decisive;"
        f" {summary.plies / max(1, summary.games):.0f} moves per game on average"
    )
    return lines


# --- Command line -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m games.lab.tournament", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("game", choices=("faraway", "gulliver"))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument(
        "--seats", default="strong,greedy", help="one level per seat, e.g. strong,greedy,greedy"
    )
    parser.add_argument("--iterations", type=int, help="strong bot: iterations per decision")
    parser.add_argument("--budget-ms", type=float, help="strong bot: milliseconds per decision")
    parser.add_argument(
        "--target",
        type=int,
        default=DEFAULT_TARGET,
        help=f"Gulliver: winning score (default {DEFAULT_TARGET}, the game's)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    args.seat_levels = [s.strip() for s in args.seats.split(",") if s.strip()]
    unknown = [s for s in args.seat_levels if s not in PLAYERS]
    if unknown:
        parser.error(f"unknown level(s) {unknown}; choose from {', '.join(PLAYERS)}")
    elsewhere = not_for(args.game, args.seat_levels)
    if elsewhere:
        parser.error(f"{', '.join(elsewhere)} cannot sit at {args.game} tables")
    engine = get_engine(args.game)
    if not engine.min_players <= len(args.seat_levels) <= engine.max_players:
        parser.error(f"{args.game} is for {engine.min_players}-{engine.max_players} seats")
    if args.games < 1 or args.processes < 1:
        parser.error("--games and --processes must be at least 1")
    if args.target < 1:
        parser.error("--target must be positive")
    return args


def run_settings(args: argparse.Namespace) -> tuple[Budget | None, dict[str, Any]]:
    """The search budget (``None``: the bots' default) and the game options a command asked for
    with ``--iterations``, ``--budget-ms`` and ``--target``."""
    budget = None
    if args.iterations is not None or args.budget_ms is not None:
        budget = Budget(iterations=args.iterations, time_ms=args.budget_ms)
    options = {"target": args.target} if args.game == "gulliver" else {}
    return budget, options


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    budget, options = run_settings(args)
    jobs = jobs_for(args.game, args.seat_levels, args.games, args.seed, budget, options)
    strong_budget = "default (DEFAULT_BUDGET)" if budget is None else str(budget)
    searching = set(args.seat_levels) - {"random", "greedy"}
    print(
        f"{args.game}: {args.games} games, seats {','.join(args.seat_levels)} (rotating),"
        f" seed {args.seed}, {args.processes} process(es)"
        + (f", target {args.target}" if args.game == "gulliver" else "")
        + (f", search budget {strong_budget}" if searching else ""),
        flush=True,
    )
    started = time.perf_counter()
    results: list[GameResult] = []
    if args.processes == 1:
        for job in jobs:
            results.append(play_game(job))
    else:
        # ``fork`` shares the imported engines; chunks of one keep both cores busy to the end.
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            for done, result in enumerate(pool.imap_unordered(play_game, jobs), 1):
                results.append(result)
                if done % max(1, args.games // 10) == 0:
                    print(
                        f"  {done}/{args.games} games, {time.perf_counter() - started:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    summary = summarise(results)
    print("\n".join(table(args.seat_levels, summary)))
    print(f"wall time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
