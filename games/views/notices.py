"""``/notices/``: one page of what awaits the person, a section per wanted kind of notice
(``games.views.notice_sources``); ``/notices/next/``, the link to the next table waiting for
their move (static/js/next_table.js); and ``/accounts/badge/``, the nav badge alone, for its
poll."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from games.selectors.notices import next_table
from games.views.common import login_required_htmx
from games.views.notice_sources import NOTICE_SOURCES, notice_badge_count, wanted_sources


@login_required_htmx
@require_GET
def notices(request: HttpRequest) -> HttpResponse:
    """Every kind the person wants, with its items and their actions in place; the kinds they
    turned off are named, with the way back to their box."""
    wanted = wanted_sources(request.user.pk)
    sections = [{"source": source, "items": source.items(request.user.pk)} for source in wanted]
    off = [source for source in NOTICE_SOURCES if source not in wanted]
    # htmx asks for the lists alone: the page refreshing itself (static/js/live.js).
    template = "games/notices.html#lists" if request.htmx else "games/notices.html"
    return render(request, template, {"sections": sections, "off": off})


@require_GET
def badge(request: HttpRequest) -> HttpResponse:
    """``/accounts/badge/``: just the nav badge, for its own slow poll. A 286 stops the poll
    once the session has ended (and swaps the badge away)."""
    if not request.user.is_authenticated:
        return HttpResponseStopPolling("")
    return render(
        request, "accounts/_badge.html", {"notice_badge": notice_badge_count(request.user.pk)}
    )


@login_required_htmx
@require_GET
def next_table_link(request: HttpRequest) -> HttpResponse:
    """``/notices/next/?after=<match>``: "Next table waiting (N)", a link to the match that has
    waited longest for the person's move, ``after`` (the table they are at) left out; empty
    when none waits. Only matches the person sits at are counted or named. An ``after`` that
    names no match is read as none."""
    after = request.GET.get("after", "")
    after_id = int(after) if after.isdigit() and len(after) <= 18 else None
    found = next_table(request.user.pk, after=after_id)
    return render(request, "games/_next_table.html", {"next_table": found})
