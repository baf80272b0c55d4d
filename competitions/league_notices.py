"""A league telling its people (docs/competitions.md, "Told"): the notices written where the
news happens (entered, the start, a table opened later, a withdrawal; the end with each
person's place, by ``competitions.event_notices`` when ``event_finished`` is heard), and an
event's notices seen when its page (a league's or a cup's) is opened.

Each notice is one row a person and piece of news (``EventNotice``, unique on the league, the
person and its key), written with ``ignore_conflicts`` in one bulk statement however many people
it tells: a re-run sweep or a repeated request tells nobody twice. Mail and push follow from
the rows (``competitions.notice_delivery``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from competitions.league_standings import league_standings
from competitions.models import Entry, Event, EventNotice
from games.live import publish as live

# A withdrawal for these reasons is not told: the person closed or deleted their account.
UNTOLD_REASONS = {Entry.Withdrawn.ACCOUNT}
# Not told the end: they never played (no room) or left the site.
NOT_IN_THE_END = {Entry.Withdrawn.ACCOUNT, Entry.Withdrawn.NO_ROOM}


def notices_store(notices: list[EventNotice]) -> None:
    """Write ``notices`` in one bulk statement (one already there is kept: nobody is told
    twice), and after the commit have the open pages of the people told recount their badge
    (docs/live.md: their stream's ``badge`` event), as a challenge does."""
    EventNotice.objects.bulk_create(notices, ignore_conflicts=True)
    live.badges_changed(notice.user_id for notice in notices)


def league_tell(
    *,
    event_id: int,
    user_ids: Iterable[int],
    kind: str,
    now: Any = None,
    match_id: int | None = None,
    reason: str = "",
    places: dict[int, int | None] | None = None,
) -> None:
    """Tell each of ``user_ids`` one piece of news (an ``EventNotice.Kind``): one statement."""
    if kind == EventNotice.Kind.WITHDRAWN and reason in UNTOLD_REASONS:
        return
    now = now or timezone.now()
    key = f"table-{match_id}" if kind == EventNotice.Kind.TABLE else kind
    notices_store(
        [
            EventNotice(
                event_id=event_id,
                user_id=user_id,
                kind=kind,
                key=key,
                match_id=match_id,
                reason=reason,
                place=(places or {}).get(user_id),
                at=now,
            )
            for user_id in user_ids
        ]
    )


def tables_tell(*, event_id: int, opened: Iterable[tuple[int, Iterable[int]]], now: Any) -> None:
    """Tell the people of each table opened after the start (``(match id, user ids)``) that
    it is open: one bulk statement for them all."""
    notices_store(
        [
            EventNotice(
                event_id=event_id,
                user_id=user_id,
                kind=EventNotice.Kind.TABLE,
                key=f"table-{match_id}",
                match_id=match_id,
                at=now,
            )
            for match_id, user_ids in opened
            for user_id in user_ids
        ]
    )


def end_tell(*, event: Event, now: Any) -> None:
    """The league ended: tell everyone who played in it their place (``None``: withdrawn)."""
    entries = list(Entry.objects.filter(event_id=event.pk).values_list("user_id", "withdrawn"))
    told = [user_id for user_id, why in entries if why not in NOT_IN_THE_END]
    withdrawn = {user_id for user_id, why in entries if why}
    places: dict[int, int | None] = {}
    for circle in league_standings(event=event, withdrawn=withdrawn):
        for row in circle.rows:
            if isinstance(row.user, int):
                places[row.user] = row.place
    league_tell(
        event_id=event.pk, user_ids=told, kind=EventNotice.Kind.ENDED, now=now, places=places
    )


def league_notices_seen(*, event_id: int, user_id: int) -> int:
    """The person opened the league's page: its notices of theirs are seen (one statement)."""
    return EventNotice.objects.filter(
        event_id=event_id, user_id=user_id, seen_at__isnull=True
    ).update(seen_at=timezone.now())
