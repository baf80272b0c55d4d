"""A seated person says a preset phrase at the table (docs/phrases.md): a plain form that
redirects to the table, or htmx that swaps the table in with the phrase in its log."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from games.forms import PhraseForm
from games.services import Rejected
from games.services.phrases import phrase_say
from games.views.common import login_required_htmx, visible_match
from games.views.table import table_after_post


@login_required_htmx
@require_POST
def match_phrase(request: HttpRequest, pk: int) -> HttpResponse:
    """Say the posted phrase, or show the table with the refusal (nothing said). A private
    match of others is a 404, as everywhere."""
    visible_match(request, pk)
    form = PhraseForm(request.POST)
    error, status = "", 200
    if not form.is_valid():
        error, status = "Pick one of the table's phrases.", 400
    else:
        try:
            phrase_say(match_id=pk, user=request.user, key=form.cleaned_data["phrase"])
        except Rejected as exc:
            error, status = exc.message, exc.status
    return table_after_post(request, pk, error, status)
