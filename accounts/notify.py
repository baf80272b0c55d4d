"""Telling people it is their turn: the seen mark, the mails, their rate limit and unsubscribing.

What is sent when (docs/notifications.md): a turn mail when a person becomes awaited, checked
``PARLOUR_TURN_MAIL_DELAY`` seconds later and skipped if they have looked at the table since,
have moved, or turned turn mails off, and at most once per match every
``PARLOUR_TURN_MAIL_EVERY`` seconds; a deadline reminder once per turn when 80% of a turn
deadline has gone. Both limits are conditional UPDATEs of the person's one ``MatchNotice`` row
for the match, so two workers deciding the same mail at once send it once. A beat sweep sends
the turn mails whose task never ran (``turn_mails_due``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import MatchNotice, NotificationSettings
from games.models import Match, Seat

logger = logging.getLogger(__name__)

TURN = "turn"
DEADLINE = "deadline"
KINDS = {TURN: "email_turn", DEADLINE: "email_deadline"}
UNSUBSCRIBE_SALT = "accounts.unsubscribe"
# The share of a turn deadline gone when the reminder goes.
REMINDER_AT = 0.8
# A vote with no turn deadline closes after this long (games.services._store says why).
VOTE_SPAN = timedelta(hours=24)


# --- Seen -------------------------------------------------------------------------------------


def seen_mark(*, user_id: int, match_id: int) -> None:
    """Record that the table was served to ``user_id`` in full, now: one upsert statement."""
    MatchNotice.objects.bulk_create(
        [MatchNotice(user_id=user_id, match_id=match_id, seen_at=timezone.now())],
        update_conflicts=True,
        unique_fields=["user", "match"],
        update_fields=["seen_at"],
    )


# --- Settings and unsubscribing ---------------------------------------------------------------


def settings_for(user_id: int) -> NotificationSettings:
    """The person's settings row, or unsaved defaults when they never changed anything."""
    found = NotificationSettings.objects.filter(user_id=user_id).first()
    return found or NotificationSettings(user_id=user_id)


def wants(user_id: int, kind: str) -> bool:
    return bool(getattr(settings_for(user_id), KINDS[kind]))


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token naming the person and the kind of mail: the one-click link's key."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: str


def unsubscribe_read(token: str) -> Unsubscribe | None:
    """The person and kind a token names, or ``None`` when it is forged, tampered or unknown."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user_id, kind = data.get("u"), data.get("k")
    if not isinstance(user_id, int) or kind not in KINDS:
        return None
    return Unsubscribe(user_id=user_id, kind=kind)


def unsubscribe_apply(target: Unsubscribe) -> bool:
    """Turn the kind off for the person; ``False`` when the person no longer exists."""
    if not get_user_model().objects.filter(pk=target.user_id).exists():
        return False
    NotificationSettings.objects.update_or_create(
        user_id=target.user_id, defaults={KINDS[target.kind]: False}
    )
    return True


def unsubscribe_url(user_id: int, kind: str) -> str:
    path = reverse("unsubscribe", kwargs={"token": unsubscribe_token(user_id, kind)})
    return f"{settings.PARLOUR_SITE_URL}{path}"


# --- The mails --------------------------------------------------------------------------------


def notice_mail(
    *, user, match: Match, kind: str, due: datetime | None = None
) -> EmailMultiAlternatives:
    """The mail of ``kind`` for ``user`` about ``match``: plain text and HTML, a link to the
    table, a one-click unsubscribe link and the RFC 8058 headers."""
    title = f"{match.get_game_display()} #{match.pk}"
    subject = f"Your turn in {title}" if kind == TURN else f"Your move in {title} is due soon"
    unsubscribe = unsubscribe_url(user.pk, kind)
    context = {
        "user": user,
        "kind": kind,
        "title": title,
        "due": due,
        "table_url": f"{settings.PARLOUR_SITE_URL}{reverse('match_detail', args=[match.pk])}",
        "settings_url": f"{settings.PARLOUR_SITE_URL}{reverse('notification_settings')}",
        "unsubscribe_url": unsubscribe,
    }
    mail = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("accounts/mail/notice.txt", context),
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    mail.attach_alternative(render_to_string("accounts/mail/notice.html", context), "text/html")
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


def turn_mail_send(*, match_id: int, user_id: int) -> bool:
    """Send the turn mail if it is still due; ``True`` when one went."""
    seat = (
        Seat.objects.select_related("match", "user")
        .filter(match_id=match_id, user_id=user_id)
        .first()
    )
    if seat is None or seat.user is None or not seat.user.email:
        return False
    if seat.awaited_since is None or seat.match.status != Match.Status.ACTIVE:
        return False  # they have moved (or the match is over)
    seen = (
        MatchNotice.objects.filter(user_id=user_id, match_id=match_id)
        .values_list("seen_at", flat=True)
        .first()
    )
    if seen is not None and seen >= seat.awaited_since:
        return False  # they were at the table after it became their turn
    if not wants(user_id, TURN):
        return False
    now = timezone.now()
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


def turn_mails_due(now: datetime) -> list[tuple[int, int]]:
    """``(match_id, user_id)`` of the people whose turn mail is due but never went: awaited for
    longer than the delay, not at the table since, no turn mail yet this turn, mail wanted.

    The mail's own task normally sends it; this finds the ones that task never ran for (a
    broker that was down when the turn began, a worker killed while it held the task for its
    countdown: Redis brings such a message back only after its visibility timeout, an hour).
    ``turn_mail_send`` decides each again, under the same claim, so a late original and this
    sweep send one mail between them.
    """
    due_before = now - timedelta(seconds=float(settings.PARLOUR_TURN_MAIL_DELAY))
    settled = MatchNotice.objects.filter(user_id=OuterRef("user_id"), match_id=OuterRef("match_id"))
    seen_or_mailed = settled.filter(
        Q(seen_at__gte=OuterRef("awaited_since")) | Q(turn_mailed_at__gte=OuterRef("awaited_since"))
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


# --- Deadline reminders -----------------------------------------------------------------------


def reminders_due(now: datetime) -> list[Seat]:
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
        .select_related("match", "user")
        .order_by("match__deadline_at")[:500]
    )


def deadline_reminder_send(seat: Seat, now: datetime) -> bool:
    """Send one seat's reminder unless it went this turn already or they turned it off."""
    if not seat.user.email or not wants(seat.user_id, DEADLINE):
        return False
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
