"""The turn push: telling a person's devices that a match waits for their move
(docs/notifications.md, "Web push").

``games.services.notifications.turn_mails_enqueue`` sends the turn's one task
(``queue.TURN_NOTICE``) after the commit, ``PARLOUR_TURN_PUSH_DELAY`` seconds ahead (the sooner
of the push's and the mail's delays); it runs ``games.tasks.turn_push`` (or sends it, when the
mail is due first), which calls ``turn_push_send``, which pushes only if the person is still
awaited in that turn (the task carries it: docs/notifications.md, "A mail belongs to one
turn"), has not looked at the table since it began, keeps turn pushes on, and had no push this
turn (a conditional UPDATE of their ``MatchNotice`` row, so a task delivered twice
pushes once). The push says the game and the match's number, and links to its table: nothing
from the state.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import PushSubscription
from accounts.selectors.language import mail_language_of
from accounts.selectors.notify import TURN, push_wanted
from games.models import Match, MatchNotice, Seat
from games.push.delivery import PushMessage, push_deliver
from games.selectors.notifications import turn_still_awaited


def turn_push_message(match: Match, language: str | None = None) -> PushMessage:
    """What a turn push says about ``match``: public facts only (its game and number), in
    ``language`` (the recipient's; None: the one active)."""
    with translation.override(language or translation.get_language()):
        title = _("Your turn: %(title)s") % {"title": f"{match.get_game_display()} #{match.pk}"}
        body = _("Open the table to play your move.")
    return PushMessage(
        title=title,
        body=body,
        url=reverse("match_detail", args=[match.pk]),
        topic=f"match-{match.pk}",
    )


def turn_push_send(*, match_id: int, user_id: int, turn: datetime | None = None) -> int:
    """Push the turn to the person's devices if it is still due; how many took it.

    ``turn``: the turn the task was sent for (``turn_mails_enqueue``'s stamp); a push of
    another turn is not sent. ``None`` (a task queued before tasks carried it): only for a turn
    awaited at least ``PARLOUR_TURN_PUSH_DELAY`` seconds.
    """
    seat = Seat.objects.select_related("match").filter(match_id=match_id, user_id=user_id).first()
    if seat is None or seat.awaited_since is None or seat.match.status != Match.Status.ACTIVE:
        return 0  # they have moved, or the match is over
    delay = float(settings.PARLOUR_TURN_PUSH_DELAY)
    if not turn_still_awaited(since=seat.awaited_since, turn=turn, delay=delay, now=timezone.now()):
        return 0  # a later turn than the task's: that turn's own task decides it
    if not PushSubscription.objects.filter(user_id=user_id).exists():
        return 0  # no device: no claim either, nothing for the mail to wait for
    if not push_wanted(user_id, TURN):
        return 0
    MatchNotice.objects.bulk_create(
        [MatchNotice(user_id=user_id, match_id=match_id)], ignore_conflicts=True
    )
    rows = MatchNotice.objects.filter(user_id=user_id, match_id=match_id)
    if rows.filter(seen_at__gte=seat.awaited_since).exists():
        return 0  # they were at the table after it became their turn
    now = timezone.now()
    previous = rows.values_list("turn_pushed_at", flat=True).first()
    claimed = rows.filter(Q(turn_pushed_at=None) | Q(turn_pushed_at__lt=seat.awaited_since)).update(
        turn_pushed_at=now
    )
    if claimed != 1:
        return 0  # pushed this turn already
    message = turn_push_message(seat.match, mail_language_of(user_id))
    delivery = push_deliver(user_id=user_id, message=message)
    if delivery.sent == 0:
        # No device took it: the mail must not wait for a push nobody got.
        rows.filter(turn_pushed_at=now).update(turn_pushed_at=previous)
    return delivery.sent
