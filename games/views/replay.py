"""The replay viewer: ``/matches/<id>/replay/?ply=N&as=P``, read-only.

A whole page carries the move list and the autoplay controls around one frame; htmx requests
(each control, move-list line and key press) get only the frame, and push its URL, so any
position can be shared. Every control is also a plain link.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from games.models import Match
from games.presentation.analysis import mark_of, marks_attach
from games.presentation.names import seat_names
from games.presentation.replay import perspective_choices, replay_frame_words, replay_rounds
from games.selectors import seat_of
from games.selectors.analysis import analysis_decision_at, analysis_of
from games.selectors.facts import match_facts, seat_facts
from games.selectors.phrases import SaidPhrase, phrases_visible
from games.selectors.replay import PUBLIC, replay_frame, replay_log, replay_perspectives
from games.views.analysis import analysis_context
from games.views.common import login_required_htmx, visible_match
from games.views.shared_table import watcher_frame_key, watcher_shareable, watcher_table

FRAME_PARTIAL = "games/replay.html#frame"


@login_required_htmx
@require_GET
def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    match, seats = visible_match(request, pk)
    if match.status == Match.Status.CANCELLED:
        messages.info(request, _("There is nothing to replay: the match was cancelled."))
        return redirect("match_detail", pk=match.pk)
    if match.status == Match.Status.WAITING:
        messages.info(request, _("There is nothing to replay until the match begins."))
        return redirect("match_detail", pk=match.pk)
    viewer = seat_of(seats, request.user)
    allowed = replay_perspectives(match=match, viewer=viewer)
    wanted = request.GET.get("as")
    perspective = next((p for p in allowed if p.key == wanted), None)
    if wanted is not None and perspective is None:
        return _refused(
            request,
            match,
            "While the match is in play, you can replay it only as you saw it; every hand is "
            "shown once it is over.",
            status=403,
        )
    perspective = perspective or allowed[0]
    raw_ply = request.GET.get("ply")
    if raw_ply is None:
        ply = match.ply
    else:
        try:
            ply = int(raw_ply)
        except ValueError:
            return _refused(request, match, "A position is a move number, such as ?ply=12.", 400)
        ply = max(0, min(ply, match.ply))
    names = seat_names(match.num_players, seat_facts(seats))
    analysis = analysis_of(match)
    viewer_index = None if viewer is None else viewer.index

    def frame_context() -> dict[str, Any]:
        frame = replay_frame_words(
            replay_frame(match=match, seats=seats, ply=ply, perspective=perspective)
        )
        decision = analysis_decision_at(analysis=analysis, ply=ply)
        return {
            "match": match_facts(match),
            "frame": frame,
            "perspectives": perspective_choices(allowed, names),
            "frame_mark": None if decision is None else mark_of(decision, names, viewer_index),
        }

    if request.htmx:
        # The frame's own address, clamped, goes in the location bar: shareable as it stands.
        url = f"{reverse('match_replay', args=[match.pk])}?ply={ply}&as={perspective.key}"
        if viewer is None and watcher_shareable(match, request.user):
            # Every watcher of a public match sees the same frame: rendered once, shared
            # (games/views/shared_table.py).
            key = watcher_frame_key(
                match,
                ply=ply,
                perspective=perspective.key,
                analysis="-" if analysis is None else f"{analysis.pk}.{analysis.status}",
                host=f"{request.scheme}://{request.get_host()}",
            )
            content = watcher_table(
                key, lambda: render(request, FRAME_PARTIAL, frame_context()).content
            )
            if content is not None:
                return push_url(HttpResponse(content), url)
        return push_url(render(request, FRAME_PARTIAL, frame_context()), url)
    context = frame_context()
    context |= analysis_context(request, match, seats, analysis)
    report = context["analysis_report"]
    # The move list is kept per analysis too (its marks appear once the analysis is done) and
    # per language (its words are the reader's: docs/translation.md).
    analysed = f"a{analysis.pk}" if report is not None else "-"
    context["analysis_key"] = f"{analysed}:{translation.get_language()}"
    # The table phrases this viewer may see through this perspective (none and no query for a
    # match without phrases): the seats' to a seat's eyes, to a spectator's where allowed.
    phrases = phrases_visible(
        match=match,
        viewer_id=request.user.pk,
        seated=viewer is not None and perspective.key != PUBLIC,
    )
    # Kept per visible set: a mute or a block made since changes the key (docs/phrases.md).
    context["phrases_key"] = _phrases_key(phrases)
    # Called by the template only when its cached copy of the list is missing (replay.html).
    context["rounds"] = functools.partial(
        _rounds_marked,
        marks=report.marks if report is not None else {},
        match=match,
        names=names,
        perspective=perspective,
        phrases=phrases,
    )
    return render(request, "games/replay.html", context)


def _rounds_marked(
    *, marks: dict, match: Match, names: list[str], perspective: Any, phrases: list[SaidPhrase]
) -> list:
    """The move list in words with the analysis' marks and the visible table phrases: read
    only when the template's cached copy is missing."""
    log = replay_log(match=match, perspective=perspective)
    rounds = replay_rounds(
        game=match.game, names=names, perspective=perspective, log=log, phrases=phrases
    )
    return marks_attach(rounds, marks)


def _phrases_key(phrases: list[SaidPhrase]) -> str:
    """A short key of the visible phrases for the move list's cache ("-": none)."""
    if not phrases:
        return "-"
    text = ";".join(f"{p.ply},{p.seat},{p.key}" for p in phrases)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _refused(request: HttpRequest, match: Match, message: str, status: int) -> HttpResponse:
    context = {"match": match_facts(match), "message": message}
    return render(request, "games/replay_refused.html", context, status=status)
