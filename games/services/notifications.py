"""Telling people it is their turn in a match: the seen mark, the turn mail and the deadline
reminder, their rate limits, and sending the turn mail's task (docs/notifications.md).

What is sent when: a turn mail when a person becomes awaited, checked
``PARLOUR_TURN_MAIL_DELAY`` seconds later and skipped if they have looked at the table since,
have moved, or turned turn mails off, and at most once per match every
``PARLOUR_TURN_MAIL_EVERY`` seconds (a turn push that reached a device puts it off for
``PARLOUR_TURN_MAIL_AFTER_PUSH``: ``games.push.turn``); a deadline reminder once per
turn when 80% of a turn deadline has gone (``games.selectors.notifications.reminders_due``).
Both limits are conditional UPDATEs of the person's one ``MatchNotice`` row for the match, so
two workers deciding the same mail at once send it once. A beat sweep sends the turn mails whose
task never ran (``games.selectors.notifications.turn_mails_due``).

These live with the games, beside the moves that make a person awaited; what a person wants
mailed (their ``NotificationSettings``, the unsubscribe links) stays with the account,
``accounts.selectors.notify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import EmailMultiAlternatives
from django.db import connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.selectors.email_confirmation import confirmed_address
from accounts.selectors.language import mail_language_of
from accounts.selectors.notify import DEADLINE, TURN, unsubscribe_url, wants
from accounts.selectors.time_zone import zone_of
from games import queue
from games.models import Match, MatchNotice, Seat
from games.selectors.notifications import turn_still_awaited

# --- Seen -------------------------------------------------------------------------------------


def seen_mark(*, user_id: int, match_id: int) -> None:
    """Record that the table was served to ``user_id`` in full, now: one upsert statement.

    Written as SQL (PostgreSQL and SQLite both know ``ON CONFLICT ... DO UPDATE``) because
    ``bulk_create(update_conflicts=True)`` wraps its one statement in a transaction of its own:
    three round trips, and the ORM's query building, on every seat's re-rendered poll (issue 35).
    One statement in autocommit is as atomic.
    """
    quote = connection.ops.quote_name
    meta = MatchNotice._meta
    user, match, seen = (quote(meta.get_field(f).column) for f in ("user", "match", "seen_at"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({user}, {match}, {seen}) VALUES (%s, %s, %s)"
            f" ON CONFLICT ({user}, {match}) DO UPDATE SET {seen} = EXCLUDED.{seen}",
            [user_id, match_id, connection.ops.adapt_datetimefield_value(timezone.now())],
        )


def seen_due(match: Match, seat: Seat | None, seen_at: datetime | None) -> bool:
    """Whether serving ``seat``'s table in full now changes what its seen mark (last written at
    ``seen_at``, ``None``: never) decides: the turn's notices ask ``seen_at >= awaited_since``
    (``games.selectors.notifications``, ``games.push.turn``), the finished notices ``seen_at >=
    finished_at`` (``games.selectors.notices``). A seat not awaited, or awaited and already
    seen this turn, changes nothing: the poll skips the write (issue 35), and a later turn
    begins after ``seen_at`` anyway. ``awaited_since`` is the one the served table was read
    with, so a turn begun after that read is not marked seen by it."""
    if seat is None:
        return False
    if match.status == Match.Status.ACTIVE:
        since = seat.awaited_since
    elif match.status == Match.Status.FINISHED:
        since = match.finished_at
        if since is None:
            return True
    else:
        return False
    return since is not None and (seen_at is None or seen_at < since)


# --- The turn mail's task -----------------------------------------------------------------------


def turn_notices() -> list[tuple[float, str]]:
    """The notices of a turn, soonest first: each one's delay after the turn began (seconds,
    from the settings) and the task that sends it, ``queue.TURN_PUSH`` and ``queue.TURN_MAIL``.
    The push goes first of two due at once: a push that reached a device puts the mail off."""
    notices = [
        (float(settings.PARLOUR_TURN_PUSH_DELAY), queue.TURN_PUSH),
        (float(settings.PARLOUR_TURN_MAIL_DELAY), queue.TURN_MAIL),
    ]
    return sorted(notices, key=lambda notice: notice[0])


def turn_mails_enqueue(*, match: Match, user_ids: Sequence[int]) -> None:
    """After the commit, one task for each person now awaited (``user_ids``): the turn notice
    (``queue.TURN_NOTICE``), to run when the soonest of the turn's notices is due
    (``turn_notices``: the push after ``PARLOUR_TURN_PUSH_DELAY`` seconds, ``games.push.turn``;
    the mail after ``PARLOUR_TURN_MAIL_DELAY``). It sends that one and hands the later one on as
    its own task (``turn_notices_later``), so a turn change costs the request one send, not
    one a notice: no statement now.

    Without a worker (eager mode: tasks run inside the request) nothing can wait, so a notice
    is checked at once only when its delay is 0; with a delay it is not sent at all, rather
    than mailing someone who is looking at the table and adding the task's statements to the
    move's request. A broker that is down delays the mail until beat's turn mail sweep.

    Each task carries its turn: a time stamp taken now, after ``_awaited_mark`` set the seats'
    ``awaited_since`` in this transaction, so a task that runs after the person moved and is
    awaited again finds a later ``awaited_since`` and sends nothing (``turn_still_awaited``).
    """
    turn = timezone.now().isoformat()
    soonest = turn_notices()[0][0]
    for user_id in user_ids:
        queue.enqueue(
            queue.TURN_NOTICE,
            match.pk,
            user_id,
            match.version,
            turn,
            countdown=soonest,
            must_wait=True,
            robust=True,  # a notice that fails must not keep the bot's turn from being sent
        )


def turn_notices_later(*, turn: datetime, now: datetime) -> list[tuple[str, float]]:
    """The turn notice task's plan when it runs at ``now`` for the turn stamped ``turn``: each
    notice's task with the seconds until it is due, counted from the turn (0: now). The soonest
    is what the task was sent for, so it is due now whatever the clocks say."""
    (_, first), *rest = turn_notices()
    elapsed = (now - turn).total_seconds()
    return [(first, 0.0)] + [(task, max(0.0, delay - elapsed)) for delay, task in rest]


# --- The mails --------------------------------------------------------------------------------


def notice_mail(
    *, user: AbstractBaseUser, match: Match, kind: str, due: datetime | None = None
) -> EmailMultiAlternatives:
    """The mail of ``kind`` for ``user`` about ``match``: plain text and HTML, a link to the
    table, a one-click unsubscribe link and the RFC 8058 headers; its times in ``user``'s time
    zone, named, and its words in ``user``'s language (never the sender's)."""
    with translation.override(mail_language_of(user.pk)):
        return _notice_mail(user=user, match=match, kind=kind, due=due)


def _notice_mail(
    *, user: AbstractBaseUser, match: Match, kind: str, due: datetime | None
) -> EmailMultiAlternatives:
    title = f"{match.get_game_display()} #{match.pk}"
    if kind == TURN:
        subject = _("Your turn in %(title)s") % {"title": title}
    else:
        subject = _("Your move in %(title)s is due soon") % {"title": title}
    unsubscribe = unsubscribe_url(user.pk, kind)
    zone = zone_of(user.pk)
    context = {
        "zone": zone.key,
        "user": user,
        "kind": kind,
        "title": title,
        "due": due,
        "table_url": f"{settings.PARLOUR_SITE_URL}{reverse('match_detail', args=[match.pk])}",
        "settings_url": f"{settings.PARLOUR_SITE_URL}{reverse('notification_settings')}",
        "unsubscribe_url": unsubscribe,
    }
    address = confirmed_address(user)
    if address is None:
        raise ValueError(f"user {user.pk} has no confirmed address to mail")
    return one_click_mail(
        subject=subject,
        template="accounts/mail/notice",
        context=context,
        zone=zone,
        address=address,
        unsubscribe=unsubscribe,
    )


def one_click_mail(
    *,
    subject: str,
    template: str,
    context: dict[str, Any],
    zone: Any,
    address: str,
    unsubscribe: str,
) -> EmailMultiAlternatives:
    """A notification mail: ``template``'s ``.txt`` and ``.html`` rendered in the reader's
    ``zone`` (and in the language active, which the caller sets to the reader's), to their
    confirmed ``address``, with the one-click ``unsubscribe`` link's RFC 8058 headers.
    Every kind of notification mail (turn, reminder, invitation) is built here."""
    with timezone.override(zone):
        body = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    mail = EmailMultiAlternatives(
        subject=subject,
        body=body,
        to=[address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    mail.attach_alternative(html, "text/html")
    return mail


def _notice_row(user_id: int, match_id: int) -> None:
    """Make sure the person's notice row for the match exists (a no-op when it does)."""
    MatchNotice.objects.bulk_create(
        [MatchNotice(user_id=user_id, match_id=match_id)],
        ignore_conflicts=True,
    )


def turn_mail_claim(*, user_id: int, match_id: int, now: datetime) -> datetime | None | bool:
    """Take the right to send this turn mail: ``False`` when the rate limit refuses it, else the
    previous ``turn_mailed_at`` (``None`` for the first), to give back if sending fails.

    One conditional UPDATE: of two workers deciding at once, only one sees its row updated.
    """
    _notice_row(user_id, match_id)
    limit = now - timedelta(seconds=float(settings.PARLOUR_TURN_MAIL_EVERY))
    rows = MatchNotice.objects.filter(user_id=user_id, match_id=match_id)
    previous = rows.values_list("turn_mailed_at", flat=True).first()
    claimed = rows.filter(Q(turn_mailed_at=None) | Q(turn_mailed_at__lt=limit)).update(
        turn_mailed_at=now
    )
    return previous if claimed == 1 else False


def turn_mail_waits_for_push(*, pushed_at: datetime | None, since: datetime, now: datetime) -> bool:
    """Whether a push of this turn (begun ``since``) reached a device (at ``pushed_at``) less
    than ``PARLOUR_TURN_MAIL_AFTER_PUSH`` seconds before ``now``: then the mail waits
    (docs/notifications.md, "How push and mail share the work")."""
    after = now - timedelta(seconds=float(settings.PARLOUR_TURN_MAIL_AFTER_PUSH))
    return pushed_at is not None and pushed_at >= since and pushed_at > after


def turn_mail_send(*, match_id: int, user_id: int, turn: datetime | None = None) -> bool:
    """Send the turn mail if it is still due; ``True`` when one went.

    ``turn``: the turn the task was sent for (``turn_mails_enqueue``'s stamp); a mail of
    another turn is not sent. ``None`` (the sweep, or a task queued before tasks carried it):
    only for a turn awaited at least ``PARLOUR_TURN_MAIL_DELAY`` seconds.
    """
    seat = (
        Seat.objects.select_related("match", "user")
        .filter(match_id=match_id, user_id=user_id)
        .first()
    )
    if seat is None or seat.user is None or confirmed_address(seat.user) is None:
        return False  # no one to mail, or only an address its owner has not confirmed
    if seat.awaited_since is None or seat.match.status != Match.Status.ACTIVE:
        return False  # they have moved (or the match is over)
    now = timezone.now()
    delay = float(settings.PARLOUR_TURN_MAIL_DELAY)
    if not turn_still_awaited(since=seat.awaited_since, turn=turn, delay=delay, now=now):
        return False  # a later turn than the task's: that turn's own task decides it
    seen, pushed = (
        MatchNotice.objects.filter(user_id=user_id, match_id=match_id)
        .values_list("seen_at", "turn_pushed_at")
        .first()
    ) or (None, None)
    if seen is not None and seen >= seat.awaited_since:
        return False  # they were at the table after it became their turn
    if turn_mail_waits_for_push(pushed_at=pushed, since=seat.awaited_since, now=now):
        return False  # a device has it: beat's sweep mails later if they still have not looked
    if not wants(user_id, TURN):
        return False
    previous = turn_mail_claim(user_id=user_id, match_id=match_id, now=now)
    if previous is False:
        return False
    try:
        notice_mail(user=seat.user, match=seat.match, kind=TURN).send()
    except Exception:
        # Give the claim back, so a retry (or the next turn) may send it.
        MatchNotice.objects.filter(user_id=user_id, match_id=match_id, turn_mailed_at=now).update(
            turn_mailed_at=previous
        )
        raise
    return True


# --- Deadline reminders -----------------------------------------------------------------------


def deadline_reminder_send(*, seat: Seat, now: datetime) -> bool:
    """Send one seat's reminder unless it went this turn already or they turned it off."""
    if confirmed_address(seat.user) is None or not wants(seat.user_id, DEADLINE):
        return False  # an address its owner has not confirmed is never mailed
    _notice_row(seat.user_id, seat.match_id)
    rows = MatchNotice.objects.filter(user_id=seat.user_id, match_id=seat.match_id)
    previous = rows.values_list("deadline_mailed_at", flat=True).first()
    claimed = rows.filter(
        Q(deadline_mailed_at=None) | Q(deadline_mailed_at__lt=seat.awaited_since)
    ).update(deadline_mailed_at=now)
    if claimed != 1:
        return False
    try:
        notice_mail(
            user=seat.user, match=seat.match, kind=DEADLINE, due=seat.match.deadline_at
        ).send()
    except Exception:
        rows.filter(deadline_mailed_at=now).update(deadline_mailed_at=previous)
        raise
    return True
