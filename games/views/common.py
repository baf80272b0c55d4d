"""What every games page shares: the sign-in gate that knows htmx (``core/signed_out.py``: a
worded 401 for a signed-out htmx request), and the visible match."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from core.signed_out import login_required_htmx
from games.models import Match, Seat
from games.selectors import match_seats, match_visible
from games.selectors.invitations import invited_to

__all__ = ["login_required_htmx", "visible_match"]


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
