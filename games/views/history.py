"""The signed-in person's match history: ``/history/?game=&result=&status=&opponent=&...``.

A whole page carries the filter form and the results; an htmx request (the form or a page
link) gets only the results, and pushes its URL, so a filtered list can be shared. The form
and the page links are also plain GET links that work without JavaScript.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.filters import HistoryFilterForm
from games.presentation.results import history_lines, opponent_choices
from games.selectors.history import history_counts, history_opponents, match_history
from games.views.common import login_required_htmx
from games.views.event_marks import lines_marked

RESULTS_PARTIAL = "games/history.html#results"


@login_required_htmx
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    # The counts appear beside the form's choices, which a partial does not redraw.
    counts = None if partial else history_counts(user=request.user)
    form = HistoryFilterForm(
        request.GET,
        opponents=opponent_choices(history_opponents(user=request.user)),
        counts=counts,
    )
    filters = form.filters()
    page = match_history(user=request.user, filters=filters)
    page.object_list = lines_marked(history_lines(page.object_list))
    context = {
        "form": form,
        "filters": filters,
        "notes": form.notes,
        "page": page,
        "counts": counts,
        # The page links carry the filters that parsed (never an ignored value).
        "prev_query": page.has_previous() and filters.querystring(page=page.previous_page_number()),
        "next_query": page.has_next() and filters.querystring(page=page.next_page_number()),
    }
    # The same URL answers with a partial or a page: ``core.htmx_vary`` adds ``Vary:
    # HX-Request`` so that caches keep the two apart.
    return render(request, RESULTS_PARTIAL if partial else "games/history.html", context)
