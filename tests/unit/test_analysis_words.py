"""The analysis in words and in points: the marks' sentences and the chart's geometry."""

from __future__ import annotations

from django.utils import translation

from games.models import AnalysedDecision
from games.presentation.analysis import (
    BOTTOM,
    COSTLY,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    PlayerSummary,
    analysis_chart,
    analysis_report,
    duration_text,
    mark_of,
    words_in,
)
from games.selectors.analysis import AnalysisData
from games.selectors.facts import SeatFacts

NAMES = ["ann", "bea"]


def decision(ply: int, seat: int, played: float, best: float, **kw: object) -> AnalysedDecision:
    return AnalysedDecision(
        ply=ply,
        seat=seat,
        played={"type": "draw", "source": "pack"},
        played_words={"en-gb": "Draw from the pack", "de": "Vom Nachziehstapel ziehen"},
        best=kw.get("best_move", {"type": "draw", "source": "discards", "positions": [0]}),
        best_words={"en-gb": "Take 5 Mr Watzisname from the discards"},
        played_chance=played,
        best_chance=best,
        cost=max(0.0, best - played),
    )


def test_a_costly_decision_says_what_it_cost_and_what_the_bot_would_rather_do() -> None:
    mark = mark_of(decision(7, 0, 0.40, 0.52), NAMES, viewer=0)
    assert mark.costly and mark.percent == 12
    assert mark.text == (
        "Cost about 12% of your winning chances: the strong bot would rather "
        "take 5 Mr Watzisname from the discards."
    )
    other = mark_of(decision(7, 0, 0.40, 0.52), NAMES, viewer=1)
    assert "of ann\u2019s winning chances" in other.text


def test_a_cheap_decision_is_not_costly_and_the_same_move_is_said_so() -> None:
    cheap = mark_of(decision(3, 1, 0.50, 0.50 + COSTLY / 2), NAMES, viewer=None)
    assert not cheap.costly
    same = decision(4, 1, 0.6, 0.6, best_move={"type": "draw", "source": "pack"})
    assert mark_of(same, NAMES, viewer=None).text == "The strong bot would have made the same move."


def test_the_chart_puts_each_players_chances_inside_the_plot_by_move() -> None:
    marks = [
        mark_of(decision(1, 0, 0.5, 0.5), NAMES, None),
        mark_of(decision(2, 1, 0.0, 0.3), NAMES, None),
        mark_of(decision(40, 0, 1.0, 1.0), NAMES, None),
    ]
    summaries = [PlayerSummary(0, "ann", "series-0"), PlayerSummary(1, "bea", "series-1")]
    chart = analysis_chart(marks=marks, summaries=summaries, last_move=40)
    assert chart is not None
    ann, bea = chart.series
    assert [d.ply for d in ann.dots] == [1, 40]
    assert ann.dots[-1].x == WIDTH - RIGHT and ann.dots[-1].y == TOP  # last move, 100%
    assert bea.dots[0].y == chart.bottom == HEIGHT - BOTTOM  # 0%
    assert bea.dots[0].costly and not ann.dots[0].costly
    assert all(LEFT <= d.x <= WIDTH - RIGHT for s in chart.series for d in s.dots)
    assert ann.points == " ".join(f"{d.x},{d.y}" for d in ann.dots)
    assert "ann: about 50% after move 1, 100% after move 40" in chart.description
    assert analysis_chart(marks=[], summaries=summaries, last_move=40) is None


def test_an_analysis_length_is_worded_from_its_estimate() -> None:
    assert duration_text(3) == "a few seconds"
    assert duration_text(11) == "about 10 seconds"
    assert duration_text(19) == "about 20 seconds"
    assert duration_text(61) == "about a minute"
    assert duration_text(200) == "about 3 minutes"


def test_the_report_numbers_moves_as_the_replay_and_history_do() -> None:
    """Issue 33: deals are not moves. Entries 5 and 12 of a log with deals at 3 and 9 are moves
    4 and 10 of 10: the marks, the chart's points, words and last tick say so; the links keep
    the entry (``ply``)."""
    seats = [SeatFacts(0, 1, "ann", None), SeatFacts(1, 2, "bea", None)]
    data = AnalysisData(
        num_players=2,
        last_ply=12,
        seats=seats,
        decisions=[decision(5, 0, 0.5, 0.9), decision(12, 0, 1.0, 1.0)],
        moves=10,
        move_of={5: 4, 12: 10},
    )
    report = analysis_report(data, viewer=None)
    assert (report.marks[5].move, report.marks[5].ply) == (4, 5)
    assert report.marks[12].move == 10
    chart = report.chart
    assert chart is not None
    assert [t.label for t in chart.x_ticks] == ["Move 1", "Move 10"]
    (ann,) = chart.series
    assert [d.ply for d in ann.dots] == [5, 12] and ann.dots[-1].x == WIDTH - RIGHT
    assert ann.dots[0].label.startswith("Move 4, ann:")
    assert "ann: about 50% after move 4, 100% after move 10" in chart.description


def test_a_judged_move_reads_in_the_readers_language_else_in_english() -> None:
    """Issue 37: the stored words of each language; a language without its own (French here,
    say for a row written before it was spoken) reads the English, "de-at" the German."""
    with translation.override("de"):
        mark = mark_of(decision(7, 0, 0.40, 0.52), NAMES, viewer=0)
    assert mark.played_text == "Vom Nachziehstapel ziehen"
    with translation.override("en-gb"):
        assert mark_of(decision(7, 0, 0.40, 0.52), NAMES, viewer=0).played_text == (
            "Draw from the pack"
        )
    with translation.override("fr"):
        mark = mark_of(decision(7, 0, 0.40, 0.52), NAMES, viewer=0)
    assert mark.played_text == "Draw from the pack"
    assert "take 5 Mr Watzisname from the discards" in mark.text
    words = {"en-gb": "Draw", "de": "Ziehen"}
    assert [words_in(words, code) for code in ("de-at", "en", "en-us", "nl")] == [
        "Ziehen",
        "Draw",
        "Draw",
        "Draw",
    ]
    assert words_in({"fr": "Piocher"}, "de") == "Piocher" and words_in({}, "de") == ""
