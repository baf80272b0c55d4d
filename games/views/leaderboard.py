"""``/leaderboard/<game>/?page=``: a game's ratings, people and bot levels in one ranking
(docs/ratings.md, The leaderboard). An unknown game is a 404."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.engines import get_engine
from games.filters import page_number
from games.presentation.leaderboard import board_lines, own_line
from games.selectors.ratings import (
    LEADERBOARD_MIN_MATCHES,
    LEADERBOARD_RECENT_DAYS,
    leaderboard_own_standing,
)
from games.selectors.ratings import (
    leaderboard as leaderboard_page,
)
from games.skill import PROVISIONAL_BELOW


@login_required
@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        title = get_engine(game).title
    except KeyError:
        raise Http404("There is no such game.") from None
    page = leaderboard_page(game=game, page=page_number(request.GET.get("page")))
    page.object_list = board_lines(page.object_list)
    # Always read (one statement), so the page costs the same whoever asks.
    standing = leaderboard_own_standing(game=game, user=request.user)
    you = None
    if standing is not None:
        you = own_line(
            standing,
            username=request.user.get_username(),
            title=title,
            recent_days=LEADERBOARD_RECENT_DAYS,
        )
    return render(
        request,
        "games/leaderboard.html",
        {
            "game": game,
            "title": title,
            "page": page,
            "min_matches": LEADERBOARD_MIN_MATCHES,
            "recent_days": LEADERBOARD_RECENT_DAYS,
            "provisional_below": PROVISIONAL_BELOW,
            "own_line": you,
        },
    )
