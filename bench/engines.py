"""Random self-play speed of Parlour's rule engines beside two gin-rummy engines, side by side.

    .venv/bin/python bench/engines.py               # 12 s per subject in 6 interleaved slices
    .venv/bin/python bench/engines.py --quick       # 2 s per subject, 1 round: a smoke run

What it measures: bench/README.md, docs/performance.md (Engines), where its figures are kept.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from games.engines import get_engine
from tests.stack.machine import load_line, machine_line

# A game not over after this many moves means an engine that loops: stop loudly.
MAX_MOVES_PER_GAME = 200_000

GOALS = (  # (label, numerator subject, denominator subject, minimum ratio)
    ("Faraway 4p >= 3x RLCard", "faraway-4p", "rlcard-gin-rummy", 3.0),
    ("Faraway 4p >= 1x OpenSpiel", "faraway-4p", "openspiel-gin_rummy", 1.0),
    ("Gulliver 4p >= 2x RLCard", "gulliver-4p", "rlcard-gin-rummy", 2.0),
)


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    chance: int = 0  # OpenSpiel only: how many of ``moves`` were chance outcomes
    seconds: float = 0.0
    cpu: float = 0.0  # CPU time the process got: under ``seconds``, others took the core


@dataclass
class Subject:
    key: str
    label: str
    # Plays one whole game with ``rng`` and returns (moves, chance moves).
    play: Callable[[random.Random], tuple[int, int]]
    tally: Tally = field(default_factory=Tally)


class Skip(Exception):
    """A subject that cannot run here (package missing, engine not importable)."""


# --- Parlour's engines, through the contract only ----------------------------------------


def engine_player(
    game: str, players: int, options: dict, seed: int
) -> Callable[[random.Random], tuple[int, int]]:
    """Whole games through the engine contract; a round's ``next_round`` is done, not counted."""
    eng = get_engine(game)
    rounds = eng.has_rounds  # checked once: Faraway pays no round_over call a move
    game_seed = [seed]

    def play(rng: random.Random) -> tuple[int, int]:
        game_seed[0] += 1
        state = eng.new_game(players, game_seed[0], dict(options))
        moves = 0
        while not eng.is_over(state):
            if rounds and eng.round_over(state):
                state = eng.next_round(state)
                continue
            seat = eng.awaiting(state)[0]
            state = eng.apply(state, seat, rng.choice(eng.legal_moves(state, seat)))
            moves += 1
            if moves > MAX_MOVES_PER_GAME:
                raise RuntimeError(f"{game} {players}p seed {game_seed[0]}: no end in sight")
        return moves, 0

    return play


# --- The competitors ----------------------------------------------------------------------


def rlcard_player(seed: int) -> Callable[[random.Random], tuple[int, int]]:
    try:
        import rlcard
    except ImportError as exc:
        raise Skip("rlcard is not installed (pip install -r requirements-bench.txt)") from exc
    env = rlcard.make("gin-rummy", config={"seed": seed})

    def play(rng: random.Random) -> tuple[int, int]:
        state, _ = env.reset()
        moves = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            moves += 1
        return moves, 0

    return play


def openspiel_player() -> Callable[[random.Random], tuple[int, int]]:
    try:
        import pyspiel
    except ImportError as exc:
        raise Skip("open_spiel is not installed (pip install -r requirements-bench.txt)") from exc
    game = pyspiel.load_game("gin_rummy")

    def play(rng: random.Random) -> tuple[int, int]:
        state = game.new_initial_state()
        moves = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # Gin rummy's chance outcomes (dealt / drawn cards) are uniform, so a uniform
                # choice among them samples the true distribution.
                outcome, _ = rng.choice(state.chance_outcomes())
                state.apply_action(outcome)
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        return moves, chance

    return play


# --- Running and reporting ----------------------------------------------------------------


def build_subjects(args: argparse.Namespace) -> tuple[list[Subject], list[str]]:
    subjects: list[Subject] = []
    skipped: list[str] = []

    def add(key: str, label: str, make: Callable[[], Callable]) -> None:
        try:
            subjects.append(Subject(key, label, make()))
        except Skip as exc:
            skipped.append(f"{label}: skipped, {exc}")
        except ImportError as exc:
            skipped.append(f"{label}: skipped, the engine does not import ({exc})")

    for n in args.faraway_players:
        add(
            f"faraway-{n}p", f"Faraway {n}p", lambda n=n: engine_player("faraway", n, {}, args.seed)
        )
    g = args.gulliver_players
    add(
        f"gulliver-{g}p",
        f"Gulliver {g}p target {args.gulliver_target}",
        lambda: engine_player("gulliver", g, {"target": args.gulliver_target}, args.seed),
    )
    if not args.no_competitors:
        add("rlcard-gin-rummy", "RLCard gin-rummy", lambda: rlcard_player(args.seed))
        add("openspiel-gin_rummy", "OpenSpiel gin_rummy", openspiel_player)
    return subjects, skipped


def run_slice(subject: Subject, rng: random.Random, budget: float) -> None:
    tally = subject.tally
    start = time.perf_counter()
    cpu_start = time.process_time()
    now = start
    while now < start + budget:
        moves, chance = subject.play(rng)
        tally.games += 1
        tally.moves += moves
        tally.chance += chance
        now = time.perf_counter()
    tally.seconds += now - start
    tally.cpu += time.process_time() - cpu_start


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else 0.0


def package_versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for dist in ("rlcard", "open_spiel"):
        try:
            parts.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            parts.append(f"{dist} absent")
    return ", ".join(parts)


def report(subjects: list[Subject], skipped: list[str]) -> list[str]:
    lines = [
        f"{'subject':<28}{'games':>8}{'moves':>11}{'secs':>7}"
        f"{'games/s':>10}{'moves/s':>10}{'moves/game':>12}{'cpu%':>6}",
    ]
    for s in subjects:
        t = s.tally
        lines.append(
            f"{s.label:<28}{t.games:>8}{t.moves:>11}{t.seconds:>7.1f}"
            f"{rate(t.games, t.seconds):>10.1f}{rate(t.moves, t.seconds):>10.0f}"
            f"{rate(t.moves, t.games):>12.1f}{100 * rate(t.cpu, t.seconds):>6.0f}"
        )
    for s in subjects:
        if s.tally.chance:
            t = s.tally
            decisions = t.moves - t.chance
            lines.append(
                f"({s.label}: {t.chance} of the {t.moves} moves were chance outcomes;"
                f" decisions alone {rate(decisions, t.seconds):.0f}/s)"
            )
    lines.extend(skipped)

    by_key = {s.key: s.tally for s in subjects}
    lines.append("")
    lines.append("Ratios (moves/s) and goals:")
    for label, num, den, goal in GOALS:
        if num not in by_key or den not in by_key:
            lines.append(f"  {label:<30} n/a (a subject was not measured)")
            continue
        ratio = rate(by_key[num].moves, by_key[num].seconds) / rate(
            by_key[den].moves, by_key[den].seconds
        )
        verdict = "PASS" if ratio >= goal else "MISS"
        lines.append(f"  {label:<30} {ratio:6.2f}x  {verdict}")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag, kind, default, text in (
        ("--seconds", float, 12.0, "budget per subject"),
        ("--rounds", int, 6, "slices per subject, run in rotation"),
        ("--seed", int, 1, "seed of games and choices"),
        ("--gulliver-players", int, 4, "Gulliver table size"),
        ("--gulliver-target", int, 100, "Gulliver's winning score, low so matches stay short"),
    ):
        parser.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    parser.add_argument("--faraway-players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 s a subject, 1 round")
    parser.add_argument("--no-competitors", action="store_true", help="Parlour's engines only")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds = 2.0, 1
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    subjects, skipped = build_subjects(args)
    print(f"Machine: {machine_line()}")
    print(f"Competitors: {package_versions()}")
    print(
        f"Budget: {args.seconds:g} s per subject in {args.rounds} interleaved slice(s);"
        f" seed {args.seed}; at start {load_line()}"
    )
    if not subjects:
        print("\n".join(skipped))
        return 1

    rng_of = {s.key: random.Random(f"{args.seed}|{s.key}") for s in subjects}
    for s in subjects:
        # One untimed game each: imports, caches and lazy tables are not part of the rate.
        s.play(random.Random(0))
    for _ in range(args.rounds):
        for s in subjects:
            run_slice(s, rng_of[s.key], args.seconds / args.rounds)
    print(f"At end: {load_line()}")
    print()
    print("\n".join(report(subjects, skipped)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
