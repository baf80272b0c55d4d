"""The game sections of a person's data export (docs/accounts.md, "Your data"): the receiver
of ``accounts.signals.export_sections``, connected in ``games.apps``.

``accounts`` writes the file and knows nothing of matches; this module contributes the
person's ratings with their changes, match notices, invitations, table phrases, the matches and
analyses they asked for, and every match they sat at as its record for their seat
(``games.selectors.records.match_record`` with their seat as the viewer: a finished match's full
record, a running one redacted to what their seat may see). It composes selectors' data with the
presentation's words (seat names, phrase words), as a view does, so it is neither a selector
nor the presentation.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.db.models import Q

from games.models import (
    Invitation,
    LessonProgress,
    Match,
    MatchAnalysis,
    MatchNotice,
    Rating,
    RatingChange,
    Seat,
    TablePhrase,
)
from games.phrases import phrase_words
from games.presentation.names import record_seat_names
from games.selectors.facts import seat_facts
from games.selectors.records import match_record

PROGRESS_EVERY = 10  # matches between two reports of the progress


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(dt.UTC).isoformat()


def _phrases(user_id: int) -> list[dict[str, Any]]:
    """The table phrases the person said (docs/phrases.md), oldest first."""
    rows = (
        TablePhrase.objects.filter(user_id=user_id)
        .order_by("id")
        .values_list("match_id", "match__game", "ply", "key", "said_at")
    )
    return [
        {"match": match, "ply": ply, "phrase": phrase_words(game, key), "said_at": _iso(said)}
        for match, game, ply, key, said in rows
    ]


def _ratings(user_id: int) -> list[dict[str, Any]]:
    changes: dict[int, list[dict[str, Any]]] = {}
    for change in RatingChange.objects.filter(rating__user_id=user_id).order_by("created_at"):
        changes.setdefault(change.rating_id, []).append(
            {
                "match": change.match_id,
                "seat": change.seat,
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu_after": change.mu_after,
                "sigma_after": change.sigma_after,
                "rating_before": change.ordinal_before,
                "rating_after": change.ordinal_after,
                "at": _iso(change.created_at),
            }
        )
    return [
        {
            "game": rating.game,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "matches": rating.matches,
            "last_played_at": _iso(rating.last_played_at),
            "changes": changes.get(rating.pk, []),
        }
        for rating in Rating.objects.filter(user_id=user_id).order_by("game")
    ]


def _notices(user_id: int) -> list[dict[str, Any]]:
    return [
        {
            "match": notice.match_id,
            "seen_at": _iso(notice.seen_at),
            "turn_mailed_at": _iso(notice.turn_mailed_at),
            "deadline_mailed_at": _iso(notice.deadline_mailed_at),
            "turn_pushed_at": _iso(notice.turn_pushed_at),
        }
        for notice in MatchNotice.objects.filter(user_id=user_id).order_by("match_id")
    ]


def _invitations(user_id: int) -> list[dict[str, Any]]:
    """The challenges and rematch offers the person sent or received (docs/invitations.md)."""
    rows = (
        Invitation.objects.filter(Q(user_id=user_id) | Q(invited_by_id=user_id))
        .select_related("user", "invited_by")
        .order_by("pk")
    )
    return [
        {
            "match": row.match_id,
            "seat": row.seat_index,
            "kind": row.kind,
            "status": row.status,
            "from": row.invited_by.get_username(),
            "to": row.user.get_username(),
            "created_at": _iso(row.created_at),
            "expires_at": _iso(row.expires_at),
            "answered_at": _iso(row.answered_at),
        }
        for row in rows
    ]


def _match_entry(mine: Seat) -> dict[str, Any]:
    """One match the person sat at, as the record their seat may have."""
    match = mine.match
    seats = list(Seat.objects.filter(match_id=match.pk).select_related("user").order_by("index"))
    names = record_seat_names(match.num_players, seat_facts(seats))
    viewer = next(s for s in seats if s.pk == mine.pk)
    record = match_record(match=match, seats=seats, names=names, viewer_seat=viewer)
    return {"match": match.pk, "seat": mine.index, "status": match.status, "record": record}


def _matches(user_id: int, progress: Callable[[int, int], None]) -> list[dict[str, Any]]:
    """Every match the person sat at, reporting ``progress(done, total)`` at the start and
    every ``PROGRESS_EVERY`` matches."""
    mine = list(Seat.objects.filter(user_id=user_id).select_related("match").order_by("match_id"))
    progress(0, len(mine))
    matches = []
    for done, seat in enumerate(mine, start=1):
        matches.append(_match_entry(seat))
        if done % PROGRESS_EVERY == 0:
            progress(done, len(mine))
    return matches


def _lessons(user_id: int) -> list[dict[str, Any]]:
    """The lessons the person finished (docs/lessons.md): best stars, and when first reached."""
    rows = LessonProgress.objects.filter(user_id=user_id).order_by("game", "lesson")
    return [
        {"game": r.game, "lesson": r.lesson, "stars": r.stars, "finished_at": _iso(r.finished_at)}
        for r in rows
    ]


def export_sections_receiver(
    sender: object, *, user_id: int, progress: Callable[[int, int], None], **_: Any
) -> dict[str, Any]:
    """``accounts.signals.export_sections``'s listener: the file's game sections, and the
    game half of its ``relations`` section."""
    created = Match.objects.filter(created_by_id=user_id).order_by("pk")
    asked = MatchAnalysis.objects.filter(requested_by_id=user_id).order_by("match_id")
    return {
        "matches": _matches(user_id, progress),
        "ratings": _ratings(user_id),
        "notices": _notices(user_id),
        "relations": {
            "matches_created": list(created.values_list("pk", flat=True)),
            "analyses_requested": list(asked.values_list("match_id", flat=True)),
        },
        "invitations": _invitations(user_id),
        "table_phrases": _phrases(user_id),
        "lessons": _lessons(user_id),
    }
