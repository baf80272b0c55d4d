"""Several pairings on the same deals in one run: the table docs/bots.md keeps.

    python -m games.lab.study gulliver --players strong,baseline,oracle-hands,oracle-full \
        --against greedy --games 200 --budget-ms 100
    python -m games.lab.study faraway --players strong,baseline --against greedy \
        --duel strong,baseline --games 200 --duel-games 400 --budget-ms 100 --seats 2

Each of ``--players`` sits at a table of ``--seats`` against ``--against`` in every other seat,
over the same deals and seat rotations (``games.lab.tournament``'s duplicate blocks, from the
same ``--seed``), so the rows differ only by the player. ``--duel A,B`` adds A against B head
to head (at two seats: A in one seat, B in the other, rotating). Every game of every pairing
goes into one pool of ``--processes`` workers, interleaved deal by deal, so the rows share the
machine's conditions throughout, and
a time budget (``--budget-ms``) is the same wall-clock allowance for every searching player.

Per row: wins, win rate and its 95% Wilson interval, the fair share, the one-sided exact
binomial p-value against that share, ms per decision (the mean over the player's decisions,
forced ones included) and, when ``baseline`` and an oracle are rows too, the share of the gap
between ``baseline`` and that oracle the row closes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass

from games.bots import Budget
from games.engines import get_engine
from games.engines.gulliver import DEFAULT_TARGET
from games.lab.players import PLAYERS, not_for
from games.lab.tournament import (
    GameResult,
    Job,
    binomial_upper_tail,
    jobs_for,
    p_text,
    play_game,
    run_settings,
    summarise,
    wilson,
)


@dataclass(frozen=True)
class Pairing:
    name: str  # the row's player
    seats: tuple[str, ...]  # one player per seat before rotation (the row's player in seat 0)


@dataclass(frozen=True)
class Row:
    pairing: Pairing
    games: int
    wins: int
    draws: int
    ms_per_decision: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def pairings(players: list[str], against: str, seats: int, duels: list[str]) -> list[Pairing]:
    out = [Pairing(p, (p, *[against] * (seats - 1))) for p in players]
    for duel in duels:
        a, b = duel.split(",")
        out.append(Pairing(f"{a} vs {b}", (a, b)))
    return out


def run(
    game: str,
    plan: list[tuple[Pairing, int]],
    seed: int,
    budget: Budget | None,
    options: dict,
    processes: int,
) -> list[Row]:
    """Play every pairing's games (``plan``: pairing and its number of games) in one pool."""
    per_row = [
        jobs_for(game, list(pairing.seats), games, seed, budget, options) for pairing, games in plan
    ]
    # Interleaved, block by block (one deal in every rotation), so every row plays under the
    # same load on the machine throughout the run.
    tagged: list[tuple[int, Job]] = []
    cursor = [0] * len(plan)
    while any(c < len(jobs) for c, jobs in zip(cursor, per_row, strict=True)):
        for index, jobs in enumerate(per_row):
            block = len(plan[index][0].seats)
            tagged += [(index, job) for job in jobs[cursor[index] : cursor[index] + block]]
            cursor[index] += block
    results: list[list[GameResult]] = [[] for _ in plan]
    started = time.perf_counter()
    jobs = [job for _, job in tagged]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        # ``imap`` keeps the order, so the k-th result is the k-th job's.
        for done, result in enumerate(pool.imap(play_game, jobs), 1):
            results[tagged[done - 1][0]].append(result)
            if done % max(1, len(jobs) // 20) == 0:
                print(
                    f"  {done}/{len(jobs)} games, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    rows = []
    for (pairing, games), played in zip(plan, results, strict=True):
        summary = summarise(played)
        count, secs = summary.timing.get(pairing.seats[0], (0, 0.0))
        rows.append(
            Row(
                pairing,
                games,
                summary.wins[pairing.seats[0]],
                summary.draws,
                1000 * secs / count if count else 0.0,
            )
        )
    return rows


def gap_share(row: Row, rows: list[Row], oracle: str) -> str:
    by_name = {r.pairing.name: r for r in rows}
    if "baseline" not in by_name or oracle not in by_name or " vs " in row.pairing.name:
        return "-"
    low, high = by_name["baseline"].rate, by_name[oracle].rate
    if high - low < 1e-9:
        return "-"
    return f"{(row.rate - low) / (high - low):.2f}"


def table(rows: list[Row], budget: str) -> list[str]:
    oracles = [o for o in ("oracle-hands", "oracle-full") if any(r.pairing.name == o for r in rows)]
    head = ["player", "opponents", "budget", "games", "wins", "win rate [95% CI]", "fair share"]
    head += ["p (> fair)", "draws", "ms/decision"] + [f"gap to {o} closed" for o in oracles]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in rows:
        seats_of = row.pairing.seats
        player = seats_of[0]
        fair = seats_of.count(player) / len(seats_of)
        low, high = wilson(row.wins, row.games)
        decisive = row.games - row.draws
        p_value = binomial_upper_tail(row.wins, decisive, fair) if decisive else 1.0
        opponents = ", ".join(seats_of[1:])
        cells = [
            player,
            opponents,
            budget if set(seats_of) - {"random", "greedy"} else "-",
            str(row.games),
            str(row.wins),
            f"{row.rate:.3f} [{low:.3f}, {high:.3f}]",
            f"{fair:.3f}",
            p_text(p_value),
            str(row.draws),
            f"{row.ms_per_decision:.1f}",
        ]
        cells += [gap_share(row, rows, o) for o in oracles]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m games.lab.study", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("game", choices=("faraway", "gulliver"))
    parser.add_argument(
        "--players", default="strong,baseline", help="one row each, e.g. strong,baseline"
    )
    parser.add_argument("--against", default="greedy", help="who sits in every other seat")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=200, help="games per row")
    parser.add_argument("--duel", action="append", default=[], help="A,B: A against B, two seats")
    parser.add_argument("--duel-games", type=int, help="games per duel (default --games)")
    parser.add_argument(
        "--row-games",
        default="",
        help="games for some rows instead of --games, e.g. oracle-full=60,oracle-hands=60",
    )
    parser.add_argument("--iterations", type=int, help="deals per decision for every search")
    parser.add_argument(
        "--budget-ms", type=float, help="milliseconds per decision for every search"
    )
    parser.add_argument(
        "--target", type=int, default=DEFAULT_TARGET, help="Gulliver: winning score"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    args.player_list = [p.strip() for p in args.players.split(",") if p.strip()]
    named = [*args.player_list, args.against]
    for duel in args.duel:
        pair = duel.split(",")
        if len(pair) != 2:
            parser.error(f"--duel {duel!r}: give two players, A,B")
        named += pair
    args.games_of = {}
    for item in filter(None, args.row_games.split(",")):
        name, _, count = item.partition("=")
        if name not in args.player_list or not count.isdigit() or int(count) < 1:
            parser.error(f"--row-games {item!r}: give one of --players = a positive count")
        args.games_of[name] = int(count)
    unknown = [p for p in named if p not in PLAYERS]
    if unknown:
        parser.error(f"unknown player(s) {unknown}; choose from {', '.join(PLAYERS)}")
    elsewhere = not_for(args.game, named)
    if elsewhere:
        parser.error(f"{', '.join(elsewhere)} cannot sit at {args.game} tables")
    engine = get_engine(args.game)
    if not engine.min_players <= args.seats <= engine.max_players:
        parser.error(f"{args.game} is for {engine.min_players}-{engine.max_players} seats")
    if args.games < 1 or args.processes < 1:
        parser.error("--games and --processes must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    budget, options = run_settings(args)
    players = pairings(args.player_list, args.against, args.seats, [])
    plan = [(p, args.games_of.get(p.name, args.games)) for p in players]
    duel_games = args.duel_games or args.games
    plan += [(p, duel_games) for p in pairings([], args.against, 2, args.duel)]
    budget_text = (
        "default"
        if budget is None
        else (
            f"{budget.time_ms:g} ms" if budget.time_ms is not None else f"{budget.iterations} deals"
        )
    )
    print(
        f"{args.game}, {args.seats} seats: rows {', '.join(p.name for p, _ in plan)};"
        f" seed {args.seed}, {args.processes} process(es), search budget {budget_text}"
        + (f", target {args.target}" if args.game == "gulliver" else ""),
        flush=True,
    )
    started = time.perf_counter()
    print(f"load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    rows = run(args.game, plan, args.seed, budget, options, args.processes)
    print("\n".join(table(rows, budget_text)))
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"wall time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
