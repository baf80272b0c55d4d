"""The lab's study: pairings on the same deals, interleaved in one pool, one table."""

from __future__ import annotations

from games.lab.study import main, pairings


def test_rows_sit_their_player_against_the_others():
    rows = pairings(["strong", "oracle-hands"], "greedy", 3, ["strong,baseline"])
    assert [p.name for p in rows] == ["strong", "oracle-hands", "strong vs baseline"]
    assert rows[0].seats == ("strong", "greedy", "greedy")
    assert rows[2].seats == ("strong", "baseline")


def test_a_small_study_prints_every_row(capsys):
    code = main(
        [
            "gulliver",
            "--players",
            "baseline,oracle-full",
            "--games",
            "4",
            "--duel",
            "strong,baseline",
            "--duel-games",
            "2",
            "--iterations",
            "3",
            "--target",
            "40",
            "--processes",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [r.split(" | ")[0] for r in rows] == [
        "| player",
        "| baseline",
        "| oracle-full",
        "| strong",
    ]
    baseline = rows[1].split(" | ")
    assert baseline[1] == "greedy" and baseline[3] == "4"
    assert rows[2].split(" | ")[-1].strip(" |") == "1.00"  # the oracle closes its own gap
