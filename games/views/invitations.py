"""Answering an invitation (a challenge or a rematch offer) and offering to play again
(docs/invitations.md). Plain forms, or htmx, which then follows the answer's redirect; a
refusal says why on a page of its own (its status the refusal's) and changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.errors import AccountRefused
from accounts.services.relations import block_add
from games.models import Invitation, Match, Seat
from games.presentation.invitations import invitation_lines
from games.presentation.names import bot_level_choices
from games.selectors.invitations import match_invitations, rematch_of
from games.services import Rejected
from games.services.invitations import (
    invitation_accept,
    invitation_decline,
    rematch_offer,
    seat_bot_add,
)
from games.views.common import login_required_htmx, visible_match

REFUSED_PAGE = "games/invitation_refused.html"


def invitations_context(match: Match, seats: list[Seat], reader_id: int) -> dict[str, Any]:
    """What the match page shows beside its table: a forming match's invitations (with the
    reader's Accept / Decline / Block) and, to its creator, the free seats a bot may take; a
    finished one's "Play again" for its seated people (one query either way, none otherwise)."""
    if match.status == Match.Status.WAITING:
        items = match_invitations(match.pk)
        # Who is invited is the match's members' business (its creator, its seats, the people
        # invited): anyone else watching a public forming match reads "An invited player".
        member = (
            match.created_by_id == reader_id
            or any(s.user_id == reader_id for s in seats)
            or any(i.user_id == reader_id for i in items)
        )
        lines = invitation_lines(items, reader_id, named=member)
        context: dict[str, Any] = {
            "invitations": lines,
            "invitations_inviter": match.created_by_id == reader_id,
        }
        if match.created_by_id == reader_id:
            taken = {s.index for s in seats}
            held = {i.seat_index for i in items if i.status == Invitation.Status.PENDING}
            free = [i for i in range(match.num_players) if i not in taken | held]
            if free:
                context["bot_seats"] = [i + 1 for i in free]
                context["bot_levels"] = bot_level_choices()
        return context
    if match.status == Match.Status.FINISHED and any(s.user_id == reader_id for s in seats):
        return {"rematch_offer": True, "rematch": rematch_of(match.pk, reader_id)}
    return {}


def _go(request: HttpRequest, message: str, target: str) -> HttpResponse:
    messages.success(request, message)
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    template = f"{REFUSED_PAGE}#refused" if request.htmx else REFUSED_PAGE
    return render(request, template, {"error": message}, status=status)


@login_required_htmx
@require_POST
def invitation_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        answered = invitation_accept(invitation_id=pk, user=request.user)
    except Rejected as exc:
        return _refused(request, exc.message, exc.status)
    words = _("The match has begun.") if answered.started else _("You took your seat.")
    return _go(request, words, reverse("match_detail", args=[answered.match_id]))


@login_required_htmx
@require_POST
def invitation_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        invitation_decline(invitation_id=pk, user=request.user)
    except Rejected as exc:
        return _refused(request, exc.message, exc.status)
    return _go(request, _("You declined the invitation."), reverse("lobby"))


@login_required_htmx
@require_POST
def invitation_block_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Decline by blocking the inviter (``block_add``; its listener declines every
    invitation pending between the two)."""
    found = Invitation.objects.filter(pk=pk, user_id=request.user.pk).first()
    if found is None:
        return _refused(request, _("There is no such invitation for you."), 404)
    if found.status != Invitation.Status.PENDING:
        return _refused(request, _("This invitation was already answered."), 409)
    try:
        block_add(blocker_id=request.user.pk, blocked_id=found.invited_by_id)
    except AccountRefused as exc:
        return _refused(request, exc.message, exc.status)
    return _go(request, _("Declined, and you blocked the inviter."), reverse("lobby"))


@login_required_htmx
@require_POST
def match_rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Play again" on a finished table (a 404 to whoever may not see the match)."""
    visible_match(request, pk)
    try:
        answered = rematch_offer(match_id=pk, user=request.user)
    except Rejected as exc:
        return _refused(request, exc.message, exc.status)
    words = (
        _("The rematch has begun.")
        if answered.started
        else _("Rematch offered: the table waits for the others' answers.")
    )
    return _go(request, words, reverse("match_detail", args=[answered.match_id]))


@login_required_htmx
@require_POST
def match_seat_bot(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator of a waiting match seats a bot in a free seat (``seat``, counted from 1, and
    ``level``); a 404 to whoever may not see the match."""
    visible_match(request, pk)
    seat = request.POST.get("seat", "")
    if not (seat.isascii() and seat.isdigit() and 0 < len(seat) < 4):
        return _refused(request, _("Pick one of the free seats."), 400)
    try:
        answered = seat_bot_add(
            match_id=pk,
            user=request.user,
            seat_index=int(seat) - 1,
            level=request.POST.get("level", ""),
        )
    except Rejected as exc:
        return _refused(request, exc.message, exc.status)
    words = _("The match has begun.") if answered.started else _("A bot took the seat.")
    return _go(request, words, reverse("match_detail", args=[answered.match_id]))
