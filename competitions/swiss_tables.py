"""A Swiss round at tables of three or more: who sits together (docs/competitions.md, "Cups").

Pure arithmetic over rank positions, no framework: people are 0 to n-1 in rank order (points
first), ``sizes`` the tables' sizes from the top table down, ``met[i]`` the positions person i
has already shared a table with.

The *top-down* seating fills the tables in rank order: the best ``sizes[0]`` people at the top
table, the next ``sizes[1]`` at the next, and so on; a person's table there is their *home*.
A person may move one table up or down from home to avoid a repeat meeting (the swaps between
neighbouring tables), never further: that is how score groups are kept. The seating chosen is
the first one, reading the tables from the top and each table's people in rank order, in which
nobody meets anyone again: the search keeps the better ranked at the higher tables as far as it
can. The search gives up after ``BUDGET`` steps (only a field that can hardly avoid repeats
takes that many); then, and when no seating without a repeat exists, each table in turn takes,
among the people it may take, those who met the fewest of its people, the best ranked first,
and people are swapped between neighbouring tables while a swap cuts the repeats.

Seats are balanced the same way (``balance_seats``): one pass of swaps between neighbouring
tables, each made when it lowers a seat cost the caller gives without adding a repeat.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence, Set

# Steps of each search for a seating before it gives up.
BUDGET = 2_000


def group_tables(
    sizes: Sequence[int], met: Mapping[int, Set[int]], budget: int = BUDGET
) -> list[list[int]]:
    """The people (rank positions, in rank order) at each table, top table first."""
    homes = top_down_homes(sizes)
    found = _search(sizes, homes, met, budget)
    if found is not None:
        return found
    return _swapped(_fewest_repeats(sizes, homes, met), homes, met)


def top_down_homes(sizes: Sequence[int]) -> list[int]:
    """Each rank position's table in the top-down seating."""
    return [table for table, size in enumerate(sizes) for _ in range(size)]


def _search(
    sizes: Sequence[int],
    homes: Sequence[int],
    met: Mapping[int, Set[int]],
    budget: int,
) -> list[list[int]] | None:
    """The first seating without a repeat meeting, in the order the docstring gives; None when
    there is none or the budget runs out."""
    seated = [False] * len(homes)
    chosen: list[list[int]] = []
    stack = [_options(0, sizes, homes, met, seated)]
    steps = 0
    while stack:
        steps += 1
        if steps > budget:
            return None
        members = next(stack[-1], None)
        if members is None:
            stack.pop()
            if chosen:
                for person in chosen.pop():
                    seated[person] = False
            continue
        for person in members:
            seated[person] = True
        chosen.append(members)
        if len(chosen) == len(sizes):
            return chosen
        stack.append(_options(len(chosen), sizes, homes, met, seated))
    return None


def _options(
    table: int,
    sizes: Sequence[int],
    homes: Sequence[int],
    met: Mapping[int, Set[int]],
    seated: Sequence[bool],
) -> Iterator[list[int]]:
    """Every way, best first, to fill ``table`` with people who never met, given who is seated
    (read once, when the search reaches this table)."""
    near = [p for p in _window(table, sizes) if not seated[p]]
    forced = [p for p in near if homes[p] < table]
    free = [p for p in near if homes[p] >= table]
    last = table == len(sizes) - 1
    # People whose home is this table and who do not sit here must fit at the next one.
    room_below = 0 if last else sizes[table + 1]
    at_home = sum(1 for p in free if homes[p] == table)
    if len(forced) > sizes[table] or any(met.get(a, set()) & set(forced) for a in forced):
        return
    for extra in _cliques(free, sizes[table] - len(forced), list(forced), met):
        stay = sum(1 for p in extra if homes[p] == table)
        if at_home - stay <= room_below:
            yield sorted([*forced, *extra])


def _cliques(
    candidates: Sequence[int],
    wanted: int,
    table: list[int],
    met: Mapping[int, Set[int]],
) -> Iterator[list[int]]:
    """Sets of ``wanted`` candidates who met nobody at ``table`` nor each other, in
    lexicographic order of rank."""
    if wanted == 0:
        yield []
        return
    for index, person in enumerate(candidates):
        if len(candidates) - index < wanted:
            return
        seen = met.get(person, set())
        if any(other in seen for other in table):
            continue
        table.append(person)
        for rest in _cliques(candidates[index + 1 :], wanted - 1, table, met):
            yield [person, *rest]
        table.pop()


def _window(table: int, sizes: Sequence[int]) -> range:
    """The rank positions whose home is this table or a neighbouring one."""
    first = sum(sizes[: max(table - 1, 0)])
    return range(first, first + sum(sizes[max(table - 1, 0) : table + 2]))


def _fewest_repeats(
    sizes: Sequence[int], homes: Sequence[int], met: Mapping[int, Set[int]]
) -> list[list[int]]:
    seated = [False] * len(homes)
    tables: list[list[int]] = []
    for table, size in enumerate(sizes):
        near = [p for p in _window(table, sizes) if not seated[p]]
        members = [p for p in near if homes[p] < table]
        free = [p for p in near if homes[p] >= table]
        room_below = 0 if table == len(sizes) - 1 else sizes[table + 1]
        while len(members) < size:
            at_home = [p for p in free if homes[p] == table]
            pool = at_home if len(at_home) - room_below >= size - len(members) else free
            person = min(pool, key=lambda p: (sum(1 for m in members if m in met.get(p, set())), p))
            members.append(person)
            free.remove(person)
        for person in members:
            seated[person] = True
        tables.append(sorted(members))
    return tables


def _swapped(
    tables: list[list[int]], homes: Sequence[int], met: Mapping[int, Set[int]]
) -> list[list[int]]:
    """``tables`` after swapping people between neighbouring tables, one swap at a time, while
    a swap cuts the pairs who met before at the two tables (and keeps everyone within a table of
    home)."""
    tables = [list(table) for table in tables]
    improved = True
    while improved:
        improved = False
        for upper, lower in itertools.pairwise(range(len(tables))):
            for a, b in itertools.product(list(tables[upper]), list(tables[lower])):
                if a not in tables[upper] or b not in tables[lower]:
                    continue  # one of them moved with an earlier swap
                if abs(homes[a] - lower) > 1 or abs(homes[b] - upper) > 1:
                    continue
                here = _repeats(tables[upper], met) + _repeats(tables[lower], met)
                up = [b if p == a else p for p in tables[upper]]
                down = [a if p == b else p for p in tables[lower]]
                if _repeats(up, met) + _repeats(down, met) < here:
                    tables[upper], tables[lower] = sorted(up), sorted(down)
                    improved = True
    return tables


def _repeats(table: Sequence[int], met: Mapping[int, Set[int]]) -> int:
    """How many pairs at ``table`` met before."""
    return sum(1 for a, b in itertools.combinations(table, 2) if b in met.get(a, set()))


def balance_seats(
    tables: list[list[int]],
    sizes: Sequence[int],
    met: Mapping[int, Set[int]],
    cost: Callable[[Sequence[int]], int],
) -> list[list[int]]:
    """``tables`` after one pass of swaps between neighbouring tables, each made when it lowers
    the two tables' seat ``cost`` without adding a pair who met before (and keeps everyone within
    a table of home)."""
    homes = top_down_homes(sizes)
    tables = [list(table) for table in tables]
    costs = [cost(table) for table in tables]
    for upper, lower in itertools.pairwise(range(len(tables))):
        for a, b in itertools.product(list(tables[upper]), list(tables[lower])):
            if a not in tables[upper] or b not in tables[lower]:
                continue  # one of them moved with an earlier swap
            if abs(homes[a] - lower) > 1 or abs(homes[b] - upper) > 1:
                continue
            up = sorted(b if p == a else p for p in tables[upper])
            down = sorted(a if p == b else p for p in tables[lower])
            up_cost, down_cost = cost(up), cost(down)
            if up_cost + down_cost >= costs[upper] + costs[lower]:
                continue
            was = _repeats(tables[upper], met) + _repeats(tables[lower], met)
            if _repeats(up, met) + _repeats(down, met) > was:
                continue
            tables[upper], tables[lower] = up, down
            costs[upper], costs[lower] = up_cost, down_cost
    return tables
