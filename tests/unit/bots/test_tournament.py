"""The tournament runner: its statistics, seat rotation, and small real runs."""

from __future__ import annotations

from collections import Counter

import pytest

from games.bots import Budget
from games.bots.tournament import (
    binomial_upper_tail,
    jobs_for,
    main,
    play_game,
    summarise,
    wilson,
)


def test_wilson_interval_matches_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)


def test_exact_binomial_tail_matches_known_values():
    assert binomial_upper_tail(60, 100, 0.5) == pytest.approx(0.028444, abs=1e-6)
    assert binomial_upper_tail(0, 100, 0.5) == 1.0
    assert binomial_upper_tail(100, 100, 0.25) == pytest.approx(0.25**100)
    # Symmetry: P(X >= 51) + P(X >= 50) = 1 for Binomial(100, 1/2).
    assert binomial_upper_tail(51, 100, 0.5) + binomial_upper_tail(50, 100, 0.5) == (
        pytest.approx(1.0)
    )


def test_seats_rotate_over_each_deal():
    jobs = jobs_for("faraway", ["strong", "greedy", "greedy"], 6, 1, None, {})
    assert [j.levels.index("strong") for j in jobs] == [0, 2, 1, 0, 2, 1]
    assert len({j.deal_seed for j in jobs[:3]}) == 1 and jobs[3].deal_seed != jobs[0].deal_seed


def test_greedy_beats_random_in_a_small_faraway_match():
    # Over many games greedy wins about 96% at two players; 16 of 20 is a loose floor.
    results = [play_game(j) for j in jobs_for("faraway", ["greedy", "random"], 20, 3, None, {})]
    summary = summarise(results)
    assert summary.games == 20
    assert summary.wins["greedy"] >= 16


def test_strong_plays_whole_gulliver_matches_at_a_tiny_budget():
    jobs = jobs_for(
        "gulliver", ["strong", "greedy", "random"], 3, 2, Budget(iterations=2), {"target": 40}
    )
    results = [play_game(j) for j in jobs]
    summary = summarise(results)
    assert summary.games == 3
    assert sum(summary.wins.values()) + summary.draws == 3
    assert set(summary.timing) == {"strong", "greedy", "random"}


def test_command_line_prints_the_table(capsys):
    assert main(["faraway", "--games", "4", "--seats", "greedy,random", "--processes", "2"]) == 0
    out = capsys.readouterr().out
    rows = [
        line.split() for line in out.splitlines() if line.split()[:1] in (["greedy"], ["random"])
    ]
    assert [r[0] for r in rows] == ["greedy", "random"]
    wins = Counter({r[0]: int(r[2]) for r in rows})
    assert sum(wins.values()) <= 4
    assert "draws" in out
