"""Play now (docs/quick-match.md): the form, and the answer of where it seated the person."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.engines import registered
from games.forms import QuickMatchForm
from games.models import Match
from games.services import Rejected
from games.services.quick import ALREADY, OPENED, QuickSeat, quick_match_play


@login_required
@require_http_methods(["GET", "POST"])
def play_now(request: HttpRequest) -> HttpResponse:
    initial: dict[str, Any] = {}
    if request.GET.get("game") in {e.name for e in registered()}:
        initial["game"] = request.GET["game"]  # a game card's Play now link
    form = QuickMatchForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            placed = quick_match_play(
                user=request.user,
                choice=form.choice(),
                bot_fill_hours=form.cleaned_data.get("bot_fill_hours"),
            )
        except Rejected as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _placed_words(placed))
            return redirect("match_detail", pk=placed.match.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/play_now.html", {"form": form}, status=status)


def _placed_words(placed: QuickSeat) -> str:
    if placed.how == ALREADY:
        return "You are waiting at this table already: cancel it to look for another."
    if placed.how == OPENED:
        return (
            "No waiting table fits yet, so this one is open for others to find: "
            "the match begins when every seat is taken."
        )
    if placed.match.status == Match.Status.ACTIVE:
        return "You took the last seat at a waiting table: the match has begun."
    return "You sit at a waiting table: the match begins when every seat is taken."
