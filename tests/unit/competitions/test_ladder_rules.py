"""The ladder's rules as pure functions (competitions/ladder_rules.py): each refusal in its
order, and the one result rule (the winner takes the place, those between move down one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competitions import ladder_rules
from competitions.ladder_rules import ChallengeFacts, Shift, challenge_refusal, result_shift
from tests.unit.purity import absolute_imports

RULES = {"reach": 3, "most_open": 2, "cooldown_days": 7.0}


def facts(**changed) -> ChallengeFacts:
    base = dict(
        challenger_place=5,
        target_place=3,
        target_name="ann",
        challenger_open=0,
        target_open=0,
        open_between=False,
        cooling=False,
        refused=False,
    )
    return ChallengeFacts(**(base | changed))


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        ({}, None),
        ({"target_place": 2}, None),
        ({"challenger_place": None}, ladder_rules.NOT_ON_LADDER),
        ({"target_place": None}, "ann is not on this ladder."),
        ({"target_place": 5}, ladder_rules.NOT_ABOVE),
        ({"target_place": 6}, ladder_rules.NOT_ABOVE),
        ({"target_place": 1}, "More than 3 places above you."),
        ({"refused": True}, "ann does not take challenges from you."),
        ({"open_between": True}, ladder_rules.ALREADY_OPEN),
        ({"cooling": True}, "You challenged ann less than 7 days ago."),
        ({"challenger_open": 2}, "You have 2 open challenges already, the most at once."),
        ({"target_open": 2}, "ann has 2 open challenges already, the most at once."),
        ({"target_open": 1, "challenger_open": 1}, None),
    ],
)
def test_each_refusal(changed, said):
    assert challenge_refusal(facts(**changed), **RULES) == said


def test_a_draw_or_a_loss_moves_no_one():
    assert result_shift(challenger_won=False, challenger_place=5, challenged_place=3) is None


def test_a_win_from_above_moves_no_one():
    assert result_shift(challenger_won=True, challenger_place=2, challenged_place=3) is None


@given(st.integers(2, 50), st.data())
def test_a_win_keeps_every_place_once_and_moves_only_those_between(size, data):
    mine = data.draw(st.integers(2, size))
    theirs = data.draw(st.integers(1, mine - 1))
    shift = result_shift(challenger_won=True, challenger_place=mine, challenged_place=theirs)
    assert shift == Shift(first=theirs, last=mine - 1)
    after = {}
    for place in range(1, size + 1):
        if place == mine:
            after[place] = shift.first
        elif shift.first <= place <= shift.last:
            after[place] = place + 1
        else:
            after[place] = place
    assert sorted(after.values()) == list(range(1, size + 1))
    assert all(after[p] == p for p in range(1, size + 1) if p < theirs or p > mine)


def test_the_rules_import_no_framework() -> None:
    """Pure, as docs/architecture.md asks: the words are marked with a local no-op, and the
    caller's gettext words them."""
    source = Path(ladder_rules.__file__)
    roots = {
        name.split(".")[0]
        for where, _line, name in absolute_imports(source.parent)
        if where == source.name
    }
    assert roots <= {"__future__", "collections", "dataclasses"}


def test_a_refusal_is_worded_by_the_callers_gettext() -> None:
    def german(words: str) -> str:
        return {"%(name)s is not on this ladder.": "%(name)s ist nicht auf dieser Rangliste."}[
            words
        ]

    refusal = challenge_refusal(facts(target_place=None), words=german, **RULES)
    assert refusal == "ann ist nicht auf dieser Rangliste."
    assert challenge_refusal(facts(target_place=None), **RULES) == "ann is not on this ladder."
