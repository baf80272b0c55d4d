"""The cups' pages (docs/competitions.md, "Cups"): the list, a cup's page, entering and
withdrawing, and its record once it has ended."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from competitions.cup_terms import cup_length
from competitions.league_entries import EntryRefused
from competitions.league_notices import league_notices_seen
from competitions.models import Event
from competitions.presentation.cups import (
    entry_lines,
    gates_line,
    length_sentence,
    recurrence_words,
    round_lines,
    standing_lines,
    status_words,
    terms_line,
    when_line,
)
from competitions.selectors.cup_record import cup_record
from competitions.selectors.cups import cup_page, cups_listed
from competitions.services.cups import cup_enter, cup_withdraw
from competitions.views.records import record_json_response, record_not_ready
from core.signed_out import login_required_htmx


@login_required_htmx
@require_GET
def cup_list(request: HttpRequest) -> HttpResponse:
    listed = cups_listed()
    sections = [
        ("open", _("Open to enter"), listed["open"]),
        ("running", _("Running"), listed["running"]),
        ("finished", _("Finished"), listed["finished"]),
    ]
    rows = [
        (key, heading, [(row, recurrence_words(row.event)) for row in rows])
        for key, heading, rows in sections
    ]
    return render(request, "competitions/cup_list.html", {"sections": rows})


@login_required_htmx
@require_GET
def cup_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league_notices_seen(event_id=pk, user_id=request.user.pk)  # its notices are read here
    return _detail(request, pk)


def _detail(request: HttpRequest, pk: int, *, status: int = 200) -> HttpResponse:
    """The cup's page (``status``: a refused POST's, shown with its words)."""
    page = cup_page(event_id=pk, user_id=request.user.pk)
    if page is None:
        raise Http404(_("There is no such cup."))
    event = page.event
    length = cup_length(
        rounds=event.rounds,
        deadline_days=event.deadline_days,
        spans=settings.PARLOUR_LEAGUE_TABLE_SPANS,
    )
    context = {
        "event": event,
        "status_words": status_words(event),
        "terms": terms_line(event),
        "when_line": when_line(event),
        "length": length_sentence(length),
        "ends_at": event.ends_at or (event.starts_at + length if event.starts_at else None),
        "gates": gates_line(event),
        "entries": entry_lines(page),
        "playing": sum(1 for e in page.entries if not e.withdrawn),
        "mine": page.mine,
        "rounds": round_lines(page, request.user.pk),
        "standings": standing_lines(page, request.user.pk),
    }
    return render(request, "competitions/cup_detail.html", context, status=status)


@login_required_htmx
@require_POST
def cup_enter_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        cup_enter(event_id=pk, user=request.user)
    except EntryRefused as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
        return _detail(request, pk, status=exc.status)
    messages.success(request, _("You are in the cup."))
    return redirect("cup_detail", pk=pk)


@login_required_htmx
@require_POST
def cup_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        left = cup_withdraw(event_id=pk, user_id=request.user.pk)
    except EntryRefused as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
        return _detail(request, pk, status=exc.status)
    if not left:
        messages.error(request, _("You are not in this cup."))
        return _detail(request, pk, status=409)
    messages.success(request, _("You have left the cup."))
    return redirect("cup_detail", pk=pk)


@login_required_htmx
@require_GET
def cup_record_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The cup's record once it has ended (every match over, so every match's record is
    whole); before that a 409 with words. ``?download=1`` offers it as a file."""
    event = Event.objects.filter(pk=pk, kind=Event.Kind.CUP).first()
    if event is None:
        raise Http404(_("There is no such cup."))
    if event.status != Event.Status.FINISHED:
        return record_not_ready(_("The cup's record is ready once the cup has ended."))
    filename = f"parlour-cup-{event.pk}.json"  # i18n: data
    return record_json_response(request, cup_record(event=event), filename)
