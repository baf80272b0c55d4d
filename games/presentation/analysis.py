"""The post-game analysis in words and points: each judged decision's mark ("Cost about 12%
of your winning chances: ..."), the per-player summary and the chance-over-time chart that
``games/_analysis_chart.html`` draws (docs/analysis.md). From ``games.selectors.analysis``'s
data only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.presentation.names import seat_names

if TYPE_CHECKING:
    from games.selectors.analysis import AnalysisData, Decision

# A decision that gave away at least this much of the seat's estimated chance of winning is
# "costly": marked in the replay and counted in the summary.
COSTLY = 0.05

# The language the words are written in before translation, in which every stored move's words
# exist (an English variant: ``settings.LANGUAGE_CODE`` is "en-gb").
SOURCE_LANGUAGE = "en"

# The chart's own units (the browser scales them to the box's width).
WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 58, 14, 14, 36
GRID = (0, 25, 50, 75, 100)


@dataclass(frozen=True)
class DecisionMark:
    """One judged decision in words, for the move list, the frame and the chart."""

    ply: int
    seat: int
    name: str
    percent: int  # the cost, in whole percentage points
    costly: bool
    played_text: str
    best_text: str
    played_percent: int
    best_percent: int
    text: str  # "Cost about 12% of Ann's winning chances: the strong bot would rather ..."
    move: int = 0  # its number among the players' moves (deals are not moves), as the replay


@dataclass
class PlayerSummary:
    seat: int
    name: str
    css: str  # the colour class shared by the summary's swatch and the chart's line
    decisions: int = 0  # decisions with a choice to judge
    forced: int = 0  # decisions with a single move to make (or a challenge, a vote)
    costly: int = 0
    total_cost: float = 0.0

    @property
    def average_percent(self) -> float:
        """The average cost per judged decision, in percentage points."""
        return 100 * self.total_cost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class ChartDot:
    x: float
    y: float
    ply: int
    costly: bool
    label: str


@dataclass
class ChartSeries:
    seat: int
    name: str
    css: str
    points: str = ""  # the polyline's "x,y x,y ..."
    dots: list[ChartDot] = field(default_factory=list)


@dataclass(frozen=True)
class ChartTick:
    value: float  # a position in the drawing's units
    label: str


@dataclass
class AnalysisChart:
    width: int
    height: int
    left: int
    right: int  # the plot's right edge (x)
    top: int
    bottom: int  # the plot's bottom edge (y)
    series: list[ChartSeries]
    y_ticks: list[ChartTick]
    x_ticks: list[ChartTick]
    description: str  # the chart in words, its text alternative


@dataclass
class AnalysisReport:
    summaries: list[PlayerSummary]
    marks: dict[int, DecisionMark]  # by ply: every judged decision
    costly_marks: list[DecisionMark]
    chart: AnalysisChart | None


def duration_text(seconds: float) -> str:
    """An analysis's expected length in words ("about 20 seconds", "about 3 minutes"), from
    ``games.services.analysis.analysis_estimate_s``."""
    if seconds < 10:
        return _("a few seconds")
    if seconds < 55:
        count = max(10, 5 * round(seconds / 5))
        return ngettext("about %(count)d second", "about %(count)d seconds", count) % {
            "count": count
        }
    if seconds < 90:
        return _("about a minute")
    minutes = round(seconds / 60)
    return ngettext("about %(count)d minute", "about %(count)d minutes", minutes) % {
        "count": minutes
    }


def words_in(words: dict[str, str], language: str | None = None) -> str:
    """A stored move's words (a language code to its words: ``AnalysedDecision.played_words``)
    in ``language`` (the active one when not given): that language, else its base language
    ("de" for "de-at") or a variant of it, else English (the site's source language, which
    every row has: "en-gb"), else whatever there is ("" for none)."""
    language = (language or get_language() or SOURCE_LANGUAGE).lower()
    for wanted in (language, SOURCE_LANGUAGE):
        base = wanted.split("-")[0]
        for code in (wanted, base, *words):
            if code in words and code.split("-")[0] == base:
                return words[code]
    return next(iter(words.values()), "")


def mark_of(
    decision: Decision, names: list[str], viewer: int | None, *, move: int | None = None
) -> DecisionMark:
    """One judged decision in words; "your" for the viewer's own seat. ``move``: its number
    among the players' moves (``AnalysisData.move_at``; its ply when not given, as in a game
    without deals)."""
    cost = decision.cost or 0.0
    percent = round(100 * cost)
    played_text = words_in(decision.played_words)
    best_text = words_in(decision.best_words)
    best = best_text[:1].lower() + best_text[1:]
    facts = {"percent": percent, "name": names[decision.seat], "best": best}
    if percent >= 1 and viewer == decision.seat:
        text = (
            _(
                "Cost about %(percent)s%% of your winning chances: the strong bot would rather"
                " %(best)s."
            )
            % facts
        )
    elif percent >= 1:
        text = (
            _(
                "Cost about %(percent)s%% of %(name)s\u2019s winning chances: the strong bot would"
                " rather %(best)s."
            )
            % facts
        )
    elif decision.best == decision.played:
        text = _("The strong bot would have made the same move.")
    else:
        text = _("As good as the strong bot\u2019s choice (it would %(best)s).") % facts
    return DecisionMark(
        ply=decision.ply,
        seat=decision.seat,
        name=names[decision.seat],
        percent=percent,
        costly=cost >= COSTLY,
        played_text=played_text,
        best_text=best_text,
        played_percent=round(100 * (decision.played_chance or 0.0)),
        best_percent=round(100 * (decision.best_chance or 0.0)),
        text=text,
        move=decision.ply if move is None else move,
    )


def analysis_report(data: AnalysisData, *, viewer: int | None) -> AnalysisReport:
    """What the replay shows of a done analysis (marks, summary, chart)."""
    names = seat_names(data.num_players, data.seats)
    people = [s.index for s in data.seats if s.bot_level is None]
    summaries = {i: PlayerSummary(i, names[i], "") for i in people}
    marks: dict[int, DecisionMark] = {}
    for decision in data.decisions:
        summary = summaries.setdefault(
            decision.seat, PlayerSummary(decision.seat, names[decision.seat], "")
        )
        if not decision.judged:
            summary.forced += 1
            continue
        mark = mark_of(decision, names, viewer, move=data.move_at(decision.ply))
        marks[decision.ply] = mark
        summary.decisions += 1
        summary.total_cost += decision.cost or 0.0
        summary.costly += mark.costly
    ordered = [summaries[i] for i in sorted(summaries)]
    for number, summary in enumerate(ordered):
        summary.css = f"series-{number % 8}"
    costly = [m for m in marks.values() if m.costly]
    return AnalysisReport(
        summaries=ordered,
        marks=marks,
        costly_marks=costly,
        chart=analysis_chart(
            marks=list(marks.values()), summaries=ordered, last_move=data.moves or data.last_ply
        ),
    )


def analysis_chart(
    *, marks: Sequence[DecisionMark], summaries: Sequence[PlayerSummary], last_move: int
) -> AnalysisChart | None:
    """Each person's estimated chance of winning after each of their judged decisions, over
    the match's moves; ``None`` when nothing was judged."""
    if not marks:
        return None
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    span = max(last_move, 1)

    def x(move: int) -> float:
        return round(LEFT + (right - LEFT) * move / span, 1)

    def y(percent: float) -> float:
        return round(TOP + (bottom - TOP) * (100 - percent) / 100, 1)

    series = []
    words = []
    for summary in summaries:
        own = [m for m in marks if m.seat == summary.seat]
        if not own:
            continue
        line = ChartSeries(summary.seat, summary.name, summary.css)
        line.dots = [
            ChartDot(
                x(m.move),
                y(m.played_percent),
                m.ply,
                m.costly,
                dot_words(m),
            )
            for m in own
        ]
        line.points = " ".join(f"{d.x},{d.y}" for d in line.dots)
        series.append(line)
        start, end = own[0].played_percent, own[-1].played_percent
        low = min(own, key=lambda m: m.played_percent)
        words.append(
            _(
                "%(name)s: about %(start)s%% after move %(first)s, %(end)s%% after move"
                " %(last)s, lowest %(low)s%% after move %(low_move)s"
            )
            % {
                "name": summary.name,
                "start": start,
                "first": own[0].move,
                "end": end,
                "last": own[-1].move,
                "low": low.played_percent,
                "low_move": low.move,
            }
        )
    x_ticks = [ChartTick(x(1), _move(1)), ChartTick(x(last_move), _move(last_move))]
    if last_move >= 20:
        middle = last_move // 2
        x_ticks.insert(1, ChartTick(x(middle), _move(middle)))
    return AnalysisChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        series=series,
        y_ticks=[ChartTick(y(v), f"{v}%") for v in GRID],
        x_ticks=x_ticks,
        description=_("Estimated chance of winning after each decision. %(lines)s.")
        % {"lines": "; ".join(words)},
    )


def _move(number: int) -> str:
    return _("Move %(move)s") % {"move": number}


def dot_words(mark: DecisionMark) -> str:
    """A chart dot's words: "Move 12, ann: Draw from the pack, about 40% to win"."""
    facts = {
        "move": mark.move,
        "name": mark.name,
        "played": mark.played_text,
        "chance": mark.played_percent,
        "cost": mark.percent,
    }
    if mark.costly:
        return (
            _(
                "Move %(move)s, %(name)s: %(played)s, about %(chance)s%% to win, cost about"
                " %(cost)s%%"
            )
            % facts
        )
    return _("Move %(move)s, %(name)s: %(played)s, about %(chance)s%% to win") % facts


def marks_attach(rounds: Sequence, marks: dict[int, DecisionMark]) -> Sequence:
    """The replay's move list (``replay_rounds``) with each judged move's mark on its entry."""
    for round_ in rounds:
        for turn in round_.turns:
            for entry in turn.entries:
                entry.mark = marks.get(entry.ply)
    return rounds
