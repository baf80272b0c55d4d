"""The tournament runner: its statistics, seat rotation, and small real runs."""

from __future__ import annotations

import re

import pytest

from games.bots import Budget
from games.lab.tournament import (
    binomial_upper_tail,
    jobs_for,
    main,
    play_game,
    summarise,
    wilson,
)

TOTALS = re.compile(r"^draws (?P<draws>\d+) of (?P<games>\d+) games; (?P<decisive>\d+) decisive;")


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


def run_table(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> tuple[str, dict[str, list[str]], re.Match[str]]:
    """The command's header line, its table rows by level, and its totals line."""
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["level", "seats", "wins"]
    totals = [TOTALS.match(line) for line in lines]
    (end,) = [i for i, m in enumerate(totals) if m]
    assert lines[end + 1].startswith("wall time ")
    rows = {line.split()[0]: line.split() for line in lines[2:end]}
    return lines[0], rows, totals[end]


@pytest.mark.parametrize(
    ("game", "seats", "options", "extra"),
    [
        ("faraway", ["greedy", "random"], {}, []),
        ("gulliver", ["greedy", "random", "random"], {"target": 40}, ["--target", "40"]),
    ],
)
def test_command_line_table_is_the_games_played(
    capsys: pytest.CaptureFixture[str],
    game: str,
    seats: list[str],
    options: dict[str, int],
    extra: list[str],
) -> None:
    games, seed = 6, 3
    argv = [game, "--games", str(games), "--seats", ",".join(seats), "--seed", str(seed)]
    # One process: the same games as the worker pool plays, without forking inside a unit test.
    header, rows, totals = run_table(capsys, [*argv, *extra, "--processes", "1"])
    assert header.startswith(
        f"{game}: {games} games, seats {','.join(seats)} (rotating), seed {seed}, 1 process(es)"
    )
    # Each level has one row, in seat order, with its seat count and fair share.
    assert list(rows) == list(dict.fromkeys(seats))
    for level, row in rows.items():
        assert int(row[1]) == seats.count(level)
        assert float(row[6]) == pytest.approx(seats.count(level) / len(seats), abs=5e-4)
        assert float(row[3]) == pytest.approx(int(row[2]) / games, abs=5e-4)
    wins = {level: int(row[2]) for level, row in rows.items()}
    draws, decisive = int(totals["draws"]), int(totals["decisive"])
    assert int(totals["games"]) == games
    assert sum(wins.values()) == decisive and decisive + draws == games
    # Without the strong bot a run replays: the table reports exactly the games its jobs give.
    played = summarise([play_game(j) for j in jobs_for(game, seats, games, seed, None, options)])
    assert wins == {level: played.wins[level] for level in rows}
    assert draws == played.draws
