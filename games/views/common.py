"""What every games page shares: the sign-in gate that knows htmx, and the visible match."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from games.models import Match, Seat
from games.selectors import match_seats, match_visible
from games.selectors.invitations import invited_to


def login_required_htmx(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` that sends an HTMX request's whole page to the login form."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                return HttpResponseClientRedirect(
                    f"{reverse(settings.LOGIN_URL)}?next={quote(_came_from(request), safe='/')}"
                )
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def _came_from(request: HttpRequest) -> str:
    """The page an htmx request came from (its ``HX-Current-URL``), as a path on this site; "/"
    when the header is missing or malformed (``http://[::1`` makes URL parsing raise)."""
    try:
        path = request.htmx.current_url_abs_path or "/"
    except ValueError:
        return "/"
    return path if path.startswith("/") and not path.startswith("//") else "/"


def visible_match(request: HttpRequest, pk: int) -> tuple[Match, list[Seat]]:
    """The match and its seats, or a 404 when there is none or ``request.user`` may not see
    it (a private match of others): the first step of every page about one match."""
    match = get_object_or_404(Match, pk=pk)
    seats = match_seats(match_id=match.pk)
    # A person invited to a forming match is one of its members (docs/invitations.md).
    if not match_visible(match=match, seats=seats, user=request.user) and not (
        request.user.is_authenticated and invited_to(match_id=pk, user_id=request.user.pk)
    ):
        raise Http404("No such match.")
    return match, seats
