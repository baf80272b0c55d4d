"""Post-game analysis pages: asking for one (POST) and its panel, which polls while it runs.

``POST /matches/<id>/analysis/`` asks (a player of the finished match; CSRF like every form):
htmx gets the panel back, a plain form is sent back to the replay. ``GET`` on the same address
is the panel alone, for htmx's poll; a plain GET goes to the replay, which shows the panel. A
finished analysis answers the poll that saw it running with ``HX-Refresh``, so the replay
reloads with the marks in its move list.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import get_usage

from games.models import AnalysisStatus, Match, MatchAnalysis, Seat
from games.presentation.analysis import analysis_report, duration_text
from games.selectors import seat_of
from games.selectors.analysis import (
    analysis_data,
    analysis_decision_plies,
    analysis_facts,
    analysis_of,
)
from games.selectors.facts import match_facts
from games.services.analysis import (
    AnalysisRefused,
    analysis_estimate_s,
    analysis_may_request,
    analysis_needs_run,
    analysis_request,
)
from games.views.common import login_required_htmx, visible_match

PANEL = "games/_analysis.html"
LIMIT_MESSAGE = "You have asked for a lot of analyses lately. Try again in about {wait}."


@login_required_htmx
@require_http_methods(["GET", "POST"])
def match_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    match, seats = visible_match(request, pk)
    if match.status == Match.Status.CANCELLED:
        messages.info(request, _("There is nothing to analyse: the match was cancelled."))
        return redirect("match_detail", pk=match.pk)
    if match.status == Match.Status.WAITING:
        messages.info(request, _("There is nothing to analyse until the match begins."))
        return redirect("match_detail", pk=match.pk)
    if request.method == "POST":
        return _request(request, match, seats)
    if not request.htmx:
        return redirect(f"{reverse('match_replay', args=[match.pk])}#analysis")
    analysis = analysis_of(match)
    context = analysis_context(request, match, seats, analysis)
    response = render(request, PANEL, context)
    was = request.GET.get("was")
    if analysis is not None and analysis.status == AnalysisStatus.DONE and was in RUNNING_STATES:
        response["HX-Refresh"] = "true"  # the move list's marks come with the whole page
    return response


RUNNING_STATES = {AnalysisStatus.PENDING, AnalysisStatus.RUNNING}


def _request(request: HttpRequest, match: Match, seats: list[Seat]) -> HttpResponse:
    try:
        analysis_may_request(match=match, seats=seats, user=request.user)
    except AnalysisRefused as refusal:
        return _refused(request, match, seats, refusal.message, refusal.status)
    existing = analysis_of(match)
    # Asking for an analysis that exists (or resending a lost one) costs nothing.
    if existing is None or existing.status == AnalysisStatus.FAILED:
        wait = _limit_wait(request)
        if wait is not None:
            return _refused(request, match, seats, LIMIT_MESSAGE.format(wait=wait), 429)
    analysis = analysis_request(match=match, seats=seats, user=request.user)
    if request.htmx:
        return render(request, PANEL, analysis_context(request, match, seats, analysis))
    if analysis.status != AnalysisStatus.DONE:
        messages.success(
            request, _("The analysis has started; this page shows how far it has got.")
        )
    return redirect(f"{reverse('match_replay', args=[match.pk])}#analysis")


def _limit_wait(request: HttpRequest) -> str | None:
    """Count this request against the person's limit; how long to wait if it is over."""
    usage = get_usage(
        request,
        group="match_analysis",
        key="user",
        rate=settings.PARLOUR_ANALYSIS_RATE,
        method="POST",
        increment=True,
    )
    if usage is None or not usage["should_limit"]:
        return None
    minutes = max(1, math.ceil(usage["time_left"] / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def _refused(
    request: HttpRequest, match: Match, seats: list[Seat], message: str, status: int
) -> HttpResponse:
    if request.htmx:
        context = analysis_context(request, match, seats, analysis_of(match))
        context["refusal"] = message
        return render(request, PANEL, context, status=status)
    context = {"match": match_facts(match), "message": message}
    return render(request, "games/replay_refused.html", context, status=status)


def analysis_context(
    request: HttpRequest, match: Match, seats: list[Seat], analysis: MatchAnalysis | None
) -> dict:
    """What the analysis panel prints (the replay page includes it too)."""
    viewer = seat_of(seats, request.user)
    player = viewer is not None and viewer.bot_level is None
    report = None
    if analysis is not None and analysis.status == AnalysisStatus.DONE:
        report = analysis_report(
            analysis_data(match=match, seats=seats, analysis=analysis),
            viewer=None if viewer is None else viewer.index,
        )
    may_request = (
        player
        and match.status == Match.Status.FINISHED
        and (analysis is None or analysis_needs_run(analysis))
    )
    return {
        "match": match_facts(match),
        "analysis": analysis_facts(analysis),
        "analysis_report": report,
        "analysis_polling": analysis is not None and analysis.status in RUNNING_STATES,
        "may_request": may_request,
        # what the request form says it will take (one count, only where the form is shown)
        "analysis_estimate": (
            duration_text(analysis_estimate_s(len(analysis_decision_plies(match.pk))))
            if may_request
            else ""
        ),
        "is_player": player,
    }
