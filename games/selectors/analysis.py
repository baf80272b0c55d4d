"""Reads of a match's post-game analysis: its row and its judged decisions, as data
(docs/analysis.md); ``games.presentation.analysis`` words them and draws the chart.

Everything here comes from the ``AnalysedDecision`` rows, which hold only what the strong bot
judged from each person's own view at the time; the words of the moves were written from that
same view, in every language the site speaks (the presentation picks the reader's). An
analysis exists only for a finished match, whose replay shows every hand anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.models import AnalysedDecision, AnalysisStatus, Match, MatchAnalysis, Move, Seat
from games.selectors.facts import SeatFacts, moves_made, seat_facts


@dataclass(frozen=True)
class Decision:
    """One decision a person made, as the strong bot judged it (``judged`` False: nothing to
    choose between, so it is only counted)."""

    ply: int
    seat: int
    judged: bool
    played: dict[str, Any]
    played_words: dict[str, str]  # a language code -> the move in its words
    best: dict[str, Any] | None
    best_words: dict[str, str]  # the same for the strong bot's choice ({} when not judged)
    played_chance: float | None
    best_chance: float | None
    cost: float | None


@dataclass(frozen=True)
class AnalysisFacts:
    """Where an analysis stands, for its panel: the status, the progress and the budget each
    decision had."""

    pk: int
    status: str  # an ``AnalysisStatus`` value
    decisions_done: int
    decisions_total: int
    percent: int  # how far the run has got, 0 to 100
    budget_ms: float
    iterations: int | None


def analysis_facts(analysis: MatchAnalysis | None) -> AnalysisFacts | None:
    if analysis is None:
        return None
    return AnalysisFacts(
        pk=analysis.pk,
        status=analysis.status,
        decisions_done=analysis.decisions_done,
        decisions_total=analysis.decisions_total,
        percent=analysis.percent,
        budget_ms=analysis.budget_ms,
        iterations=analysis.iterations,
    )


@dataclass(frozen=True)
class AnalysisData:
    num_players: int
    last_ply: int
    seats: list[SeatFacts]
    decisions: list[Decision]  # by ply
    moves: int = 0  # the players' moves of the match (``moves_made``: deals are not moves)
    move_of: dict[int, int] | None = None  # each decision's ply -> its number among the moves

    def move_at(self, ply: int) -> int:
        """The number among the players' moves of the move at ``ply``."""
        return (self.move_of or {}).get(ply, ply)


def analysis_of(match: Match) -> MatchAnalysis | None:
    """The match's analysis, if one was asked for (only a finished match can have one)."""
    if match.status != Match.Status.FINISHED:
        return None
    return MatchAnalysis.objects.filter(match_id=match.pk).first()


def analysis_decision_plies(match_id: int) -> set[int]:
    """The plies of the decisions people made, which an analysis judges: moves of a person's
    seat, chosen by them (not made for them by the turn deadline). One query."""
    rows = Move.objects.filter(
        match_id=match_id,
        auto=Move.Auto.CHOSEN,
        seat__in=Seat.objects.filter(match_id=match_id, bot_level__isnull=True).values("index"),
    )
    return set(rows.values_list("ply", flat=True))


def _decision(row: AnalysedDecision) -> Decision:
    return Decision(
        ply=row.ply,
        seat=row.seat,
        judged=row.judged,
        played=row.played,
        played_words=row.played_words,
        best=row.best,
        best_words=row.best_words,
        played_chance=row.played_chance,
        best_chance=row.best_chance,
        cost=row.cost,
    )


def analysis_data(*, match: Match, seats: Sequence[Seat], analysis: MatchAnalysis) -> AnalysisData:
    """A done analysis's decisions, by ply, each numbered among the players' moves as
    history and the replay number them: two queries (the decisions, and the deals' plies)."""
    decisions = [_decision(d) for d in analysis.decisions.order_by("ply")]
    deals = sorted(
        Move.objects.filter(match_id=match.pk, seat__isnull=True).values_list("ply", flat=True)
    )
    return AnalysisData(
        num_players=match.num_players,
        last_ply=match.ply,
        seats=seat_facts(seats),
        decisions=decisions,
        moves=moves_made(ply=match.ply, rounds=match.rounds),
        move_of={
            d.ply: moves_made(ply=d.ply, rounds=1 + sum(1 for deal in deals if deal < d.ply))
            for d in decisions
        },
    )


def analysis_decision_at(*, analysis: MatchAnalysis | None, ply: int) -> Decision | None:
    """The judged decision at ``ply`` of a done analysis, or ``None``: one query at most."""
    if analysis is None or analysis.status != AnalysisStatus.DONE or ply < 1:
        return None
    row = analysis.decisions.filter(ply=ply, judged=True).first()
    return None if row is None else _decision(row)
