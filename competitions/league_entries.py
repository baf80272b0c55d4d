"""Entering and leaving a league (docs/competitions.md, "Entering"): enrol, withdraw, and the
receivers that withdraw a person whose account is closed or deleted.

Each is one transaction under the league's row lock, so an entry, a withdrawal and the start
queue behind each other: of two people taking the last place one gets it, and an entry never
slips in beside a start (on SQLite, the write lock taken at BEGIN orders them the same way).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import PushSubscription
from accounts.selectors import notify
from accounts.selectors.email_confirmation import confirmed_address
from accounts.selectors.relations import blocked_with_any
from competitions.league_notices import league_tell
from competitions.league_start import league_start
from competitions.models import Entry, Event, EventNotice, EventTable
from games import skill
from games.models import Match, Rating, Seat
from games.services import Rejected, match_resign

logger = logging.getLogger(__name__)


class EntryRefused(Rejected):
    """An entry or withdrawal refused, with words for the person and the status a view uses."""


# Worded when refused (``Rejected`` turns a lazy message into the request's language).
NO_ADDRESS = gettext_lazy(
    "Confirm your e-mail address first (on your account page): a league needs one."
)
NO_WAY_TO_BE_TOLD = gettext_lazy(
    "Turn on turn mails, or turn pushes with a device, on your notifications page first:"
    " a league's tables open without warning, and each has a turn deadline."
)
ACROSS_A_BLOCK = gettext_lazy(
    "A block stands between you and someone already in this league, so you cannot enter it."
)


def _locked(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise EntryRefused(_("There is no such league."), status=404) from None


def person_rating(*, user_id: int, game: str) -> int:
    """The rating a page shows for the person at ``game`` (a newcomer's: the model's start)."""
    row = Rating.objects.filter(game=game, user_id=user_id).values_list("mu", "sigma").first()
    mu, sigma = row if row is not None else (skill.MU, skill.SIGMA)
    return skill.display_ordinal(mu, sigma)


def _can_be_told(user_id: int) -> bool:
    if notify.wants(user_id, notify.TURN):
        return True
    return (
        notify.push_wanted(user_id, notify.TURN)
        and PushSubscription.objects.filter(user_id=user_id).exists()
    )


@dataclass(frozen=True)
class Gate:
    """A gate an entry did not pass (leagues and cups word it each their own way): ``code`` is
    "address", "told", "rating" (``rating``: the person's), "full" or "block"."""

    code: str
    status: int
    rating: int | None = None


def entry_gate_closed(
    *, event: Event, user: AbstractBaseUser, others: set[int], full_check: bool
) -> Gate | None:
    """The first gate ``user`` does not pass for ``event`` (``others``: the user ids entered
    already; ``full_check``: whether the event's places are counted), or ``None``: a confirmed
    e-mail address, a way to be told, the rating range, a place, no block with anyone in."""
    if confirmed_address(user) is None:
        return Gate("address", 403)
    if not _can_be_told(user.pk):
        return Gate("told", 403)
    if event.rating_min is not None or event.rating_max is not None:
        rating = person_rating(user_id=user.pk, game=event.game)
        low, high = event.rating_min, event.rating_max
        if (low is not None and rating < low) or (high is not None and rating > high):
            return Gate("rating", 403, rating)
    if full_check and len(others) >= event.places:
        return Gate("full", 409)
    if blocked_with_any(user.pk, others):
        return Gate("block", 403)
    return None


def _league_gate_words(event: Event, gate: Gate) -> str:
    if gate.code == "address":
        return str(NO_ADDRESS)
    if gate.code == "told":
        return str(NO_WAY_TO_BE_TOLD)
    if gate.code == "rating":
        low, high = event.rating_min, event.rating_max
        words = _("This league is for ratings %(low)s to %(high)s; yours is %(rating)s.")
        facts = {
            "low": low if low is not None else _("any"),
            "high": high if high is not None else _("any"),
            "rating": gate.rating,
        }
        return words % facts
    if gate.code == "full":
        return _("This league is full.")
    return str(ACROSS_A_BLOCK)


def league_enter(*, event_id: int, user: AbstractBaseUser) -> Entry:
    """Enter ``user`` in the league, if it is open, has a place, and they pass its gates: a
    confirmed e-mail address, a way to be told (turn mails, or turn pushes with a device), the
    league's rating range, and no block between them and anyone in it (refused with words: a
    pair who blocked each other never share a table). Entering twice returns the entry held.
    The entry that fills a league starting when full starts it, in the same transaction."""
    with transaction.atomic():
        event = _locked(event_id)
        if event.kind != Event.Kind.LEAGUE:  # a cup's entry is the cups' (its own start)
            raise EntryRefused(_("There is no such league."), status=404)
        held = Entry.objects.filter(event_id=event.pk, user_id=user.pk).first()
        if held is not None and not held.withdrawn:
            return held
        if event.status != Event.Status.OPEN:
            raise EntryRefused(_("This league has started: it takes no more entries."), 409)
        if held is not None:
            raise EntryRefused(_("You withdrew from this league."), status=409)
        others = set(Entry.objects.filter(event_id=event.pk).values_list("user_id", flat=True))
        gate = entry_gate_closed(event=event, user=user, others=others, full_check=True)
        if gate is not None:
            raise EntryRefused(_league_gate_words(event, gate), status=gate.status)
        entry = Entry.objects.create(event=event, user=user)
        league_tell(event_id=event.pk, user_ids=[user.pk], kind=EventNotice.Kind.ENTERED)
        if event.starts_at is None and len(others) + 1 == event.places:
            league_start(event=event)
    return entry


def league_withdraw(
    *, event_id: int, user_id: int, reason: str = Entry.Withdrawn.SELF, now: Any = None
) -> bool:
    """Take the person out of the league. Before the start their entry goes (the place is free
    again). Once it runs they are withdrawn: their tables not yet opened are not played, and
    each running one is resigned, so the greedy bot plays their seat on and it scores for
    nobody. ``False``: they were not in it (or already withdrawn)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = _locked(event_id)
        entry = Entry.objects.filter(event_id=event.pk, user_id=user_id, withdrawn="").first()
        if entry is None:
            return False
        if event.status == Event.Status.OPEN:
            entry.delete()
            league_tell(
                event_id=event.pk,
                user_ids=[user_id],
                kind=EventNotice.Kind.WITHDRAWN,
                reason=reason,
                now=now,
            )
            return True
        if event.status != Event.Status.RUNNING:
            raise EntryRefused(_("This league is over."), status=409)
        entry.withdrawn = reason
        entry.withdrawn_at = now
        entry.save(update_fields=["withdrawn", "withdrawn_at"])
        _tables_of_withdrawn_drop(event)
        league_tell(
            event_id=event.pk,
            user_ids=[user_id],
            kind=EventNotice.Kind.WITHDRAWN,
            reason=reason,
            now=now,
        )
    running = Seat.objects.filter(
        user_id=user_id,
        resigned_ply__isnull=True,
        match__status=Match.Status.ACTIVE,
        match__event_table__event_id=event.pk,
    ).select_related("user")
    for seat in running:
        try:
            match_resign(match_id=seat.match_id, user=seat.user)
        except Rejected as exc:  # the table ended meanwhile
            logger.info("league %s: table %s moved on (%s)", event.pk, seat.match_id, exc)
    return True


def _tables_of_withdrawn_drop(event: Event) -> int:
    """Mark the league's tables not yet opened that seat a withdrawn person as not played."""
    gone = set(
        Entry.objects.filter(event_id=event.pk)
        .exclude(withdrawn="")
        .values_list("user_id", flat=True)
    )
    dropped = []
    for table in EventTable.objects.filter(event_id=event.pk, match__isnull=True, dropped=""):
        people = event.draw[table.circle]
        if any(people[label] in gone for label in table.labels):
            table.dropped = EventTable.Dropped.WITHDRAWN
            dropped.append(table)
    EventTable.objects.bulk_update(dropped, ["dropped"])
    return len(dropped)


def _leagues_leave(user_id: int) -> None:
    going = Entry.objects.filter(
        user_id=user_id,
        withdrawn="",
        event__status__in=[Event.Status.OPEN, Event.Status.RUNNING],
    ).values_list("event_id", flat=True)
    for event_id in list(going):
        league_withdraw(event_id=event_id, user_id=user_id, reason=Entry.Withdrawn.ACCOUNT)


def account_leaving_receiver(sender: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
    """``accounts.signals.account_leaving``: a person deleting their account leaves every
    league (entries before the start go; running leagues withdraw them)."""
    _leagues_leave(user.pk)


def account_closing_receiver(sender: Any, *, user_id: int, **_: Any) -> None:
    """``accounts.signals.account_closing``, inside the closing transaction: closing an account
    withdraws the person from every league at once, after the closing commits (reopening does
    not enter them again)."""
    transaction.on_commit(lambda: _leagues_leave(user_id))
