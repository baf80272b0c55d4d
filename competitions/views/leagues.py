"""The leagues' pages (docs/competitions.md): the list, a league's page, entering and
withdrawing, and its record once it has ended."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from competitions.league_entries import EntryRefused, league_enter, league_withdraw
from competitions.league_notices import league_notices_seen
from competitions.league_reads import LeaguePage, entry_counts, league_page, leagues_listed
from competitions.league_record import league_record
from competitions.league_terms import league_length
from competitions.league_words import (
    end_sentence,
    entry_lines,
    entry_refusal_hint,
    standing_lines,
    table_lines,
    terms_line,
)
from competitions.models import Event
from competitions.views.records import record_json_response, record_not_ready
from core.signed_out import login_required_htmx


@login_required_htmx
@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    listed = leagues_listed()
    counts = entry_counts([e.pk for events in listed.values() for e in events])
    sections = [
        ("open", _("Open to enter"), listed[Event.Status.OPEN]),
        ("running", _("Running"), listed["running"]),
        ("finished", _("Finished"), listed["finished"]),
    ]
    rows = [
        (key, heading, [(event, counts.get(event.pk, 0)) for event in events])
        for key, heading, events in sections
    ]
    return render(request, "competitions/league_list.html", {"sections": rows})


def _page_or_404(pk: int, user_id: int | None) -> LeaguePage:
    page = league_page(event_id=pk, user_id=user_id)
    if page is None:
        raise Http404(_("There is no such league."))
    return page


@login_required_htmx
@require_GET
def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league_notices_seen(event_id=pk, user_id=request.user.pk)  # its notices are read here
    return _detail(request, pk)


def _detail(request: HttpRequest, pk: int, *, status: int = 200) -> HttpResponse:
    """The league's page (``status``: a refused POST's, shown with its words)."""
    page = _page_or_404(pk, request.user.pk)
    event = page.event
    length = league_length(
        circle_size=event.circle_size,
        seats=event.seats,
        open_most=event.open_tables_most,
        deadline_days=event.deadline_days,
        spans=settings.PARLOUR_LEAGUE_TABLE_SPANS,
    )
    ends_at = event.ends_at or (event.starts_at + length if event.starts_at else None)
    context = {
        "event": event,
        "terms": terms_line(event),
        "end_sentence": end_sentence(event, length),
        "ends_at": ends_at,
        "gates": entry_refusal_hint(event),
        "entries": entry_lines(page),
        "playing": sum(1 for e in page.entries if not e.withdrawn),
        "mine": page.mine,
        "tables": table_lines(page, request.user.pk),
        "standings": standing_lines(page, request.user.pk),
    }
    return render(request, "competitions/league_detail.html", context, status=status)


@login_required_htmx
@require_POST
def league_enter_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        league_enter(event_id=pk, user=request.user)
    except EntryRefused as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
        return _detail(request, pk, status=exc.status)
    messages.success(request, _("You are in the league."))
    return redirect("league_detail", pk=pk)


@login_required_htmx
@require_POST
def league_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    if not Event.objects.filter(pk=pk, kind=Event.Kind.LEAGUE).exists():
        raise Http404(_("There is no such league."))
    try:
        left = league_withdraw(event_id=pk, user_id=request.user.pk)
    except EntryRefused as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
        return _detail(request, pk, status=exc.status)
    if not left:
        messages.error(request, _("You are not in this league."))
        return _detail(request, pk, status=409)
    messages.success(request, _("You have left the league."))
    return redirect("league_detail", pk=pk)


@login_required_htmx
@require_GET
def league_record_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The league's record once it has ended (every match over, so every match's record is
    whole); before that a 409 with words. ``?download=1`` offers it as a file."""
    event = Event.objects.filter(pk=pk, kind=Event.Kind.LEAGUE).first()
    if event is None:
        raise Http404(_("There is no such league."))
    if event.status != Event.Status.FINISHED:
        return record_not_ready(_("The league's record is ready once the league has ended."))
    filename = f"parlour-league-{event.pk}.json"  # i18n: data
    return record_json_response(request, league_record(event=event), filename)
