"""``games.skill``: standings to ranks, the Plackett-Luce update against the openskill API
called by hand, ties and shared wins, the displayed ordinal, and that the module is pure."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from openskill.models import PlackettLuce

from games import skill
from games.engines.results import Standing, standings
from games.presentation.ratings import change_text, rating_text


def by_hand(before: list[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """The update straight from the openskill API, one single-player team per seat."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def ours(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    return [(s.mu, s.sigma) for s in skill.rate([skill.Skill(m, s) for m, s in before], ranks)]


@pytest.mark.parametrize(
    ("before", "ranks"),
    [
        ([(25.0, 25 / 3), (25.0, 25 / 3)], [1, 2]),
        ([(30.0, 4.0), (22.0, 6.5)], [2, 1]),
        ([(25.0, 25 / 3), (28.0, 5.0), (20.0, 7.0)], [1, 2, 3]),
        ([(25.0, 25 / 3), (28.0, 5.0), (20.0, 7.0)], [3, 1, 2]),
        ([(25.0, 8.0), (26.0, 3.0), (24.0, 5.0), (31.0, 2.5)], [1, 2, 3, 4]),
        ([(25.0, 8.0), (26.0, 3.0), (24.0, 5.0), (31.0, 2.5)], [4, 3, 2, 1]),
    ],
)
def test_updates_match_openskill_by_hand(before, ranks):
    expected = by_hand(before, [float(r) for r in ranks])
    assert ours(before, ranks) == pytest.approx(expected, rel=1e-12)


def test_two_seat_winner_gains_and_loser_drops():
    win, lose = skill.rate([skill.Skill(), skill.Skill()], [1, 2])
    assert win.mu > skill.MU > lose.mu
    assert win.sigma < skill.SIGMA and lose.sigma < skill.SIGMA
    assert win.ordinal > 1000 > lose.ordinal


def test_a_tie_of_equals_moves_neither_mean():
    a, b = skill.rate([skill.Skill(), skill.Skill()], [1, 1])
    assert a.mu == pytest.approx(skill.MU) and b.mu == pytest.approx(skill.MU)
    assert a == b
    assert a.sigma < skill.SIGMA


def test_shared_win_at_four_seats():
    # Gulliver's tie at the round cap: two seats drawn at rank 1, then 3 and 4.
    outcome = {"scores": [9, 9, 4, 2], "winners": [0, 1], "draw": True}
    table = standings(outcome, 4)
    ranks = skill.ranks_of(table)
    assert ranks == [1, 1, 3, 4]
    after = skill.rate([skill.Skill()] * 4, ranks)
    assert after == [skill.Skill(m, s) for m, s in by_hand([(skill.MU, skill.SIGMA)] * 4, ranks)]
    assert after[0] == after[1]
    # openskill 6.2's Plackett-Luce gives the seat just below a tied pair the pair's own mean
    # gain here (only its sigma differs); the last seat loses. The gap in ranks (1, 1, 3)
    # changes nothing: ranks are read as an order.
    assert after[0].mu == pytest.approx(after[2].mu) and after[2].mu > after[3].mu
    assert after[3].mu < skill.MU < after[0].mu
    assert skill.rate([skill.Skill()] * 4, [1, 1, 2, 3]) == after


def test_everyone_drawn_leaves_equals_equal():
    outcome = {"scores": [3, 5, 1], "winners": [], "draw": True}
    ranks = skill.ranks_of(standings(outcome, 3))
    assert ranks == [1, 1, 1]
    after = skill.rate([skill.Skill()] * 3, ranks)
    assert {round(s.mu, 9) for s in after} == {round(skill.MU, 9)}


def test_ranks_of_checks_the_table():
    with pytest.raises(ValueError, match="2 to 8 seats"):
        skill.ranks_of([Standing("won", 1, 1)])
    with pytest.raises(ValueError, match="2 to 8 seats"):
        skill.ranks_of([Standing("drawn", 1, 1)] * 9)
    with pytest.raises(ValueError, match="start at 1"):
        skill.ranks_of([Standing("won", 1, 1), Standing("lost", 0, 0)])
    with pytest.raises(ValueError, match="One rank per rating"):
        skill.rate([skill.Skill()] * 2, [1, 2, 3])


def test_ordinal_is_openskill_scaled_and_rounded():
    model = PlackettLuce()
    for mu, sigma in [(25.0, 25 / 3), (27.3, 4.1), (18.9, 6.66), (31.0125, 2.0)]:
        raw = model.rating(mu=mu, sigma=sigma).ordinal()  # mu - 3 sigma
        assert raw == pytest.approx(mu - 3 * sigma)
        shown = skill.display_ordinal(mu, sigma)
        assert shown == round(skill.DISPLAY_SCALE * raw + skill.DISPLAY_BASE)
        assert isinstance(shown, int)
    assert skill.Skill().ordinal == 1000  # a newcomer: mu 25, sigma 25/3, ordinal 0
    # 1000 + 40 * 0.0125 = 1000.5 rounds half to even; 1000 + 40 * 0.0375 = 1001.5 to 1002.
    assert skill.display_ordinal(25.0125, 25 / 3) == 1000
    assert skill.display_ordinal(25.0375, 25 / 3) == 1002


def test_provisional_threshold_and_words():
    assert skill.PROVISIONAL_BELOW == 10
    assert skill.is_provisional(9) and not skill.is_provisional(10)
    assert rating_text(1234, 9) == "1234?"
    assert rating_text(1234, 10) == "1234"
    assert (change_text(14), change_text(-9), change_text(0)) == ("+14", "-9", "+0")


def test_the_module_loads_no_framework():
    """Nothing of a framework but gettext (``django.utils.translation``, what the presentation
    words with: docs/translation.md) and what that module itself loads."""
    gettext_alone = (
        "import sys, django.utils.translation; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    code = (
        "import sys, games.skill, games.presentation.ratings; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'celery', 'kombu', 'redis', 'psycopg'}); print(bad)"
    )
    allowed, env_free = (
        subprocess.run(
            [sys.executable, "-c", source], capture_output=True, text=True, check=True, cwd="."
        ).stdout.strip()
        for source in (gettext_alone, code)
    )
    assert set(ast.literal_eval(env_free)) - set(ast.literal_eval(allowed)) == set()
