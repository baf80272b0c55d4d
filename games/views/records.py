"""A match's record as JSON (``docs/records.md``): ``/matches/<id>/record.json``."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from games.models import Match
from games.presentation.names import record_seat_names
from games.selectors import seat_of
from games.selectors.facts import seat_facts
from games.selectors.records import match_record
from games.views.common import login_required_htmx, visible_match


@login_required_htmx
@require_GET
def match_record_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The record for the person asking: the whole record once the match is over, their
    seat's (or a spectator's) version while it runs; a private match of others is a 404.
    ``?download=1`` offers it as a file."""
    match, seats = visible_match(request, pk)
    names = record_seat_names(match.num_players, seat_facts(seats))
    record = match_record(
        match=match, seats=seats, names=names, viewer_seat=seat_of(seats, request.user)
    )
    body = json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    response = HttpResponse(body.encode("utf-8"), content_type="application/json")
    if match.status == Match.Status.FINISHED:
        response["Cache-Control"] = "private"
    else:
        # Running: the record changes with every move and belongs to the person asking.
        response["Cache-Control"] = "private, no-store"
    if request.GET.get("download") == "1":
        filename = f"parlour-{match.game}-{match.pk}.json"
        response["Content-Disposition"] = f"attachment; filename={filename}"
    return response
