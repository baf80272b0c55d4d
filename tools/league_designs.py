"""Search the league designs `competitions/schedules.py` keeps (run by hand, outside the site).

A design for `people` people at tables of `seats` is a few base tables over the numbers 0 to
people-1; each base table is turned round the circle (every number plus 0, 1, ..., people-1,
modulo people), which makes `people` tables of it. Every person then sits once in each seat of
each base table, so seat positions are balanced by construction; the search looks for the
fewest base tables after which every pair of people has met the same number of times.

    python tools/league_designs.py [--max-base 7] [--seconds 10] [--most-tables-each 15]

prints, for every size of three seats or more, the base tables found (or none within the
limits), as the lines of `competitions.schedules.DESIGNS` (about 5 minutes with the defaults). The
schedules' tests check every design the module keeps; this script only finds them.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competitions.schedules import MOST_PEOPLE, SEAT_RANGE, meetings_by_distance


def representatives(people: int, seats: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """One base table of each rotation class containing 0, with its meetings by distance."""
    seen: set[tuple[int, ...]] = set()
    found = []
    for rest in itertools.combinations(range(1, people), seats - 1):
        table = (0, *rest)
        turns = [tuple(sorted((p - t) % people for p in table)) for t in range(people)]
        first = min(turns)
        if first not in seen:
            seen.add(first)
            found.append((first, meetings_by_distance(first, people)))
    return found


def search(people: int, seats: int, max_base: int, seconds: float) -> list[tuple[int, ...]] | None:
    """The fewest base tables (at most ``max_base``) meeting every pair equally, or None."""
    candidates = representatives(people, seats)
    start = time.monotonic()
    most_a_table_adds = seats - 1

    def extend(first: int, left: int, totals: list[int], chosen: list) -> list | None:
        if time.monotonic() - start > seconds:
            return None
        if left == 0:
            return list(chosen) if len(set(totals)) == 1 else None
        top = max(totals)
        if sum(top - t for t in totals) > left * most_a_table_adds * len(totals):
            return None
        for i in range(first, len(candidates)):
            table, counts = candidates[i]
            summed = [a + b for a, b in zip(totals, counts, strict=True)]
            found = extend(i, left - 1, summed, [*chosen, table])
            if found:
                return found
        return None

    for base in range(1, max_base + 1):
        found = extend(0, base, [0] * (people // 2), [])
        if found:
            return found
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-base", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--most-tables-each", type=int, default=15)
    args = parser.parse_args()
    for seats in SEAT_RANGE[1:]:  # two seats follow a rule, not a search
        for people in range(seats + 1, MOST_PEOPLE + 1):
            found = search(people, seats, args.max_base, args.seconds)
            tables_each = len(found) * seats if found else 0
            if found and tables_each <= args.most_tables_each:
                print(f"    ({seats}, {people}): {written(found)},  # {tables_each} tables each")
            else:
                print(f"    # ({seats}, {people}): none within the limits")


def written(bases: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """The base tables as DESIGNS keeps them: the k-th use of one table starts k seats on."""
    uses: dict[tuple[int, ...], int] = {}
    out = []
    for base in bases:
        k = uses.get(base, 0)
        uses[base] = k + 1
        out.append(base[k:] + base[:k])
    return tuple(out)


if __name__ == "__main__":
    main()
