"""Random self-play statistics for the rule engines, through the public contract only.

    python -m games.lab.simulate faraway --players 4 --games 1000
    python -m games.lab.simulate gulliver --players 4 --games 200 --target 250
    python -m games.lab.simulate gulliver --players 4 --games 50 --challenges

Every move is drawn uniformly from ``legal_moves`` of an awaited seat with one
``random.Random(seed)``, which also draws each game's seed, so a run is reproducible. With
``--challenges`` a seat that is not awaited may also challenge: before each move, with
probability ``--challenge-rate``, one of the seats offered a challenge (chosen uniformly) makes
it; votes are then random like every other move.

What is printed: games, wins by seat (outright; a Gulliver round-cap tie is a draw and its
winners are listed as shared), draws (Faraway: the turn cap; Gulliver: the round cap), moves per
game, Faraway's played turns per game (missed turns are skipped by the engine and not counted),
and Gulliver's rounds per match, tricks per round and matches that ran into the round cap.

Nothing here reads a clock or the global random module, so a run replays exactly from
``--seed``. Nor does it read the engine's events: a turn is judged from the moves played and
Gulliver's figures from ``view``, so a state that keeps only its last step's events suffices.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from games.engines import get_engine
from games.engines.gulliver import DEFAULT_TARGET

# A game still going after this many moves means an engine that loops; stop loudly.
MAX_MOVES_PER_GAME = 500_000


@dataclass
class Summary:
    game: str
    players: int
    games: int
    seed: int
    target: int | None = None
    challenges: bool = False
    challenge_rate: float = 0.0
    wins: list[int] = field(default_factory=list)  # outright wins per seat
    shared: list[int] = field(default_factory=list)  # appearances among a draw's winners
    draws: int = 0
    moves: list[int] = field(default_factory=list)  # per game
    turns: list[int] = field(default_factory=list)  # Faraway: played turns per game
    rounds: list[int] = field(default_factory=list)  # Gulliver: rounds per match
    tricks: list[int] = field(default_factory=list)  # Gulliver: tricks in each round played
    round_cap: int = 0  # Gulliver: matches the round cap ended (won or drawn)
    challenges_made: int = 0


def _starts_turn(seat: int, move: dict[str, Any], last_seat: int | None, last_type: str) -> bool:
    """Whether a Faraway move opens a new turn, judged from the move log alone.

    A turn holds one draw at most and ends at its discard (or when the hand runs out), and the
    engine skips penalised seats inside ``apply``; so a new turn starts at a change of seat, at
    any draw, or after a discard (with two players and the other seat penalised, one seat plays
    several turns in a row).
    """
    return seat != last_seat or move["type"] == "draw" or last_type == "discard"


def play_faraway(
    players: int, game_seed: int, rng: random.Random, summary: Summary
) -> dict[str, Any]:
    eng = get_engine("faraway")
    state = eng.new_game(players, game_seed)
    moves = turns = 0
    last_seat: int | None = None
    last_type = ""
    while not eng.is_over(state):
        seat = rng.choice(eng.awaiting(state))
        move = rng.choice(eng.legal_moves(state, seat))
        if _starts_turn(seat, move, last_seat, last_type):
            turns += 1
        state = eng.apply(state, seat, move)
        last_seat, last_type = seat, move["type"]
        moves += 1
        if moves > MAX_MOVES_PER_GAME:
            raise RuntimeError(f"faraway seed {game_seed}: no end after {moves} moves")
    summary.moves.append(moves)
    summary.turns.append(turns)
    return eng.outcome(state)


def play_gulliver(
    players: int, game_seed: int, rng: random.Random, summary: Summary
) -> dict[str, Any]:
    eng = get_engine("gulliver")
    options = {"target": summary.target, "challenges": summary.challenges}
    state = eng.new_game(players, game_seed, options)
    moves = 0
    while not eng.is_over(state):
        if eng.round_over(state):
            summary.tricks.append(sum(eng.view(state, None)["tricks"]))
            state = eng.next_round(state)
            continue
        awaited = eng.awaiting(state)
        if not awaited:
            raise RuntimeError(f"gulliver seed {game_seed}: nobody awaited mid-round")
        seat, move = _gulliver_choice(eng, state, awaited, rng, summary)
        if move["type"] == "challenge":
            summary.challenges_made += 1
        state = eng.apply(state, seat, move)
        moves += 1
        if moves > MAX_MOVES_PER_GAME:
            raise RuntimeError(f"gulliver seed {game_seed}: no end after {moves} moves")
    final = eng.view(state, None)
    summary.tricks.append(sum(final["tricks"]))
    summary.rounds.append(final["round"])
    summary.moves.append(moves)
    outcome = eng.outcome(state)
    standings = [s["standing"] for s in final["scores"]]
    if outcome["draw"] or max(standings) < summary.target:
        summary.round_cap += 1
    return outcome


def _gulliver_choice(
    eng: Any, state: Any, awaited: list[int], rng: random.Random, summary: Summary
) -> tuple[int, dict[str, Any]]:
    if summary.challenges and rng.random() < summary.challenge_rate:
        offers = [
            (seat, move)
            for seat in range(summary.players)
            if seat not in awaited
            for move in eng.legal_moves(state, seat)
            if move["type"] == "challenge"
        ]
        if offers:
            return rng.choice(offers)
    seat = rng.choice(awaited)
    return seat, rng.choice(eng.legal_moves(state, seat))


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int = 0,
    target: int = DEFAULT_TARGET,
    challenges: bool = False,
    challenge_rate: float = 0.1,
) -> Summary:
    """Play ``games`` random matches and gather the figures ``render`` prints."""
    eng = get_engine(game)
    eng.check_players(players)
    summary = Summary(
        game=game,
        players=players,
        games=games,
        seed=seed,
        wins=[0] * players,
        shared=[0] * players,
    )
    if game == "gulliver":
        summary.target, summary.challenges = target, challenges
        summary.challenge_rate = challenge_rate if challenges else 0.0
    rng = random.Random(seed)
    play = play_faraway if game == "faraway" else play_gulliver
    for _ in range(games):
        outcome = play(players, rng.randrange(2**31), rng, summary)
        if outcome["draw"]:
            summary.draws += 1
            for seat in outcome["winners"]:
                summary.shared[seat] += 1
        elif len(outcome["winners"]) == 1:
            summary.wins[outcome["winners"][0]] += 1
        else:
            raise RuntimeError(f"{game}: a finished game that is no draw has {outcome!r}")
    return summary


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def _spread(values: Sequence[int]) -> str:
    if not values:
        return "n/a"
    return f"mean {mean(values):.1f} (min {min(values)}, max {max(values)})"


def render(s: Summary) -> list[str]:
    if s.game == "faraway":
        head = f"Faraway Tree, {s.players} players"
        draw_kind = "turn-cap draws"
    else:
        rate = f" (rate {s.challenge_rate:g})" if s.challenges else ""
        head = (
            f"Gulliver's Travels, {s.players} players, target {s.target},"
            f" challenges {'on' if s.challenges else 'off'}{rate}"
        )
        draw_kind = "round-cap draws"
    lines = [
        f"{head}, {s.games} games, seed {s.seed}; random legal moves, dealer seat 0",
        f"games: {s.games}",
        f"won outright: {sum(s.wins)} ({_pct(sum(s.wins), s.games)})",
        f"{draw_kind}: {s.draws} ({_pct(s.draws, s.games)})",
        f"moves per game: {_spread(s.moves)}",
    ]
    if s.game == "faraway":
        lines.append(f"played turns per game: {_spread(s.turns)}")
    else:
        lines += [
            f"matches ended by the round cap: {s.round_cap} ({_pct(s.round_cap, s.games)})",
            f"rounds per match: {_spread(s.rounds)}",
            f"tricks per round: {_spread(s.tricks)}",
        ]
        if s.challenges:
            lines.append(f"challenges made: {s.challenges_made}")
    lines.append("wins by seat:")
    for seat in range(s.players):
        line = f"  seat {seat}: {s.wins[seat]} ({_pct(s.wins[seat], s.games)})"
        if s.game == "gulliver":
            line += f", shared in draws: {s.shared[seat]}"
        lines.append(line)
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m games.lab.simulate",
        description="Random self-play statistics for a Parlour rule engine.",
    )
    parser.add_argument("game", choices=("faraway", "gulliver"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=DEFAULT_TARGET, help="Gulliver winning score")
    parser.add_argument(
        "--challenges", action="store_true", help="Gulliver: play with the challenge option"
    )
    parser.add_argument(
        "--challenge-rate",
        type=float,
        default=0.1,
        help="Gulliver with --challenges: chance before each move that a seat challenges",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 0.0 <= args.challenge_rate <= 1.0:
        parser.error("--challenge-rate must be between 0 and 1")
    if args.game == "faraway" and (args.challenges or args.target != DEFAULT_TARGET):
        parser.error("--target and --challenges are Gulliver options")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        summary = simulate(
            args.game,
            args.players,
            args.games,
            seed=args.seed,
            target=args.target,
            challenges=args.challenges,
            challenge_rate=args.challenge_rate,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(render(summary)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
