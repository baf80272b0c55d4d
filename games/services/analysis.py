"""Post-game analysis: asking for one, and the run that writes it (docs/analysis.md).

A person seated at a finished match asks; the match gets one ``MatchAnalysis`` row and a
``games.match_analyse`` task after the commit. The run walks the move log once from the deal
with the replay fold, and at every decision a person made (their moves, less those the turn
deadline made for them) asks the strong bot to judge the move from that person's view at that
moment and the public log before it, as a bot would decide (``games.bots.assess``).

A run judges for at most ``PARLOUR_ANALYSIS_SLICE_S`` seconds (the task's slice), then the task
sends its own continuation and returns, so a worker is never held for a whole analysis.

Written once whatever happens to the task: each decision is one ``AnalysedDecision`` row, unique
on (analysis, ply), written under the analysis row's lock; a run skips the decisions that have a
row already, so a duplicate runs alongside without writing twice, a run after a killed worker
resumes where it stopped (so does each slice), and a task for a finished analysis does nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import bots, queue
from games.engines import get_engine, replay
from games.engines.resignation import is_resignation
from games.models import AnalysedDecision, AnalysisStatus, Match, MatchAnalysis, Move, Seat
from games.presentation import move_text
from games.presentation.names import seat_names
from games.selectors.analysis import analysis_decision_plies
from games.selectors.facts import SeatFacts, seat_facts
from games.services.errors import Rejected

logger = logging.getLogger(__name__)

# An analysis that has not moved in this long while pending or running has lost its task (the
# broker was down when it was sent, say): asking again sends it once more, at no cost.
STALLED_AFTER = timedelta(minutes=2)


class AnalysisRefused(Rejected):
    """An analysis that may not be asked for: not a player of the match (403), or the match is
    not over yet (409)."""


def analysis_seed(match: Match, ply: int) -> int:
    """The strong bot's seed for the decision at ``ply``: reproducible, its own per decision."""
    return (match.seed * 1_000_033 + ply * 7_919 + 13) % (1 << 63)


def analysis_budget() -> bots.Budget:
    """The strong bot's budget per decision analysed (``PARLOUR_ANALYSIS_*`` settings)."""
    return bots.Budget(
        time_ms=float(settings.PARLOUR_ANALYSIS_BUDGET_MS),
        iterations=settings.PARLOUR_ANALYSIS_ITERATIONS,
    )


def analysis_estimate_s(decisions: int) -> float:
    """About how many seconds a run takes to judge ``decisions`` decisions: each has the strong
    bot's time budget (``analysis_budget``), which it uses up unless its deal cap stops it
    first, so the whole is their product (a busy queue may start it later)."""
    return decisions * analysis_budget().time_ms / 1000


def analysis_may_request(*, match: Match, seats: Sequence[Seat], user: AbstractBaseUser) -> None:
    """Raise ``AnalysisRefused`` unless ``user`` is a person seated at ``match`` and it is over."""
    if not any(s.user_id == user.pk for s in seats if s.user_id is not None):
        raise AnalysisRefused(_("Only the players of a match can ask for its analysis."), 403)
    if match.status != Match.Status.FINISHED:
        raise AnalysisRefused(_("A match can be analysed once it is over."), 409)


def analysis_needs_run(analysis: MatchAnalysis | None, *, now: Any = None) -> bool:
    """Whether asking for this analysis (``None``: there is none yet) sends a run: none yet, a
    failed one, or one whose task was lost."""
    if analysis is None or analysis.status == AnalysisStatus.FAILED:
        return True
    if analysis.status == AnalysisStatus.DONE:
        return False
    return analysis.updated_at < (now or timezone.now()) - STALLED_AFTER


def analysis_request(
    *, match: Match, seats: Sequence[Seat], user: AbstractBaseUser
) -> MatchAnalysis:
    """The match's analysis, created (and its run sent after the commit) if there is none.

    Asking again shows the same analysis: a failed one, or one whose task was lost, is sent
    once more; one pending, running or done is left as it is.
    """
    analysis_may_request(match=match, seats=seats, user=user)
    budget = analysis_budget()
    with transaction.atomic():
        analysis, created = MatchAnalysis.objects.get_or_create(
            match=match,
            defaults={
                "requested_by": user,
                "budget_ms": budget.time_ms,
                "iterations": budget.iterations,
            },
        )
        if not created:
            analysis = MatchAnalysis.objects.select_for_update().get(pk=analysis.pk)
            if not analysis_needs_run(analysis):
                return analysis
            if analysis.status == AnalysisStatus.FAILED:
                analysis.status = AnalysisStatus.PENDING
                analysis.error = ""
            analysis.save(update_fields=["status", "error", "updated_at"])
        _run_enqueue(match)
    return analysis


def _run_enqueue(match: Match) -> None:
    queue.enqueue(queue.MATCH_ANALYSE, match.pk, match.version)


def analysis_run(*, match_id: int, slice_s: float | None = None) -> MatchAnalysis | None:
    """Judge the person's decisions of the match not judged yet, for about ``slice_s`` seconds
    (``None``: until none is left), and mark the analysis done once each has its row.

    A slice stops after the decision that took it to ``slice_s`` (every run writes at least one
    decision: ``0`` means one a run), so the analysis comes back ``running`` while decisions are
    left for another run (the task sends one, ``games.tasks.match_analyse``), and ``done`` when
    none is. ``None`` when the match has no analysis (it is gone, or none was asked for). A
    done analysis is returned untouched. Raises what the engine or the bot raise, after marking
    the analysis failed.
    """
    started = time.monotonic()
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update()
            .select_related("match")
            .filter(match_id=match_id)
            .first()
        )
        if analysis is None or analysis.status == AnalysisStatus.DONE:
            return analysis
        match = analysis.match
        plan = analysis_decision_plies(match.pk)
        analysis.status = AnalysisStatus.RUNNING
        analysis.started_at = analysis.started_at or timezone.now()
        analysis.decisions_total = len(plan)
        analysis.save(update_fields=["status", "started_at", "decisions_total", "updated_at"])
    deadline = None if slice_s is None else started + max(0.0, slice_s)
    try:
        _judge_slice(analysis, match, plan - _judged_plies(analysis), deadline)
    except Exception as exc:
        MatchAnalysis.objects.filter(pk=analysis.pk).exclude(status=AnalysisStatus.DONE).update(
            status=AnalysisStatus.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:200],
            updated_at=timezone.now(),
        )
        raise
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().get(pk=analysis.pk)
        if analysis.status == AnalysisStatus.DONE:
            return analysis
        written = _judged_plies(analysis)
        analysis.decisions_done = len(written)
        fields = ["decisions_done", "updated_at"]
        if not plan - written:
            analysis.status = AnalysisStatus.DONE
            analysis.finished_at = timezone.now()
            analysis.error = ""
            fields += ["status", "finished_at", "error"]
        analysis.save(update_fields=fields)
    return analysis


def _judged_plies(analysis: MatchAnalysis) -> set[int]:
    return set(analysis.decisions.values_list("ply", flat=True))


def _judge_slice(
    analysis: MatchAnalysis, match: Match, left: set[int], deadline: float | None
) -> None:
    """Walk the log from the deal (O(n) engine steps, milliseconds even for a long Gulliver
    match) and judge the decisions in ``left`` in order, each from its seat's view of the state
    before it, each written at once, until ``deadline`` (``time.monotonic()``) has passed after
    one of them, or none is left. A decision another run has written meanwhile is skipped."""
    if not left:
        return
    engine = get_engine(match.game)
    seats = Seat.objects.filter(match_id=match.pk).select_related("user")
    names = _names_by_language(match.num_players, seat_facts(seats))
    budget = analysis_budget()
    last = max(left)
    rows = (
        Move.objects.filter(match_id=match.pk, ply__lte=last)
        .order_by("ply")
        .values_list("ply", "seat", "payload")
    )
    state = engine.new_game(match.num_players, match.seed, match.options)
    history: list[tuple[int | None, dict]] = []
    for ply, seat, payload in rows.iterator():
        if ply in left and not _judged(analysis, ply):
            view = engine.view(state, seat)
            assessment = bots.assess(
                match.game,
                view,
                payload,
                seed=analysis_seed(match, ply),
                budget=budget,
                history=list(history),
            )
            _decision_store(analysis, ply, seat, view, payload, assessment, names)
            if deadline is not None and time.monotonic() >= deadline:
                return
        state = replay.step(engine, state, seat, payload)
        if not is_resignation(seat, payload):  # the bots' history holds the game's moves
            history.append((seat, payload))


def _names_by_language(num_players: int, seats: list[SeatFacts]) -> dict[str, list[str]]:
    """The seats' names in every language the site speaks (a bot's name is translated)."""
    names = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names[code] = seat_names(num_players, seats)
    return names


def _move_words(
    game: str, move: dict[str, Any], view: dict[str, Any], names: dict[str, list[str]]
) -> dict[str, str]:
    """``move`` in words from ``view``'s seat, in every language the site speaks: a language
    code to its words (``games.presentation.move_text``, as the table labels it)."""
    words = {}
    for code, their_names in names.items():
        with translation.override(code):
            words[code] = move_text(game, move, view, their_names)[:200]
    return words


def _judged(analysis: MatchAnalysis, ply: int) -> bool:
    return AnalysedDecision.objects.filter(analysis_id=analysis.pk, ply=ply).exists()


def _decision_store(
    analysis: MatchAnalysis,
    ply: int,
    seat: int,
    view: dict[str, Any],
    played: dict[str, Any],
    assessment: bots.Assessment | None,
    names: dict[str, list[str]],
) -> None:
    """Write one judged decision (once: a row already there is kept) and the progress. The
    moves' words are written in every language, each from the seat's view of that moment, so
    each reader reads them in their own and nothing is replayed to word them."""
    game = analysis.match.game
    values: dict[str, Any] = {
        "seat": seat,
        "played": played,
        "played_words": _move_words(game, played, view, names),
        "judged": assessment is not None,
    }
    if assessment is not None:
        values |= {
            "best": assessment.best,
            "best_words": _move_words(game, assessment.best, view, names),
            "played_chance": assessment.played_chance,
            "best_chance": assessment.best_chance,
            "cost": assessment.cost,
            "deals": assessment.deals,
        }
    with transaction.atomic():
        locked = MatchAnalysis.objects.select_for_update().get(pk=analysis.pk)
        AnalysedDecision.objects.get_or_create(analysis=locked, ply=ply, defaults=values)
        locked.decisions_done = locked.decisions.count()
        locked.save(update_fields=["decisions_done", "updated_at"])
