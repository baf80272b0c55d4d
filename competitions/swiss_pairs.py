"""A Swiss round at tables of two: a maximum-weight matching (docs/competitions.md, "Cups").

Pure arithmetic over rank positions, no framework: people are 0 to n-1 in rank order (points
first), ``groups[i]`` is person i's score group (0 the top group, the next distinct points 1,
...), ``met[i]`` maps the positions person i has already shared a table with to how many times.
The pairing is the matching that, in this order of priority,

1. has the fewest rematches (each earlier meeting of a pair counts once),
2. then the fewest hard seat clashes: two people who have both sat first at least twice more
   than second (or both second), one of whom would go to three (chess's absolute colour rule),
3. then the smallest sum of squared score-group gaps (equal points first: a floater drops one
   group before anyone drops two),
4. then the fewest seat clashes: two people who both sat first more often than second (or
   both second more often) clash, by the smaller of their two surpluses (as chess Swiss
   pairings respect colours),
5. then the smallest sum of rank distances (neighbours in the standings meet),

found by ``networkx.max_weight_matching`` over weights scaled so each priority outweighs all the
ones below it. The blossom algorithm grows faster than the field, so a big field is cut into
blocks of about ``BLOCK`` people in rank order, each matched completely (every pair of the block
joined): a field of at most ``BLOCK`` people gets the best of all its pairings, a bigger one the
best within each block. A cut falls at an even position, at a score-group boundary when one
lies in the block's second half, and a remainder under half a block joins the last block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

# About how many people one matching takes (matched completely: 24 take about 30 ms here).
BLOCK = 24


def pair_two_seats(
    groups: Sequence[int], leaning: Sequence[int], met: Mapping[int, Mapping[int, int]]
) -> list[tuple[int, int]]:
    """Pairs of rank positions (the better ranked first) covering 0 to len(groups)-1, an even
    number of people, best ranked pair first. ``leaning[i]`` is how many more times person i
    sat first than second."""
    if len(groups) % 2:
        raise ValueError("Tables of two need an even number of people (give a bye first).")
    pairs: list[tuple[int, int]] = []
    for start, end in blocks(groups):
        pairs.extend(_match(range(start, end), groups, leaning, met))
    return sorted(pairs)


def blocks(groups: Sequence[int]) -> list[tuple[int, int]]:
    """(start, end) of each block, in rank order, each of an even number of people."""
    people = len(groups)
    cuts: list[tuple[int, int]] = []
    start = 0
    while start < people:
        end = start + BLOCK
        if people - end < BLOCK // 2:
            end = people
        else:
            boundaries = [
                cut for cut in range(end, start + BLOCK // 2, -2) if groups[cut - 1] != groups[cut]
            ]
            if boundaries:
                end = boundaries[0]
        cuts.append((start, end))
        start = end
    return cuts


def _match(
    people: range,
    groups: Sequence[int],
    leaning: Sequence[int],
    met: Mapping[int, Mapping[int, int]],
) -> list[tuple[int, int]]:
    size = len(people)
    pairs = size // 2
    spread = groups[people[-1]] - groups[people[0]]
    most_lean = max((abs(leaning[p]) for p in people), default=0)
    # Each level's largest possible total over the block's pairing, plus one, scales the next.
    clash_scale = pairs * size + 1
    group_scale = clash_scale * (pairs * most_lean + 1)
    hard_scale = group_scale * (pairs * spread * spread + 1)
    rematch_scale = hard_scale * (pairs + 1)
    costs = {}
    for a in people:
        for b in range(a + 1, people.stop):
            gap = groups[b] - groups[a]
            clash = min(abs(leaning[a]), abs(leaning[b])) if leaning[a] * leaning[b] > 0 else 0
            costs[(a, b)] = (
                rematch_scale * met.get(a, {}).get(b, 0)
                + hard_scale * (clash >= 2)
                + group_scale * gap * gap
                + clash_scale * clash
                + (b - a)
            )
    ceiling = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(people)
    graph.add_weighted_edges_from((a, b, ceiling - cost) for (a, b), cost in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != size:  # a complete graph of an even size always has one
        raise AssertionError("The matching left someone out.")
    return [(min(a, b), max(a, b)) for a, b in matching]
