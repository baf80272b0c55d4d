"""The staff's figures (docs/lessons.md, "Figures"): each lesson step's starts and finishes and
the share of new accounts that finished a first match. Staff only; to anyone else the page does
not exist (404)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.presentation.lessons import step_figure_rows, week_figure_rows
from games.selectors.lessons import COHORT_WEEKS, first_match_figures, lesson_step_figures


@require_GET
def staff_figures(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    return render(
        request,
        "games/figures.html",
        {
            "steps": step_figure_rows(lesson_step_figures()),
            "weeks": week_figure_rows(first_match_figures()),
            "cohort_weeks": COHORT_WEEKS,
        },
    )
