"""The receivers that tell the people of a cup or a league what its signals say
(``competitions/signals.py``; docs/competitions.md, "Told"), connected in ``competitions/apps.py``.
Each signal is sent after the commit of its change, so each receiver reads what was written and
writes its notices outside that transaction, one bulk statement with ``ignore_conflicts``: a
signal sent twice tells nobody twice. Mail and push follow from the rows
(``competitions.notice_delivery``), in each reader's language.

- ``cup_started``: one notice a person seated (``started``), with their table of round 1 (or
  their bye): the start is round 1's pairing, told once, not twice.
- ``cup_round_paired``: from round 2, one notice a person paired (``paired``, key
  ``round-<n>``), with their table, their bye or their table not played (a block).
- ``event_finished``: everyone who played in the league or the cup is told the end with their
  place (a league's from its circle's standings, a cup's from its Swiss standings; none when
  withdrawn).

And ``accounts.signals.export_sections``: a person's leagues and cups in their data export.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.utils import timezone

from competitions.cup_standings import cup_results
from competitions.league_notice_reads import events_export
from competitions.league_notices import NOT_IN_THE_END, end_tell, notices_store
from competitions.models import Entry, Event, EventNotice, EventTable

logger = logging.getLogger(__name__)


def _never_raising(receiver: Callable[..., None]) -> Callable[..., None]:
    """A receiver run after a commit never fails the request or the sweep that sent its signal
    (the change is made; only its telling is lost, and logged)."""

    @functools.wraps(receiver)
    def hearing(sender: Any, **kwargs: Any) -> None:
        try:
            receiver(sender, **kwargs)
        except Exception:
            logger.exception("%s: event %s not told", receiver.__name__, kwargs.get("event_id"))

    return hearing


def _round_tell(*, event: Event, round_: int, user_ids: Iterable[int], kind: str, at: Any) -> None:
    """Tell each of ``user_ids`` their table (or bye) of the cup's round ``round_`` (1 the
    first): one query for the round's tables, one bulk statement."""
    wanted = set(user_ids)
    tables = EventTable.objects.filter(event_id=event.pk, circle=round_ - 1).values_list(
        "labels", "match_id", "dropped"
    )
    key = EventNotice.Kind.STARTED if kind == EventNotice.Kind.STARTED else f"round-{round_}"
    notices = [
        EventNotice(
            event_id=event.pk,
            user_id=user_id,
            kind=kind,
            key=key,
            match_id=match_id,
            reason=dropped if match_id is None else "",
            at=at,
        )
        for labels, match_id, dropped in tables
        for user_id in labels
        if user_id in wanted
    ]
    notices_store(notices)


@_never_raising
def cup_started_receiver(sender: Any, *, event_id: int, user_ids: list[int], **_: Any) -> None:
    """``cup_started``: each person seated is told the start with their table of round 1."""
    event = Event.objects.filter(pk=event_id, kind=Event.Kind.CUP).first()
    if event is None:
        return
    at = event.started_at or timezone.now()
    _round_tell(event=event, round_=1, user_ids=user_ids, kind=EventNotice.Kind.STARTED, at=at)


@_never_raising
def cup_round_paired_receiver(
    sender: Any, *, event_id: int, round: int, user_ids: list[int], **_: Any
) -> None:
    """``cup_round_paired``: from round 2, each person paired is told their table or bye (round
    1 is told with the start)."""
    if round < 2:
        return
    event = Event.objects.filter(pk=event_id, kind=Event.Kind.CUP).first()
    if event is None:
        return
    at = event.round_started_at if event.round == round and event.round_started_at else None
    _round_tell(
        event=event,
        round_=round,
        user_ids=user_ids,
        kind=EventNotice.Kind.PAIRED,
        at=at or timezone.now(),
    )


def cup_end_tell(*, event: Event, now: Any) -> None:
    """The cup ended: tell everyone who played in it their place in its Swiss standings
    (``None``: withdrawn)."""
    entries = list(Entry.objects.filter(event_id=event.pk).values_list("user_id", "withdrawn"))
    withdrawn = {user_id for user_id, why in entries if why}
    places = {
        line.user: line.place
        for line in cup_results(event=event, withdrawn=withdrawn).lines
        if isinstance(line.user, int)
    }
    notices_store(
        [
            EventNotice(
                event_id=event.pk,
                user_id=user_id,
                kind=EventNotice.Kind.ENDED,
                key=EventNotice.Kind.ENDED,
                place=places.get(user_id),
                at=now,
            )
            for user_id, why in entries
            if why not in NOT_IN_THE_END
        ]
    )


def export_sections_receiver(sender: Any, *, user_id: int, **_: Any) -> dict[str, Any]:
    """``accounts.signals.export_sections``: the person's leagues and cups (entries and the
    notices told them) in their "your data" file."""
    return {"events": events_export(user_id)}


@_never_raising
def event_finished_receiver(sender: Any, *, event_id: int, **_: Any) -> None:
    """``event_finished``: a league or a cup ended; everyone who played in it is told their
    place."""
    event = Event.objects.filter(pk=event_id, status=Event.Status.FINISHED).first()
    if event is None:
        return
    at = event.finished_at or timezone.now()
    if event.kind == Event.Kind.CUP:
        cup_end_tell(event=event, now=at)
    else:
        end_tell(event=event, now=at)
