"""A cup's Swiss rounds keep their rules (competitions/swiss.py, docs/competitions.md "Cups:
Swiss rounds"): everyone seated once or given a bye, table sizes by the rule, score groups kept,
no repeat meeting while a seating without one exists (small fields, checked exhaustively), seats
balanced over a simulated cup, the same round for the same inputs."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions import swiss_pairs
from competitions.swiss import SEAT_RANGE, Entrant, SwissRound, pair_round, table_sizes
from competitions.swiss_standings import TableResult, rounds_for, standings
from competitions.swiss_tables import top_down_homes
from tests.unit.purity import absolute_imports

BOUNDED = settings(max_examples=40, deadline=None)


@st.composite
def cups(draw: st.DrawFn, most_people: int, seats: st.SearchStrategy[int] | None = None) -> tuple:
    """A cup part-way: (seats, entrants in tie-break order, past tables, past byes). The past
    is arbitrary: random tables of two to ``seats`` people, some of them gone since."""
    k = draw(seats if seats is not None else st.sampled_from(SEAT_RANGE))
    people = draw(st.integers(0, most_people))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=people, max_size=people, unique=True))
    points = draw(st.lists(st.integers(0, 8), min_size=people, max_size=people))
    entrants = [Entrant(i, Fraction(p, 2)) for i, p in zip(ids, points, strict=True)]
    past = random.Random(draw(st.integers(0, 2**32)))
    everyone = [*ids, *range(10**6 + 1, 10**6 + 4)]  # three who have left
    history: list[tuple[int, ...]] = []
    for _round in range(draw(st.integers(0, 4))):
        past.shuffle(everyone)
        start = 0
        while start < len(everyone) - 1:
            size = past.randint(2, k)
            history.append(tuple(everyone[start : start + size]))
            start += size
    byes = [i for i in ids if past.random() < 0.1]
    return k, entrants, history, byes


def ranked(entrants: list[Entrant]) -> list[int]:
    """The ids in the order the round ranks them: points, then the order given."""
    return [e.id for e in sorted(entrants, key=lambda e: -e.points)]


def met_pairs(history: list[tuple[int, ...]]) -> set[frozenset[int]]:
    return {frozenset(pair) for table in history for pair in itertools.combinations(table, 2)}


def repeats(pairing: SwissRound, history: list[tuple[int, ...]]) -> int:
    met = Counter(frozenset(p) for table in history for p in itertools.combinations(table, 2))
    return sum(met[frozenset(p)] for t in pairing.tables for p in itertools.combinations(t, 2))


@pytest.mark.parametrize("seats", SEAT_RANGE)
def test_table_sizes_follow_the_rule(seats: int) -> None:
    """As few tables as seat everyone, as even as can be, the bigger first; byes only when even
    tables would seat fewer than the least, and as few as that takes: none at three seats or
    more, one for an odd field at two."""
    for least in range(2, seats + 1):
        for people in range(1, 400):
            sizes, byes = table_sizes(people, seats, least)
            seated = people - byes
            assert sum(sizes) == seated
            assert all(least <= size <= seats for size in sizes)
            assert list(sizes) == sorted(sizes, reverse=True)
            assert not sizes or sizes[0] - sizes[-1] <= 1
            assert len(sizes) == -(-seated // seats)
            for fewer in range(byes):  # every smaller number of byes fails the rule
                tables = -(-(people - fewer) // seats)
                assert (people - fewer) // tables < least
            if least == 2 and people >= 2:
                assert byes == (people % 2 if seats == 2 else 0)


@BOUNDED
@given(cups(most_people=300))
def test_everyone_is_seated_once_or_given_a_bye(cup: tuple) -> None:
    seats, entrants, history, byes = cup
    pairing = pair_round(entrants, seats, history=history, byes=byes)
    seated = [person for table in pairing.tables for person in table]
    assert sorted(seated + list(pairing.byes)) == sorted(e.id for e in entrants)
    sizes, bye_count = table_sizes(len(entrants), seats)
    assert len(pairing.byes) == bye_count
    assert sorted((len(t) for t in pairing.tables), reverse=True) == list(sizes)


@BOUNDED
@given(cups(most_people=60))
def test_a_bye_goes_to_the_lowest_ranked_of_those_with_the_fewest(cup: tuple) -> None:
    seats, entrants, history, byes = cup
    pairing = pair_round(entrants, seats, history=history, byes=byes)
    order = ranked(entrants)
    given_before = Counter(byes)
    for person in pairing.byes:
        for other in order[order.index(person) + 1 :]:
            # everyone ranked below someone with a bye had more byes already, or has one now
            assert other in pairing.byes or given_before[other] > given_before[person]


@BOUNDED
@given(cups(most_people=300, seats=st.integers(3, 8)))
def test_three_seats_or_more_keep_everyone_within_a_table_of_the_top_down_one(
    cup: tuple,
) -> None:
    """Score groups: the top-down seating puts the best ranked at the top table and so on; a
    person sits at that table or a neighbouring one, never further."""
    seats, entrants, history, byes = cup
    pairing = pair_round(entrants, seats, history=history, byes=byes)
    playing = [person for person in ranked(entrants) if person not in pairing.byes]
    sizes, _byes = table_sizes(len(entrants), seats)
    home = dict(zip(playing, top_down_homes(sizes), strict=True))
    for index, table in enumerate(pairing.tables):
        assert all(abs(home[person] - index) <= 1 for person in table)


@BOUNDED
@given(cups(most_people=300, seats=st.integers(3, 8)))
def test_with_no_one_met_before_the_tables_are_the_top_down_seating(cup: tuple) -> None:
    seats, entrants, _history, _byes = cup
    pairing = pair_round(entrants, seats)
    order = ranked(entrants)
    start = 0
    for table in pairing.tables:
        assert set(table) == set(order[start : start + len(table)])
        start += len(table)


def seating_without_repeats_exists(
    sizes: tuple[int, ...], order: list[int], met: set[frozenset[int]]
) -> bool:
    """Brute force: can everyone sit within a table of their top-down one with no pair who met?"""
    homes = top_down_homes(sizes)
    tables: list[list[int]] = [[] for _ in sizes]

    def place(index: int) -> bool:
        if index == len(order):
            return True
        person = order[index]
        for table in range(max(homes[index] - 1, 0), min(homes[index] + 2, len(sizes))):
            there = tables[table]
            if len(there) < sizes[table] and all(
                frozenset((person, other)) not in met for other in there
            ):
                there.append(person)
                if place(index + 1):
                    return True
                there.pop()
        return False

    return place(0)


@settings(max_examples=150, deadline=None)
@given(cups(most_people=12, seats=st.integers(3, 8)))
def test_no_repeat_meeting_while_a_seating_without_one_exists(cup: tuple) -> None:
    seats, entrants, history, byes = cup
    pairing = pair_round(entrants, seats, history=history, byes=byes)
    sizes, _byes = table_sizes(len(entrants), seats)
    playing = [p for p in ranked(entrants) if p not in pairing.byes]
    if seating_without_repeats_exists(sizes, playing, met_pairs(history)):
        assert repeats(pairing, history) == 0


def all_pairings(people: list[int]) -> list[list[tuple[int, int]]]:
    if not people:
        return [[]]
    first, rest = people[0], people[1:]
    return [
        [(first, other), *more]
        for other in rest
        for more in all_pairings([p for p in rest if p != other])
    ]


@settings(max_examples=150, deadline=None)
@given(cups(most_people=11, seats=st.just(2)))
def test_two_seats_pair_with_the_fewest_rematches_then_hard_clashes_then_closest_points(
    cup: tuple,
) -> None:
    """A field of at most ``swiss_pairs.BLOCK`` people gets the best of all its pairings: the
    fewest rematches, then the fewest hard seat clashes (two who have both sat first, or both
    second, at least twice more than the other seat), then the smallest sum of squared
    score-group gaps."""
    assert swiss_pairs.BLOCK >= 11
    seats, entrants, history, byes = cup
    pairing = pair_round(entrants, seats, history=history, byes=byes)
    points = {e.id: e.points for e in entrants}
    playing = [p for p in ranked(entrants) if p not in pairing.byes]
    group = {value: index for index, value in enumerate(sorted(set(points.values()))[::-1])}
    met = Counter(frozenset(p) for table in history for p in itertools.combinations(table, 2))
    leaning = Counter()
    for table in history:
        leaning[table[0]] += 1
        leaning[table[1]] -= 1

    def score(pairs: list[tuple[int, int]]) -> tuple[int, int, int]:
        return (
            sum(met[frozenset(pair)] for pair in pairs),
            sum(
                1
                for a, b in pairs
                if leaning[a] * leaning[b] > 0 and min(abs(leaning[a]), abs(leaning[b])) >= 2
            ),
            sum((group[points[a]] - group[points[b]]) ** 2 for a, b in pairs),
        )

    best = min(score(pairs) for pairs in all_pairings(playing))
    assert score([tuple(table) for table in pairing.tables]) == best


def play_cup(people: int, seats: int, seed: int) -> list[tuple[int, ...]]:
    """Every table of a cup with random results, paired round by round from the standings."""
    results = random.Random(seed)
    entrants = list(range(1, people + 1))
    history: list[tuple[int, ...]] = []
    played: list[TableResult] = []
    byes: list[int] = []
    for number in range(rounds_for(people, seats)):
        field = [Entrant(line.id, line.points) for line in standings(entrants, played, byes)]
        draw = random.Random(seed) if number == 0 else None
        pairing = pair_round(field, seats, history=history, byes=byes, draw=draw)
        byes.extend(pairing.byes)
        for table in pairing.tables:
            places = list(range(len(table)))
            results.shuffle(places)
            history.append(table)
            played.append(TableResult(seats=table, places=tuple(places)))
    return history


@settings(max_examples=30, deadline=None)
@given(
    seats=st.sampled_from(SEAT_RANGE),
    people=st.integers(17, 150),
    seed=st.integers(0, 2**32),
)
def test_seat_positions_stay_balanced_over_a_cup(seats: int, people: int, seed: int) -> None:
    """Over a whole simulated cup, among people who sat at the same number of tables, the times
    anyone sat first differ by at most 2, and nobody sat first more than 1.5 times away from
    their share (tables / seats); at two seats, everyone's times first and times second differ
    by at most 2 (chess's colour rule)."""
    history = play_cup(people, seats, seed)
    firsts = Counter(table[0] for table in history)
    tables = Counter(person for table in history for person in table)
    alike: dict[int, list[int]] = defaultdict(list)
    for person in range(1, people + 1):
        alike[tables[person]].append(firsts[person])
        assert abs(firsts[person] - tables[person] / seats) <= 1.5
        if seats == 2:
            assert abs(2 * firsts[person] - tables[person]) <= 2
    assert all(max(counts) - min(counts) <= 2 for counts in alike.values())


def test_people_are_swapped_between_neighbouring_tables_to_balance_seats() -> None:
    """1, 2 and 3 have always sat first, 4, 5 and 6 never: the top-down tables {1, 2, 3} and
    {4, 5, 6} would seat one of 1 to 3 first again, so people are swapped between the two
    tables and two of 4 to 6 sit first."""
    history = [(first, 100 + n, 200 + n) for n in range(3) for first in (1, 2, 3)]
    history += [(300 + n, last, 400 + n) for n in range(3) for last in (4, 5, 6)]
    pairing = pair_round([Entrant(i) for i in range(1, 7)], 3, history=history)
    assert {table[0] for table in pairing.tables} < {4, 5, 6}


@BOUNDED
@given(cups(most_people=200), st.integers(0, 2**32))
def test_the_same_inputs_and_seed_give_the_same_round(cup: tuple, seed: int) -> None:
    seats, entrants, history, byes = cup
    first = pair_round(entrants, seats, history=history, byes=byes, draw=random.Random(seed))
    again = pair_round(
        list(entrants), seats, history=list(history), byes=list(byes), draw=random.Random(seed)
    )
    assert first == again


def test_the_first_round_draw_comes_from_the_seed() -> None:
    entrants = [Entrant(i) for i in range(1, 41)]
    draws = {pair_round(entrants, 4, draw=random.Random(seed)).tables for seed in range(5)}
    assert len(draws) == 5
    undrawn = pair_round(entrants, 4)
    assert undrawn.tables[0] == (1, 2, 3, 4)  # no draw: the order given


@pytest.mark.parametrize(
    ("entrants", "seats", "message"),
    [
        ([Entrant(1), Entrant(1)], 2, "listed twice"),
        ([Entrant(1), Entrant(2)], 1, "2 to 8"),
        ([Entrant(1), Entrant(2)], 9, "2 to 8"),
    ],
)
def test_bad_input_is_refused(entrants: list[Entrant], seats: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pair_round(entrants, seats)


def test_a_least_above_the_seats_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        pair_round([Entrant(1), Entrant(2)], 3, least_seats=4)


def test_the_swiss_modules_are_pure_arithmetic() -> None:
    """No framework, database, clock or random generator: networkx is the one library."""
    package = Path(swiss_pairs.__file__).parent
    roots = {
        name.split(".")[0]
        for where, _line, name in absolute_imports(package)
        if where.startswith("swiss")
    }
    assert roots <= {
        "__future__",
        "collections",
        "competitions",
        "dataclasses",
        "fractions",
        "itertools",
        "networkx",
        "typing",
    }
