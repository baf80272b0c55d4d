"""A cup occurrence's writes (docs/competitions.md, "Cups"): entering and leaving it, its start
and each Swiss round's pairing, every one under the cup's row lock (on SQLite the write lock
taken at BEGIN), so an entry, a withdrawal, the start and a pairing come one at a time.

The gates and the withdrawal are the leagues' (``competitions.league_entries``): a confirmed
address, a way to be told, the rating range, a place, no block with anyone in; withdrawing
resigns the person's running tables (the greedy bot plays the seat on, for nobody). A round is
paired by ``competitions.swiss`` from the standings (``competitions.cup_standings``): the first
round's draw random, each next one from the points; its tables open at once as real private
matches (``matches_start_seated``), unrated as a league's are.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors.relations import blocked_pairs_among
from competitions.cup_standings import cup_results
from competitions.cup_terms import cup_length
from competitions.league_entries import (
    EntryRefused,
    Gate,
    entry_gate_closed,
    league_withdraw,
)
from competitions.league_tables import RATED
from competitions.models import Entry, Event, EventTable
from competitions.signals import cup_round_paired, cup_started
from competitions.swiss import Entrant, pair_round
from games.engines import get_engine
from games.services.matches import SeatedTable, matches_start_seated

_draw_random = random.SystemRandom()

# A block between two people in a cup counts as this many meetings already played, both ways
# round, so the pairing keeps them apart whenever it can; a table that still seats them both
# is never opened.
BLOCK_MEETINGS = 2


def _locked_cup(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id, kind=Event.Kind.CUP)
    except Event.DoesNotExist:
        raise EntryRefused(_("There is no such cup."), status=404) from None


def _gate_words(event: Event, gate: Gate) -> str:
    if gate.code == "address":
        return _("Confirm your e-mail address first (on your account page): a cup needs one.")
    if gate.code == "told":
        return _(
            "Turn on turn mails, or turn pushes with a device, on your notifications page"
            " first: a cup's tables open without warning, and each has a turn deadline."
        )
    if gate.code == "rating":
        low = "-" if event.rating_min is None else str(event.rating_min)
        high = "-" if event.rating_max is None else str(event.rating_max)
        return _("This cup is for ratings %(low)s to %(high)s; yours is %(rating)s.") % {
            "low": low,
            "high": high,
            "rating": gate.rating,
        }
    if gate.code == "full":
        return _("This cup is full.")
    return _("A block stands between you and someone already in this cup, so you cannot enter it.")


def cup_enter(*, event_id: int, user: AbstractBaseUser) -> Entry:
    """Enter ``user`` in the cup, if it is open, has a place and they pass its gates (refused
    with words). Entering twice returns the entry held. The entry that fills a cup starting
    when full starts it, in the same transaction."""
    with transaction.atomic():
        event = _locked_cup(event_id)
        held = Entry.objects.filter(event_id=event.pk, user_id=user.pk).first()
        if held is not None and not held.withdrawn:
            return held
        if event.status != Event.Status.OPEN:
            raise EntryRefused(_("This cup has started: it takes no more entries."), 409)
        if held is not None:
            raise EntryRefused(_("You withdrew from this cup."), status=409)
        others = set(Entry.objects.filter(event_id=event.pk).values_list("user_id", flat=True))
        gate = entry_gate_closed(event=event, user=user, others=others, full_check=True)
        if gate is not None:
            raise EntryRefused(_gate_words(event, gate), status=gate.status)
        entry = Entry.objects.create(event=event, user=user)
        if event.starts_at is None and len(others) + 1 == event.places:
            cup_start(event=event)
    return entry


def cup_withdraw(
    *, event_id: int, user_id: int, reason: str = Entry.Withdrawn.SELF, now: Any = None
) -> bool:
    """Take the person out of the cup (the leagues' withdrawal: before the start the place is
    free again; once it runs their running table is resigned and they are not paired again).
    ``False``: they were not in it."""
    if not Event.objects.filter(pk=event_id, kind=Event.Kind.CUP).exists():
        raise EntryRefused(_("There is no such cup."), status=404)
    try:
        return league_withdraw(event_id=event_id, user_id=user_id, reason=reason, now=now)
    except EntryRefused as exc:
        raise EntryRefused(_("This cup is over."), status=exc.status) from None


def cup_start(*, event: Event, now: Any = None) -> Event:
    """Start the cup now if it is still open: with at least its least field (two at the
    least) everyone entered is seated and the first round paired, else it is cancelled. The
    caller may hold its lock already (an entry filling it)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.status != Event.Status.OPEN:
            return locked
        people = list(
            Entry.objects.filter(event_id=locked.pk, withdrawn="")
            .order_by("entered_at", "pk")
            .values_list("user_id", flat=True)
        )
        if len(people) < max(locked.places_least, 2):
            locked.status = Event.Status.CANCELLED
            locked.finished_at = now
            locked.save(update_fields=["status", "finished_at"])
            return locked
        locked.draw = [people]
        locked.status = Event.Status.RUNNING
        locked.started_at = now
        locked.ends_at = now + cup_length(
            rounds=locked.rounds,
            deadline_days=locked.deadline_days,
            spans=settings.PARLOUR_LEAGUE_TABLE_SPANS,
        )
        locked.save(update_fields=["draw", "status", "started_at", "ends_at"])
        seated = cup_round_pair(event=locked, now=now)
        transaction.on_commit(
            lambda: cup_started.send(sender=Event, event_id=locked.pk, user_ids=seated)
        )
    return locked


def cup_round_pair(*, event: Event, now: Any = None) -> list[int]:
    """Pair the cup's next round from its standings and open its tables at once; the caller
    holds the cup's lock. Returns the people given a table or a bye (none with fewer than two
    still playing: the cup then waits for its end)."""
    now = now or timezone.now()
    withdrawn = set(
        Entry.objects.filter(event_id=event.pk)
        .exclude(withdrawn="")
        .values_list("user_id", flat=True)
    )
    results = cup_results(event=event, withdrawn=withdrawn)
    playing = [Entrant(int(line.user), line.points) for line in results.lines if not line.withdrawn]
    if len(playing) < 2:
        return []
    blocks = blocked_pairs_among({entrant.id for entrant in playing})
    apart = [
        seats for pair in blocks for a, b in [sorted(pair)] for seats in ((a, b), (b, a))
    ] * BLOCK_MEETINGS
    round_ = pair_round(
        playing,
        event.seats,
        history=[*apart, *results.history],
        byes=results.byes,
        least_seats=get_engine(event.game).min_players,
        draw=random.Random(_draw_random.getrandbits(64)) if event.round == 0 else None,
    )
    rows: list[EventTable] = []
    opening: list[EventTable] = []
    for number, seats in enumerate(round_.tables):
        row = EventTable(event=event, circle=event.round, number=number, labels=list(seats))
        if any(frozenset(pair) in blocks for pair in combinations(seats, 2)):
            row.dropped = EventTable.Dropped.BLOCK
        else:
            opening.append(row)
        rows.append(row)
    for offset, person in enumerate(round_.byes):
        rows.append(
            EventTable(
                event=event,
                circle=event.round,
                number=len(round_.tables) + offset,
                labels=[person],
                dropped=EventTable.Dropped.BYE,
            )
        )
    matches = matches_start_seated(
        game=event.game,
        tables=[SeatedTable(user_ids=tuple(row.labels)) for row in opening],
        deadline_days=event.deadline_days,
        holidays=event.holidays,
        rated=RATED,
    )
    for row, match in zip(opening, matches, strict=True):
        row.match = match
        row.opened_at = now
    EventTable.objects.bulk_create(rows)
    event.round += 1
    event.round_started_at = now
    event.save(update_fields=["round", "round_started_at"])
    seated = [person for row in rows for person in row.labels]
    number = event.round
    transaction.on_commit(
        lambda: cup_round_paired.send(
            sender=Event, event_id=event.pk, round=number, user_ids=seated
        )
    )
    return seated
