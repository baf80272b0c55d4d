"""Play now (docs/quick-match.md): seat a person at the waiting public table that fits their
choices best, or open one for others to find; and, when a table's "fill with a bot after N
hours" passes with seats still open, seat the greedy bot in them and start the match.

Seating goes through ``match_join`` and opening through ``match_create``, the lobby's own paths
(their locks, the block check under the lock, the start when the last seat is taken). One
person's presses are serialised by a lock on their own user row, so a double press finds the
first press's table; two people racing for one table's last seat meet at its row lock, and the
one refused goes on to the next table that fits, or opens one. Two people pressing at the same
moment with no table waiting meet too: a press first takes the lock of the table it would open
(its "bucket": game, size, deadline, rated), so the second looks only after the first's table
is there to find.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import BOT_FILL_CHOICES, DEADLINE_CHOICES, BotLevel, Match, Seat
from games.selectors.quick import QuickChoice, quick_candidates, quick_waiting_at
from games.services._store import match_bump, seats_of
from games.services.errors import JoinRejected, Rejected
from games.services.invitation_seats import invitations_reserved
from games.services.matches import match_create, match_join, match_start

# The most tables one run of the sweep fills (the next run takes the rest).
BOT_FILL_BATCH = 100

SEATED, OPENED, ALREADY = "seated", "opened", "already"


@dataclass(frozen=True)
class QuickSeat:
    """Where Play now put the person: ``how`` is ``SEATED`` (at a waiting table), ``OPENED``
    (a new table waits for others) or ``ALREADY`` (they were waiting at ``match`` already)."""

    match: Match
    how: str


def quick_choice_check(choice: QuickChoice, bot_fill_hours: int | None) -> None:
    """Refuse a choice Play now cannot meet (400), in words for the person."""
    try:
        engine = get_engine(choice.game)
    except KeyError as exc:
        raise Rejected(str(exc.args[0]), status=400) from exc
    if choice.seats is not None and not engine.min_players <= choice.seats <= engine.max_players:
        raise Rejected(
            _("%(game)s seats %(least)d to %(most)d players.")
            % {"game": engine.title, "least": engine.min_players, "most": engine.max_players},
            status=400,
        )
    if choice.deadline_days is not None and choice.deadline_days not in dict(DEADLINE_CHOICES):
        raise Rejected(_("A turn deadline is 1, 3 or 7 days, or none."), status=400)
    if bot_fill_hours is not None and bot_fill_hours not in dict(BOT_FILL_CHOICES):
        hours = ", ".join(str(h) for h, _label in BOT_FILL_CHOICES)
        raise Rejected(
            _("A bot fills the open seats after %(hours)s hours, or never.") % {"hours": hours}, 400
        )


def quick_match_play(
    *, user: AbstractBaseUser, choice: QuickChoice, bot_fill_hours: int | None = None
) -> QuickSeat:
    """Seat ``user`` at the best waiting table for ``choice`` or open a public one (of the
    chosen size; "any" opens the game's smallest). ``bot_fill_hours`` is the opened table's:
    a table found keeps its own terms."""
    quick_choice_check(choice, bot_fill_hours)
    engine = get_engine(choice.game)
    size = choice.seats or engine.min_players
    with transaction.atomic():
        # Presses that would open the same table one after the other: the second finds it.
        _bucket_lock(choice, size)
        # One person's presses one after the other: the second finds the first's table. No key
        # update: a seat or notice another press writes for this person still goes ahead.
        users = get_user_model().objects.select_for_update(no_key=True)
        list(users.filter(pk=user.pk).values_list("pk"))
        waiting = quick_waiting_at(user_id=user.pk, choice=choice)
        if waiting is not None:
            return QuickSeat(match=waiting, how=ALREADY)
        for match in quick_candidates(user_id=user.pk, choice=choice):
            try:
                match_join(match=match, user=user)
            except JoinRejected:
                continue  # taken meanwhile, or a block made since the read: the next one
            return QuickSeat(match=match, how=SEATED)
        fill_at = None
        if bot_fill_hours is not None:
            fill_at = timezone.now() + datetime.timedelta(hours=bot_fill_hours)
        match = match_create(
            game=choice.game,
            num_players=size,
            created_by=user,
            deadline_days=choice.deadline_days,
            public=True,
            quick=True,
            rated=choice.rated,
            bot_fill_at=fill_at,
        )
    return QuickSeat(match=match, how=OPENED)


def _bucket_lock(choice: QuickChoice, size: int) -> None:
    """Hold, until the transaction ends, the lock of the table this press would open (the
    chosen game, ``size``, deadline and rated choice): two people pressing at the same moment
    with no table waiting then look one after the other, and the second is seated at the
    first's new table instead of opening one of its own. PostgreSQL: a transaction-level
    advisory lock on the bucket's 64-bit key. SQLite: its IMMEDIATE transactions run every
    press one after the other already."""
    if connection.vendor != "postgresql":
        return
    bucket = f"parlour.quick:{choice.game}:{size}:{choice.deadline_days}:{choice.rated}"
    digest = hashlib.blake2b(bucket.encode(), digest_size=8).digest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)]
        )


def quick_bot_fill(*, match_id: int, now: datetime.datetime) -> bool:
    """If ``match_id`` still waits and its bot-fill time has passed, seat the greedy bot in
    every open seat and start it; whether this call did. Under the match's row lock, so a join
    at the same moment, a second sweep or a cancel comes out one way. A table no person sits at
    any more is withdrawn instead: bots never play only each other."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.WAITING or match.bot_fill_at is None:
            return False
        if match.bot_fill_at > now:
            return False
        seats = seats_of(match)
        if not any(s.user_id is not None for s in seats):
            match.status = Match.Status.CANCELLED
            match_bump(match=match, fields=["status"])
            return False
        taken = {s.index for s in seats} | set(invitations_reserved(match_id=match.pk))
        Seat.objects.bulk_create(
            Seat(match=match, index=i, bot_level=BotLevel.GREEDY)
            for i in range(match.num_players)
            if i not in taken
        )
        match_bump(match=match)
        if Seat.objects.filter(match_id=match.pk).count() == match.num_players:
            match_start(match=match)
    return True


def quick_bot_fill_due(*, now: datetime.datetime) -> int:
    """Fill the waiting tables whose bot-fill time has passed (the deadline sweep's beat);
    how many this run started."""
    due = (
        Match.objects.filter(status=Match.Status.WAITING, bot_fill_at__lte=now)
        .order_by("bot_fill_at", "pk")
        .values_list("pk", flat=True)[:BOT_FILL_BATCH]
    )
    return sum(quick_bot_fill(match_id=pk, now=now) for pk in list(due))
