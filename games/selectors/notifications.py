"""Reads about telling people it is their turn: the nav badge's count, and who is due a mail.

The writes and the sending are ``games.services.notifications``; the person's settings (which
mails they want, unsubscribing) stay with the account, ``accounts.selectors.notify``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q

from accounts.models import NotificationSettings
from games.models import Match, MatchNotice, Seat

# The share of a turn deadline gone when the reminder goes.
REMINDER_AT = 0.8
# A vote with no turn deadline closes after this long (games.services._store says why).
VOTE_SPAN = timedelta(hours=24)


def awaited_count(*, user_id: int) -> int:
    """How many matches wait for this person's move: one count on the ``seat_user_awaited``
    index (``awaited_since`` is set only while a match waits for the seat, cleared at its end)."""
    return Seat.objects.filter(user_id=user_id, awaited_since__isnull=False).count()


def turn_of_task(turn: str | None) -> datetime | None:
    """The turn a turn mail or push task was sent for: the ISO time stamp it carries
    (``turn_mails_enqueue``), or ``None`` for a task queued before tasks carried one."""
    return datetime.fromisoformat(turn) if turn else None


def turn_still_awaited(
    *, since: datetime, turn: datetime | None, delay: float, now: datetime
) -> bool:
    """Whether the seat's turn, awaited ``since``, is the one a task was sent for.

    ``turn`` is a time stamp taken in the transaction that made the seat awaited, after its
    ``awaited_since`` was set: the same turn began at or before it, and any later turn (the
    person moved, and is awaited again) began after it. A task without one (queued before tasks
    carried it, or the sweep) decides as the sweep does: only a turn awaited for at least its
    ``delay`` seconds, so it never reaches a turn that has just begun (docs/notifications.md,
    "A mail belongs to one turn").
    """
    if turn is None:
        return since <= now - timedelta(seconds=delay)
    return since <= turn


def turn_mails_due(*, now: datetime) -> list[tuple[int, int]]:
    """``(match_id, user_id)`` of the people whose turn mail is due but never went: awaited for
    longer than the delay, not at the table since, no turn mail yet this turn, no push this
    turn in the last ``PARLOUR_TURN_MAIL_AFTER_PUSH`` seconds, mail wanted.

    The mail's own task normally sends it; this finds the ones that task never ran for (a
    broker that was down when the turn began, a worker killed while it held the task for its
    countdown: Redis brings such a message back only after its visibility timeout, an hour).
    ``turn_mail_send`` decides each again, under the same claim, so a late original and this
    sweep send one mail between them.
    """
    due_before = now - timedelta(seconds=float(settings.PARLOUR_TURN_MAIL_DELAY))
    settled = MatchNotice.objects.filter(user_id=OuterRef("user_id"), match_id=OuterRef("match_id"))
    # A push of this turn that reached a device puts the mail off (turn_mail_waits_for_push).
    pushed_after = now - timedelta(seconds=float(settings.PARLOUR_TURN_MAIL_AFTER_PUSH))
    seen_or_mailed = settled.filter(
        Q(seen_at__gte=OuterRef("awaited_since"))
        | Q(turn_mailed_at__gte=OuterRef("awaited_since"))
        | Q(turn_pushed_at__gte=OuterRef("awaited_since"), turn_pushed_at__gt=pushed_after)
    )
    opted_out = NotificationSettings.objects.filter(user_id=OuterRef("user_id"), email_turn=False)
    return list(
        Seat.objects.filter(
            user__isnull=False,
            awaited_since__lte=due_before,
            match__status=Match.Status.ACTIVE,
        )
        .exclude(user__email="")
        .exclude(Exists(seen_or_mailed))
        .exclude(Exists(opted_out))  # else they would fill every sweep's 500 for nothing
        .order_by("awaited_since")
        .values_list("match_id", "user_id")[:500]
    )


def reminders_due(*, now: datetime) -> list[Seat]:
    """People awaited in an active match whose deadline is 80% gone and not yet passed, who had
    no reminder this turn (the seat's ``awaited_since`` is later than the last one)."""
    share = 1 - REMINDER_AT
    by_span = Q(match__deadline_days__isnull=True, match__deadline_at__lte=now + VOTE_SPAN * share)
    for days, _label in Match._meta.get_field("deadline_days").choices:
        span = timedelta(days=days)
        by_span |= Q(match__deadline_days=days, match__deadline_at__lte=now + span * share)
    reminded = MatchNotice.objects.filter(
        user_id=OuterRef("user_id"),
        match_id=OuterRef("match_id"),
        deadline_mailed_at__gte=OuterRef("awaited_since"),
    )
    return list(
        Seat.objects.filter(
            user__isnull=False,
            awaited_since__isnull=False,
            match__status=Match.Status.ACTIVE,
            match__deadline_at__gt=now,
        )
        .filter(by_span)
        .exclude(Exists(reminded))
        # Away on holiday where it holds the deadline: no reminder, the deadline waits.
        .exclude(
            match__holidays=True,
            user__holiday__away_since__lte=now,
            user__holiday__away_until__gt=now,
        )
        .select_related("match", "user")
        .order_by("match__deadline_at")[:500]
    )
