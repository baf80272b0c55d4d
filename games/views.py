"""Pages of the lobby and the table: parse input, call a service or selector, render.

HTMX requests get the ``#table`` partial of ``games/match.html``; everything else gets whole
pages, so every control also works without JavaScript.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from games import pages
from games.engines import ENGINE_NAMES
from games.forms import MatchNewForm, MoveForm
from games.models import Match
from games.selectors import (
    lobby_open_matches,
    match_seats,
    match_table_context,
    match_version,
    seat_for_user,
    seat_of,
    user_matches,
)
from games.services import Rejected, match_create, match_join, player_move_submit

TABLE_PARTIAL = "games/match.html#table"


def login_required_htmx(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` that sends an HTMX request's whole page to the login form."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                return HttpResponseClientRedirect(
                    f"{reverse(settings.LOGIN_URL)}?next={request.htmx.current_url_abs_path or '/'}"
                )
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"games": Match.Game.choices}
    if request.user.is_authenticated:
        context["my_matches"] = user_matches(user=request.user, limit=5)
    return render(request, "home.html", context)


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/lobby.html",
        {
            "open_matches": lobby_open_matches(user=request.user),
            "my_matches": user_matches(user=request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    initial = {"game": request.GET["game"]} if request.GET.get("game") in ENGINE_NAMES else {}
    form = MatchNewForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            match = match_create(
                game=form.cleaned_data["game"],
                num_players=form.cleaned_data["num_players"],
                created_by=request.user,
                options=form.engine_options(),
                bots=form.bots(),
                creator_plays=form.creator_plays(),
                deadline_days=form.cleaned_data.get("deadline_days"),
            )
        except Rejected as exc:
            form.add_error(None, exc.message)
        else:
            if match.status == Match.Status.WAITING:
                messages.success(request, "Match created: send the invite link to your friends.")
            else:
                messages.success(request, "Match created: every seat is taken, so it has begun.")
            return redirect("match_detail", pk=match.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/match_new.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def match_invite(request: HttpRequest, token: str) -> HttpResponse:
    match = get_object_or_404(Match, invite_token=token)
    if request.method == "POST":
        return _join(request, match)
    if seat_for_user(match=match, user=request.user) is not None:
        return redirect("match_detail", pk=match.pk)
    return render(request, "games/match_invite.html", match_table_context(match=match, seat=None))


@login_required
@require_POST
def match_join_open(request: HttpRequest, pk: int) -> HttpResponse:
    return _join(request, get_object_or_404(Match, pk=pk))


def _join(request: HttpRequest, match: Match) -> HttpResponse:
    try:
        seat = match_join(match=match, user=request.user)
    except Rejected as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"You sit at seat {seat.index + 1}.")
    return redirect("match_detail", pk=match.pk)


@login_required_htmx
@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    seats = match_seats(match_id=match.pk)
    context = match_table_context(match=match, seat=seat_of(seats, request.user), seats=seats)
    template = TABLE_PARTIAL if request.htmx else "games/match.html"
    return render(request, template, context)


@login_required_htmx
@require_GET
def match_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The poll: 204 while ``?version`` is current (one small query, no engine work)."""
    version = match_version(match_id=pk)
    if version is None:
        raise Http404
    if request.GET.get("version") == str(version):
        return HttpResponse(status=204)
    match = Match.objects.get(pk=pk)
    seats = match_seats(match_id=match.pk)
    context = match_table_context(match=match, seat=seat_of(seats, request.user), seats=seats)
    response = render(request, TABLE_PARTIAL, context)
    if match.status == Match.Status.FINISHED:
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
    if request.htmx:
        context = match_table_context(
            match=played.match, seat=played.seat, seats=played.seats, appended=played.entry
        )
        return render(request, TABLE_PARTIAL, context)
    return redirect("match_detail", pk=pk)


def _move_refused(request: HttpRequest, pk: int, message: str, status: int) -> HttpResponse:
    """The table as it stands now, with the refusal shown in it and a 4xx status."""
    match = get_object_or_404(Match, pk=pk)
    seats = match_seats(match_id=match.pk)
    context = match_table_context(match=match, seat=seat_of(seats, request.user), seats=seats)
    context["error"] = message
    template = TABLE_PARTIAL if request.htmx else "games/match.html"
    return render(request, template, context, status=status)


@require_GET
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in ENGINE_NAMES:
        raise Http404
    path = Path(settings.BASE_DIR) / "docs" / "rules" / f"{game}.md"
    if not path.is_file():
        raise Http404
    return render(
        request,
        "games/rules.html",
        {"title": Match.Game(game).label, "game": game, "body": pages.render_markdown(path)},
    )
