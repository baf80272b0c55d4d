"""The home page, the lobby, creating a match and taking a seat."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engines import registered
from games.filters import page_number
from games.forms import CHALLENGE, MatchNewForm
from games.models import Match
from games.presentation.lessons import learn_games
from games.presentation.results import listing_lines
from games.presentation.table import table_page
from games.selectors import (
    lobby_open_matches,
    lobby_watchable_matches,
    match_seats,
    match_table,
    match_visible,
    seat_of,
    user_matches,
    user_matches_page,
)
from games.selectors.invitations import challenge_candidates, invited_to
from games.selectors.lessons import lesson_stars_of
from games.services import Rejected, match_create, match_join
from games.services.invitations import match_challenge_create
from games.views.common import visible_match


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"learn_games": learn_games(lesson_stars_of(user_id=request.user.pk))}
    if request.user.is_authenticated:
        context["my_matches"] = listing_lines(
            user_matches(user=request.user, limit=5), request.user.pk
        )
    return render(request, "home.html", context)


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    mine = user_matches_page(user=request.user, page=page_number(request.GET.get("page")))
    mine.object_list = listing_lines(mine.object_list, request.user.pk)
    return render(
        request,
        "games/lobby.html",
        {
            "open_matches": listing_lines(lobby_open_matches(user=request.user), request.user.pk),
            "watchable_matches": listing_lines(
                lobby_watchable_matches(user=request.user), request.user.pk
            ),
            "my_matches": mine,
        },
    )


# ``next=`` of a new-match form posted after the session ended: the page that signs in leads
# back to the form, which ``static/js/match_new.js`` fills again from what it kept.
KEPT_FORM = "kept=1"


@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # Signed out (elsewhere, or the session ran out) while filling the form: nothing is
        # created, and signing in comes back to the form as it was filled (docs/accounts.md,
        # "Signed out").
        back = f"{request.path}?{KEPT_FORM}" if request.method == "POST" else None
        return redirect_to_login(back or request.get_full_path())
    games = {e.name for e in registered()}
    initial: dict[str, Any] = {}
    if request.GET.get("game") in games:
        initial["game"] = request.GET["game"]
    challenge = request.GET.get("challenge")
    if isinstance(challenge, str) and 0 < len(challenge) <= 150:
        # The profile's Challenge button: seat 2 is that person's (docs/invitations.md).
        initial.update({"seat_1": CHALLENGE, "challenge_1": challenge})
    form = MatchNewForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            match = _create(request, form)
        except Rejected as exc:
            form.add_error(None, exc.message)
        else:
            if match.status != Match.Status.WAITING:
                messages.success(request, _("Match created: every seat is taken, so it has begun."))
            elif form.challenged_names():
                messages.success(request, _("Match created: the people you challenged are asked."))
            else:
                messages.success(request, _("Match created: send the invite link to your friends."))
            return redirect("match_detail", pk=match.pk)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "candidates": challenge_candidates(request.user.pk)}
    return render(request, "games/match_new.html", context, status=status)


def _create(request: HttpRequest, form: MatchNewForm) -> Match:
    fields: dict[str, Any] = {
        "game": form.cleaned_data["game"],
        "num_players": form.cleaned_data["num_players"],
        "options": form.engine_options(),
        "bots": form.bots(),
        "creator_plays": form.creator_plays(),
        "deadline_days": form.cleaned_data.get("deadline_days"),
        "holidays": not form.cleaned_data.get("refuse_holidays"),
        "public": form.public(),
        "phrases_watchers": bool(form.cleaned_data.get("phrases_watchers")),
        "hints": bool(form.cleaned_data.get("hints")),
    }
    names = form.challenged_names()
    if not names:
        return match_create(created_by=request.user, **fields)
    found = {
        u.get_username(): u
        for u in get_user_model().objects.filter(username__in=names.values(), is_active=True)
    }
    missing = sorted(set(names.values()) - set(found))
    if missing:
        raise Rejected(f"There is no player named {missing[0]}.", status=400)
    challenges = {index: found[name] for index, name in names.items()}
    return match_challenge_create(created_by=request.user, challenges=challenges, **fields)


@login_required
@require_http_methods(["GET", "POST"])
def match_invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: whoever holds it may see the waiting table and sit down, private or
    not (the link is the invitation)."""
    match = get_object_or_404(Match, invite_token=token)
    if request.method == "POST":
        # A refused seat comes back here (the page says why) rather than to the table, which
        # a private match's non-member may not see.
        return _join(request, match, refused_to=request.path)
    seats = match_seats(match_id=match.pk)
    if seat_of(seats, request.user) is not None:
        return redirect("match_detail", pk=match.pk)
    data = match_table(match=match, seat=None, seats=seats, creator=True, viewer_id=request.user.pk)
    context = table_page(data)
    # Only a link that answers: the table is offered to those who may see it.
    context["may_watch"] = match_visible(match=match, seats=seats, user=request.user)
    return render(request, "games/match_invite.html", context)


@login_required
@require_POST
def match_join_open(request: HttpRequest, pk: int) -> HttpResponse:
    """Taking a seat from the lobby: public matches only (a private one is joined by its
    invite link, or by the person invited to a seat, and is a 404 to everyone else)."""
    match, _ = visible_match(request, pk)
    if (
        not match.public
        and match.created_by_id != request.user.pk
        and not invited_to(match_id=match.pk, user_id=request.user.pk)  # taking it accepts
    ):
        raise Http404("No such match.")
    return _join(request, match)


def _join(request: HttpRequest, match: Match, *, refused_to: str | None = None) -> HttpResponse:
    """Take a seat, then the table; a refusal goes to ``refused_to`` when given."""
    try:
        seat = match_join(match=match, user=request.user)
    except Rejected as exc:
        messages.error(request, exc.message)
        if refused_to is not None:
            return redirect(refused_to)
    else:
        messages.success(request, _("You sit at seat %(seat)d.") % {"seat": seat.index + 1})
    return redirect("match_detail", pk=match.pk)
