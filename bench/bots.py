"""How long each bot level takes to decide, per game and table size.

    .venv/bin/python bench/bots.py                  # default strong budget (DEFAULT_BUDGET)
    .venv/bin/python bench/bots.py --quick          # fewer positions: a smoke run

Only contested decisions (more than one move a bot would consider) are timed, through
``choose_move``'s ``decide`` with the view built beforehand. Figures: docs/bots.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from bench.report import percentile
from games.bots import DEFAULT_BUDGET, Budget, choose_move, decide
from games.bots.common import playable_moves
from games.engines import get_engine
from tests.stack.machine import load_line

Position = tuple[dict[str, Any], list[tuple[int | None, dict[str, Any]]]]


def contested_views(game: str, players: int, count: int, seed: int) -> list[Position]:
    """``count`` views where the awaited seat has a real choice, spread over whole games, each
    with the public move log before it (what the worker hands the strong bot)."""
    engine = get_engine(game)
    views: list[Position] = []
    game_seed = seed
    while len(views) < count:
        options = {"target": 100} if game == "gulliver" else {}
        state = engine.new_game(players, game_seed, options)
        history: list[tuple[int | None, dict[str, Any]]] = []
        ply = 0
        while not engine.is_over(state) and len(views) < count:
            if game == "gulliver" and engine.round_over(state):
                state = engine.next_round(state)
                history.append((None, {"type": "next_round"}))
                continue
            seat = engine.awaiting(state)[0]
            view = engine.view(state, seat)
            # Every third contested position, so one game does not supply them all.
            if len(playable_moves(view["legal_moves"])) > 1 and ply % 3 == 0:
                views.append((view, list(history)))
            move = choose_move(game, "greedy", view, seed=ply)
            state = engine.apply(state, seat, move)
            history.append((seat, move))
            ply += 1
        game_seed += 1
    return views


def time_level(
    game: str, level: str, views: list[Position], budget: Budget | None
) -> tuple[list[float], list[int]]:
    """Milliseconds per decision, and for the strong bot the deals it searched in that time."""
    times, deals = [], []
    for i, (view, history) in enumerate(views):
        started = time.perf_counter()
        _, report = decide(game, level, view, seed=i, budget=budget, history=history)
        times.append(1000.0 * (time.perf_counter() - started))
        if report is not None:
            deals.append(report.deals)
    return times, deals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300, help="per game/size (random, greedy)")
    parser.add_argument("--strong-positions", type=int, default=25, help="per game/size (strong)")
    parser.add_argument("--strong-ms", type=float, help="strong time budget (default: DEFAULT)")
    parser.add_argument("--quick", action="store_true", help="60 and 6 positions")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    if args.quick:
        args.positions, args.strong_positions = 60, 6
    budget = Budget(time_ms=args.strong_ms) if args.strong_ms else DEFAULT_BUDGET
    print(f"strong budget {budget}; {load_line()} at start")
    print(
        f"{'game':<10}{'players':>8}{'level':>8}{'decisions':>11}{'median ms':>11}{'p95 ms':>9}"
        f"{'deals (median)':>16}"
    )
    for game in ("faraway", "gulliver"):
        for players in (2, 4):
            views = contested_views(game, players, args.positions, args.seed)
            for level in ("random", "greedy", "strong"):
                strong = level == "strong"
                step = max(1, len(views) // args.strong_positions) if strong else 1
                sample = views[::step][: args.strong_positions if strong else None]
                times, deals = time_level(
                    game, level, sample, budget if level == "strong" else None
                )
                searched = f"{statistics.median(deals):.0f}" if deals else "-"
                print(
                    f"{game:<10}{players:>8}{level:>8}{len(times):>11}"
                    f"{statistics.median(times):>11.2f}{percentile(times, 0.95):>9.2f}"
                    f"{searched:>16}",
                    flush=True,
                )
    print(f"{load_line()} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
