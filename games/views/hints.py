"""A seated person turns their hints at a table on or off (docs/lessons.md, "The first match,
with hints"): a plain form that redirects to the table, or htmx that swaps the table in."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from games.selectors import seat_of
from games.services import Rejected
from games.services.hints import seat_hints_set
from games.views.common import login_required_htmx, visible_match
from games.views.table import table_after_post

CHOICES = {"on": True, "off": False}


@login_required_htmx
@require_POST
def match_hints(request: HttpRequest, pk: int) -> HttpResponse:
    """Set the posted ``hints`` (``on`` or ``off``), or show the table with the refusal
    (nothing changed): a watcher's is a 403, and a private match of others a 404, as
    everywhere. The service checks the seat again under its own read."""
    _, seats = visible_match(request, pk)
    choice = request.POST.get("hints")
    error, status = "", 200
    if seat_of(seats, request.user) is None:
        error, status = "You do not have a seat at this table.", 403
    elif choice not in CHOICES:
        error, status = "Hints are turned on or off.", 400
    else:
        try:
            seat_hints_set(match_id=pk, user=request.user, on=CHOICES[choice])
        except Rejected as exc:
            error, status = exc.message, exc.status
    return table_after_post(request, pk, error, status)
