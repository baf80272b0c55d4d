"""A match's table: the page, its poll and the moves made on it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from accounts.selectors.play_settings import play_choices
from games.forms import MoveForm
from games.models import Match, Seat
from games.presentation.table import table_page
from games.selectors import TableData, match_seats, match_table, match_with_seats, seat_of
from games.selectors.access import match_poll_marks
from games.services import Rejected, player_move_submit
from games.services.notifications import seen_due, seen_mark
from games.views.common import login_required_htmx, visible_match
from games.views.invitations import invitations_context
from games.views.shared_table import watcher_shareable, watcher_table, watcher_table_key

TABLE_PARTIAL = "games/match.html#table"


@login_required_htmx
@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match, seats = visible_match(request, pk)
    _seen(request, match, seats)
    context = table_page(_table(request, match, seats))
    _beside(context, request, match, seats)
    if not request.htmx and seat_of(seats, request.user) is not None:
        # The seat's play settings ride in the page (data- attributes), so the move POST
        # reads nothing more (one query, on the whole page only).
        context["play"] = play_choices(request.user.pk)
    template = TABLE_PARTIAL if request.htmx else "games/match.html"
    return render(request, template, context)


def _table(request: HttpRequest, match: Match, seats: list[Seat]) -> TableData:
    """The table for the person asking, seated or not."""
    return match_table(
        match=match, seat=seat_of(seats, request.user), seats=seats, viewer_id=request.user.pk
    )


@login_required_htmx
@require_GET
def match_table_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """The poll: 204 while ``?version`` and ``?phrases`` (the match's shown mark, raised by a
    phrase or a holiday, never by a move: docs/live.md; left out while 0, so missing means 0)
    are current (one small query, no engine work). A move's answer asks ``phrases=-1`` of a
    table whose mark is not 0, so its next poll brings the phrases said meanwhile."""
    found = match_poll_marks(match_id=pk, user=request.user)
    if found is None:
        raise Http404
    version, said = str(found.version), str(found.said)
    if request.GET.get("version") == version and request.GET.get("phrases", "0") == said:
        return HttpResponse(status=204)
    if found.member:
        match, seats = match_with_seats(match_id=pk)
        return _poll_answer(match, _poll_render(request, match, seats, found.seen_at))
    match = Match.objects.get(pk=pk)
    content = watcher_fragment(request, match)
    if content is not None:
        return _poll_answer(match, HttpResponse(content))
    seats = match_seats(match_id=pk)
    return _poll_answer(match, _poll_render(request, match, seats, found.seen_at))


def watcher_fragment(request: HttpRequest, match: Match) -> bytes | None:
    """The table partial every watcher of ``match`` shares (games/views/shared_table.py), for
    ``request``'s reader, who is no member of it (the caller found so): rendered once a version
    and kept; ``None`` where it is not shared (a private or forming match, the reader seated
    after all): the caller renders the reader's own. The poll serves it, and a watcher's stream
    carries it (games/live/watch.py)."""
    if not watcher_shareable(match, request.user):
        return None
    key = watcher_table_key(match, request.user.pk)
    return watcher_table(key, lambda: _watcher_render(request, match))


def _poll_render(
    request: HttpRequest, match: Match, seats: list[Seat], seen_at: datetime | None
) -> HttpResponse:
    """The poll's partial for the person asking, as their own; their seen mark (last written
    at ``seen_at``) only where it would change what it decides (``seen_due``)."""
    if seen_due(match, seat_of(seats, request.user), seen_at):
        seen_mark(user_id=request.user.pk, match_id=match.pk)
    context = table_page(_table(request, match, seats))
    _beside(context, request, match, seats)
    return render(request, TABLE_PARTIAL, context)


def _watcher_render(request: HttpRequest, match: Match) -> bytes | None:
    """The watchers' partial, rendered for this reader as a spectator; ``None`` when the seats
    read now show them seated after all (their own table is rendered instead)."""
    seats = match_seats(match_id=match.pk)
    if seat_of(seats, request.user) is not None:
        return None
    context = table_page(
        match_table(match=match, seat=None, seats=seats, viewer_id=request.user.pk)
    )
    _beside(context, request, match, seats)
    # Always swapped into an open page (a poll's answer, a stream's event): the parts beside
    # the table ride along, whoever asked first (a stream's request is no htmx request).
    context["beside_oob"] = True
    return render(request, TABLE_PARTIAL, context).content


def _poll_answer(match: Match, response: HttpResponse) -> HttpResponse:
    """A finished or cancelled table's answer stops the page's polling."""
    if match.status in (Match.Status.FINISHED, Match.Status.CANCELLED):
        return HttpResponseStopPolling(response.content)
    return response


@login_required_htmx
@require_POST
def match_move(request: HttpRequest, pk: int) -> HttpResponse:
    """A seat's move. The service finds the person's seat in the same locked read that checks
    the match, and the answer carries only the new lines of the log (the page has the rest),
    so the request costs the same few queries at every ply."""
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _move_refused(request, pk, "That move could not be read.", 400)
    try:
        played = player_move_submit(
            match_id=pk,
            user=request.user,
            move=form.cleaned_data["move"],
            expected_version=form.cleaned_data["version"],
        )
    except Rejected as exc:
        return _move_refused(request, pk, exc.message, exc.status)
    if played.match.status == Match.Status.FINISHED:
        # The mover's answer shows the end: the finished match is not a notice for them (one
        # upsert, on the last move only).
        seen_mark(user_id=request.user.pk, match_id=pk)
    if request.htmx:
        data = match_table(
            match=played.match, seat=played.seat, seats=played.seats, appended=played.entry
        )
        context = table_page(data)
        if played.match.status == Match.Status.FINISHED:
            # The last move's answer shows "Play again" and the header's "Replay" too (one
            # query, on the last move only; every other move keeps its 8 statements).
            _beside(context, request, played.match, played.seats)
        return render(request, TABLE_PARTIAL, context)
    return redirect("match_detail", pk=pk)


def table_after_post(request: HttpRequest, pk: int, error: str, status: int) -> HttpResponse:
    """The answer to a seat's small POST at the table (a phrase, hints): done without htmx,
    back to the table; otherwise the table as it now stands, with the refusal if any."""
    if not error and not request.htmx:
        return redirect("match_detail", pk=pk)
    match, seats = visible_match(request, pk)
    context = table_page(_table(request, match, seats))
    if error:
        context["error"] = error
    template = TABLE_PARTIAL if request.htmx else "games/match.html"
    return render(request, template, context, status=status)


def _beside(context: dict[str, Any], request: HttpRequest, match: Match, seats: list[Seat]) -> None:
    """What the page shows outside ``#table`` (the header's links, the invitations, "Seat a
    bot", "Play again"): the whole page renders it in place, and a partial (a poll's or
    event's fetch, a move's answer) carries it out-of-band (``beside_oob``), from the same
    render, so every part of the page follows the match (docs/live.md). What the reader sees
    there is decided as for the whole page (``invitations_context``)."""
    context.update(invitations_context(match, seats, request.user.pk))
    context["beside_oob"] = bool(request.htmx)


def _seen(request: HttpRequest, match: Match, seats: list[Seat]) -> None:
    """The table is served to this person in full: their turn mail is not needed, and a
    finished match leaves their notices (one upsert, for a seated person at a running or
    finished match; never on the 204 poll)."""
    seen_statuses = (Match.Status.ACTIVE, Match.Status.FINISHED)
    if match.status in seen_statuses and seat_of(seats, request.user) is not None:
        seen_mark(user_id=request.user.pk, match_id=match.pk)


def _move_refused(request: HttpRequest, pk: int, message: str, status: int) -> HttpResponse:
    """The table as it stands now, with the refusal shown in it and a 4xx status."""
    match, seats = visible_match(request, pk)
    context = table_page(_table(request, match, seats))
    context["error"] = message
    _beside(context, request, match, seats)
    if request.htmx:
        return render(request, TABLE_PARTIAL, context, status=status)
    if seat_of(seats, request.user) is not None:
        context["play"] = play_choices(request.user.pk)
    return render(request, "games/match.html", context, status=status)
