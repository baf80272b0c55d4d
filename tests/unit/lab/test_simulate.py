"""The simulation tool: small runs on the real engines, checking that the printed figures add up."""

from __future__ import annotations

import re

import pytest

from games.lab import simulate as sim

FIGURE = re.compile(r"^(?P<label>[a-z][a-z -]*): (?P<count>\d+)(?: \((?P<pct>[\d.]+)%\))?")
SPREAD = re.compile(r"mean (?P<mean>[\d.]+) \(min (?P<min>\d+), max (?P<max>\d+)\)")
SEAT = re.compile(
    r"^  seat (?P<seat>\d+): (?P<wins>\d+) \((?P<pct>[\d.]+)%\)(?:, shared in draws: (?P<sh>\d+))?$"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert sim.main(list(argv)) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n")
    return out.splitlines()


def figures(lines: list[str]) -> dict[str, int]:
    found = {}
    for line in lines:
        m = FIGURE.match(line)
        if m:
            found[m["label"]] = int(m["count"])
    return found


def spread(lines: list[str], label: str) -> tuple[float, int, int]:
    (line,) = [x for x in lines if x.startswith(label + ":")]
    m = SPREAD.search(line)
    assert m, line
    return float(m["mean"]), int(m["min"]), int(m["max"])


def seats(lines: list[str]) -> list[re.Match[str]]:
    start = lines.index("wins by seat:")
    rows = [SEAT.match(x) for x in lines[start + 1 :]]
    assert all(rows), lines[start + 1 :]
    return rows


def check_percent(count: int, pct: str, games: int) -> None:
    assert float(pct) == pytest.approx(100 * count / games, abs=0.05)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_faraway_figures_add_up(capsys: pytest.CaptureFixture[str], players: int) -> None:
    games = 4
    lines = run(capsys, "faraway", "--players", str(players), "--games", str(games), "--seed", "3")
    assert lines[0].startswith(f"Faraway Tree, {players} players, {games} games, seed 3")
    f = figures(lines)
    assert f["games"] == games
    rows = seats(lines)
    assert [int(r["seat"]) for r in rows] == list(range(players))
    wins = [int(r["wins"]) for r in rows]
    assert sum(wins) == f["won outright"]
    assert f["won outright"] + f["turn-cap draws"] == games
    for r in rows:
        check_percent(int(r["wins"]), r["pct"], games)
    moves, min_moves, max_moves = spread(lines, "moves per game")
    turns, min_turns, max_turns = spread(lines, "played turns per game")
    assert min_moves <= moves <= max_moves and min_turns <= turns <= max_turns
    # Each played turn holds at least one move (a draw, a play or a discard) and, drawing one
    # card and discarding one, nine story cards take a winner at least nine turns.
    assert min_turns >= 9 and turns <= moves and max_turns <= max_moves


def test_faraway_summary_matches_its_games() -> None:
    s = sim.simulate("faraway", 2, 3, seed=11)
    assert len(s.moves) == len(s.turns) == 3
    assert sum(s.wins) + s.draws == 3
    # At most three moves a turn besides the draw: a story card, a penalty and the discard.
    assert all(t <= m <= 4 * t for t, m in zip(s.turns, s.moves, strict=True))


def test_same_seed_same_output_and_seed_matters(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "faraway", "--players", "3", "--games", "3", "--seed", "5")
    again = run(capsys, "faraway", "--players", "3", "--games", "3", "--seed", "5")
    other = run(capsys, "faraway", "--players", "3", "--games", "3", "--seed", "6")
    assert first == again
    assert first[4:] != other[4:]


def test_gulliver_figures_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    games = 3
    lines = run(capsys, "gulliver", "--players", "4", "--games", str(games), "--target", "60")
    assert lines[0].startswith("Gulliver's Travels, 4 players, target 60, challenges off, 3 games")
    f = figures(lines)
    rows = seats(lines)
    assert f["games"] == games
    assert sum(int(r["wins"]) for r in rows) == f["won outright"]
    assert f["won outright"] + f["round-cap draws"] == games
    # Every draw is shared by two seats or more; a round-cap ending may still have one winner.
    assert sum(int(r["sh"]) for r in rows) >= 2 * f["round-cap draws"]
    assert f["round-cap draws"] <= f["matches ended by the round cap"] <= games
    rounds, min_rounds, _ = spread(lines, "rounds per match")
    tricks, _, max_tricks = spread(lines, "tricks per round")
    assert min_rounds >= 1 and rounds >= 1
    # A round's tricks are sentences of 7 cards or more, so a 44-card pack holds 6 at most.
    assert 0 <= tricks <= max_tricks <= 6


def test_gulliver_summary_counts_every_round() -> None:
    s = sim.simulate("gulliver", 3, 2, seed=2, target=50)
    assert len(s.rounds) == len(s.moves) == 2
    assert len(s.tricks) == sum(s.rounds)
    assert sum(s.wins) + s.draws == 2


def test_gulliver_with_challenges_plays_them(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(
        capsys,
        "gulliver",
        "--players",
        "3",
        "--games",
        "2",
        "--target",
        "50",
        "--challenges",
        "--challenge-rate",
        "0.5",
        "--seed",
        "4",
    )
    assert "challenges on (rate 0.5)" in lines[0]
    f = figures(lines)
    assert f["challenges made"] > 0
    assert f["won outright"] + f["round-cap draws"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["faraway", "--players", "5", "--games", "1"],
        ["gulliver", "--players", "1", "--games", "1"],
    ],
)
def test_player_count_out_of_range_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert sim.main(argv) == 2
    assert "players" in capsys.readouterr().err


def test_faraway_rejects_gulliver_options() -> None:
    with pytest.raises(SystemExit):
        sim.main(["faraway", "--challenges"])
