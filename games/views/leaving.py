"""Leaving a match: resign one in play, cancel a waiting one, leave a waiting table. Each has a
confirmation page (GET) saying what will happen, whose form (POST) does it: a plain form, or
htmx, which then follows the answer's redirect."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from games import services
from games.models import Match, Seat
from games.presentation.leaving import CANCEL, LEAVE, RESIGN, confirm_words
from games.presentation.names import seat_names
from games.selectors.facts import match_facts, seat_facts
from games.selectors.leaving import leave_options
from games.services import Rejected
from games.views.common import login_required_htmx, visible_match

CONFIRM_PAGE = "games/leave_confirm.html"
CONFIRM_PARTIAL = "games/leave_confirm.html#confirm"


def _resign(pk: int, request: HttpRequest) -> tuple[str, str]:
    done = services.match_resign(match_id=pk, user=request.user)
    if done.ended:
        return _("You resigned, and the match is over."), reverse("match_detail", args=[pk])
    return _("You resigned: the greedy bot plays your seat now."), reverse(
        "match_detail", args=[pk]
    )


def _cancel(pk: int, request: HttpRequest) -> tuple[str, str]:
    services.match_cancel(match_id=pk, user=request.user)
    return _("The match is cancelled."), reverse("match_detail", args=[pk])


def _leave(pk: int, request: HttpRequest) -> tuple[str, str]:
    services.match_leave(match_id=pk, user=request.user)
    # A private match is its members' only: the lobby, not a table that is now a 404.
    return _("You left the table; your seat is free again."), reverse("lobby")


DOERS: dict[str, Callable[[int, HttpRequest], tuple[str, str]]] = {
    RESIGN: _resign,
    CANCEL: _cancel,
    LEAVE: _leave,
}


def _confirm(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    match, seats = visible_match(request, pk)
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            refusal = _("Confirm with this page's button.")
            return _page(request, match, seats, action, refusal, 400)
        try:
            message, target = DOERS[action](pk, request)
        except Rejected as exc:
            return _page(request, match, seats, action, exc.message, exc.status)
        messages.success(request, message)
        if request.htmx:
            return HttpResponseClientRedirect(target)
        return redirect(target)
    return _page(request, match, seats, action, "", 200)


def _page(
    request: HttpRequest, match: Match, seats: list[Seat], action: str, error: str, status: int
) -> HttpResponse:
    """The confirmation page (its form alone for htmx), as the match now stands."""
    options = leave_options(match=match, seats=seats, user_id=request.user.pk)
    names = seat_names(match.num_players, seat_facts(seats))
    context = {
        "match": match_facts(match),
        "confirm": confirm_words(action, options, names),
        "error": error,
    }
    template = CONFIRM_PARTIAL if request.htmx else CONFIRM_PAGE
    return render(request, template, context, status=status)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def match_resign(request: HttpRequest, pk: int) -> HttpResponse:
    return _confirm(request, pk, RESIGN)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def match_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _confirm(request, pk, CANCEL)


@login_required_htmx
@require_http_methods(["GET", "POST"])
def match_leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _confirm(request, pk, LEAVE)
