"""The ladder's pages (docs/competitions.md, "Ladder"): ``/ladder/<game>/`` (the places, open
challenges, the reader's own and the latest changes), its history, and the posts that join,
leave, challenge and withdraw: plain forms that come back to the page, or htmx swapping the
page's body in place. Answering a challenge is the games' invitation (the notices page, the
match's table or this page's buttons, which post there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from competitions.ladder_record import ladder_record
from competitions.presentation.ladder import event_line, ladder_words
from competitions.selectors.ladder import ladder_data, ladder_history
from competitions.services.ladder import (
    ladder_challenge,
    ladder_join,
    ladder_leave,
    ladder_notices_seen,
    ladder_withdraw,
)
from competitions.views.records import record_json_response
from core.signed_out import login_required_htmx
from games.engines import get_engine, registered
from games.services import Rejected

PAGE = "competitions/ladder.html"
T = TypeVar("T")


@login_required_htmx
@require_GET
def ladder_index(request: HttpRequest) -> HttpResponse:
    """``/ladder/``: the first game's ladder (the page links the others)."""
    return redirect("ladder", game=registered()[0].name)


@login_required_htmx
@require_GET
def ladder_page(request: HttpRequest, game: str) -> HttpResponse:
    _title(game)
    ladder_notices_seen(game=game, user_id=request.user.pk)  # its notices are read here
    return _page(request, game)


@login_required_htmx
@require_GET
def ladder_record_json(request: HttpRequest, game: str) -> HttpResponse:
    """``/ladder/<game>/record.json``: the ladder's history with each result's match record
    (finished matches only), language-free; ``?download=1`` offers it as a file."""
    _title(game)
    filename = f"parlour-ladder-{game}.json"  # i18n: data
    return record_json_response(request, ladder_record(game=game), filename)


@login_required_htmx
@require_GET
def ladder_history_page(request: HttpRequest, game: str) -> HttpResponse:
    title = _title(game)
    mine = request.GET.get("mine") == "1"
    events = ladder_history(game=game, user_id=request.user.pk if mine else None)
    lines = [event_line(e, request.user.pk) for e in events]
    context = {"game": game, "title": title, "events": lines, "mine": mine}
    return render(request, "competitions/ladder_history.html", context)


@login_required_htmx
@require_POST
def ladder_join_post(request: HttpRequest, game: str) -> HttpResponse:
    _title(game)
    return _act(request, game, lambda: ladder_join(game=game, user=request.user), _joined)


@login_required_htmx
@require_POST
def ladder_leave_post(request: HttpRequest, game: str) -> HttpResponse:
    _title(game)

    def leave() -> bool:
        return ladder_leave(game=game, user=request.user)

    return _act(request, game, leave, lambda left: str(_LEFT if left else _NOT_ON))


@login_required_htmx
@require_POST
def ladder_challenge_post(request: HttpRequest, game: str) -> HttpResponse:
    _title(game)
    name = request.POST.get("username", "")
    if not name.strip() or len(name) > 150 or "\x00" in name:  # PostgreSQL refuses a NUL
        return _page(request, game, error=_("Name the person to challenge."), status=400)

    def challenge() -> object:
        return ladder_challenge(game=game, challenger=request.user, target_name=name.strip())

    return _act(request, game, challenge, lambda _done: str(_CHALLENGED) % {"name": name.strip()})


@login_required_htmx
@require_POST
def ladder_withdraw_post(request: HttpRequest, game: str, challenge_id: int) -> HttpResponse:
    _title(game)

    def withdraw() -> object:
        return ladder_withdraw(challenge_id=challenge_id, user=request.user)

    return _act(request, game, withdraw, lambda _done: str(_WITHDRAWN))


# Worded when said, in the reader's language.
_LEFT = gettext_lazy("You left the ladder; everyone below you moved up one.")
_NOT_ON = gettext_lazy("You were not on this ladder.")
_CHALLENGED = gettext_lazy(
    "You challenged %(name)s: they have a few days to accept, and then move first."
)
_WITHDRAWN = gettext_lazy("You withdrew the challenge; its match is cancelled.")


def _joined(rung: object) -> str:
    return _("You are on the ladder, at place %(place)s.") % {
        "place": getattr(rung, "position", "?")
    }


def _act(
    request: HttpRequest, game: str, do: Callable[[], T], said: Callable[[T], str]
) -> HttpResponse:
    try:
        done = do()
    except Rejected as exc:
        if exc.status in (403, 404) and not request.htmx:
            raise Http404(exc.message) from None
        return _page(request, game, error=exc.message, status=exc.status)
    if request.htmx:
        return _page(request, game, notice=said(done))
    messages.success(request, said(done))
    return redirect("ladder", game=game)


def _page(
    request: HttpRequest, game: str, *, error: str = "", notice: str = "", status: int = 200
) -> HttpResponse:
    title = _title(game)
    words = ladder_words(
        ladder_data(game=game, viewer_id=request.user.pk),
        answer_days=float(settings.PARLOUR_LADDER_ANSWER_DAYS),
        deadline_days=settings.PARLOUR_LADDER_DEADLINE_DAYS,
    )
    context = {"game": game, "title": title, "ladder": words, "error": error, "notice": notice}
    template = f"{PAGE}#body" if request.htmx else PAGE
    return render(request, template, context, status=status)


def _title(game: str) -> str:
    try:
        return get_engine(game).title
    except KeyError:
        raise Http404(_("There is no such game.")) from None
