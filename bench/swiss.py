"""Simulated Swiss cups: repeat meetings, seat balance and pairing time (competitions/swiss.py).

    .venv/bin/python bench/swiss.py                  # sizes 20, 100, 1000 at 2, 3, 4, 6 seats
    .venv/bin/python bench/swiss.py --sizes 1000 --seats 4 --cups 1

Each cup plays ``rounds_for(people, seats)`` rounds with random results (each table's places a
random order of its seats), pairing every round with ``pair_round`` from the standings so far.
Printed per size and seats: rounds, repeat meetings (a pair sharing a table again, counted per
extra meeting) per cup, the share of people who met someone again, the seat-0 spread (the most
minus the fewest times anyone sat first, over people who sat at the same number of tables), the
largest gap between anyone's times in seat 0 and their tables / seats, and the slowest round's
pairing time in CPU seconds of this process (the machine is shared: CPU time, not wall
time). What they mean: docs/competitions.md, "Cups: Swiss rounds".
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from competitions.swiss import Entrant, pair_round
from competitions.swiss_standings import TableResult, rounds_for, standings
from tests.stack.machine import load_line, machine_line


def simulate(people: int, seats: int, seed: int) -> dict[str, float]:
    """One cup with random results: its figures."""
    results = random.Random(seed)
    entrants = list(range(1, people + 1))
    history: list[tuple[int, ...]] = []
    played: list[TableResult] = []
    byes: list[int] = []
    slowest = 0.0
    rounds = rounds_for(people, seats)
    for number in range(rounds):
        table = standings(entrants, played, byes)
        field = [Entrant(line.id, line.points) for line in table]
        started = time.process_time()
        pairing = pair_round(
            field,
            seats,
            history=history,
            byes=byes,
            draw=random.Random(seed) if number == 0 else None,
        )
        slowest = max(slowest, time.process_time() - started)
        byes.extend(pairing.byes)
        for seated in pairing.tables:
            places = list(range(len(seated)))
            results.shuffle(places)
            history.append(seated)
            played.append(TableResult(seats=seated, places=tuple(places)))
    met = Counter(pair for seated in history for pair in itertools.combinations(sorted(seated), 2))
    repeats = sum(times - 1 for times in met.values())
    again = {person for pair, times in met.items() if times > 1 for person in pair}
    firsts = Counter(seated[0] for seated in history)
    tables = Counter(person for seated in history for person in seated)
    by_tables: dict[int, list[int]] = defaultdict(list)
    for person in entrants:
        by_tables[tables[person]].append(firsts[person])
    spread = max(max(counts) - min(counts) for counts in by_tables.values())
    gap = max(abs(firsts[person] - tables[person] / seats) for person in entrants if tables[person])
    return {
        "rounds": rounds,
        "repeats": repeats,
        "again": len(again) / people,
        "spread": spread,
        "gap": gap,
        "slowest": slowest,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 100, 1000])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4, 6])
    parser.add_argument("--cups", type=int, default=5, help="cups per size and seats")
    args = parser.parse_args()
    print(machine_line())
    print(load_line())
    print(
        "| people | seats | rounds | repeats a cup (mean, most) | met someone again "
        "| seat-0 spread (most) | seat-0 gap (most) | slowest round (CPU) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for people in args.sizes:
        for seats in args.seats:
            cups = [simulate(people, seats, seed) for seed in range(args.cups)]
            repeats = [cup["repeats"] for cup in cups]
            print(
                f"| {people} | {seats} | {cups[0]['rounds']} "
                f"| {sum(repeats) / len(cups):.1f}, {max(repeats)} "
                f"| {max(cup['again'] for cup in cups):.1%} "
                f"| {max(cup['spread'] for cup in cups)} "
                f"| {max(cup['gap'] for cup in cups):.2f} "
                f"| {max(cup['slowest'] for cup in cups) * 1000:.0f} ms |"
            )
    print(load_line())


if __name__ == "__main__":
    main()
