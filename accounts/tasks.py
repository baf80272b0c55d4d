"""Celery tasks for notifications: the turn mail (enqueued on commit, after a delay), beat's
sweep for turn mails whose task never ran, and beat's deadline reminders. All are safe to run
twice: the conditional UPDATEs in ``accounts.notify`` let one delivery send and refuse the
rest."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from accounts import notify

logger = logging.getLogger(__name__)

MAIL_TASK = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="accounts.turn_mail", **MAIL_TASK)
def turn_mail(match_id: int, user_id: int, version: int) -> bool:
    """Mail ``user_id`` that ``match_id`` waits for them (state ``version`` made it so), unless
    they have looked at the table since, moved, turned it off, or had one in the last 12 h."""
    sent = notify.turn_mail_send(match_id=match_id, user_id=user_id)
    logger.info(
        "turn_mail(%s, %s, v%s): %s", match_id, user_id, version, (sent and "sent") or "skipped"
    )
    return sent


@shared_task(name="accounts.turn_mails_sweep", ignore_result=True)
def turn_mails_sweep() -> int:
    """Send the turn mails that are due but whose own task never ran (lost with a broker that
    was down, or held by a worker that was killed); beat runs it with the reminders."""
    sent = 0
    for match_id, user_id in notify.turn_mails_due(timezone.now()):
        sent += notify.turn_mail_send(match_id=match_id, user_id=user_id)
    if sent:
        logger.info("turn_mails_sweep: sent %s turn mail(s) whose task never ran", sent)
    return sent


@shared_task(name="accounts.deadline_reminders", ignore_result=True)
def deadline_reminders() -> int:
    """Remind each person whose turn deadline is 80% gone, once per turn."""
    now = timezone.now()
    sent = 0
    for seat in notify.reminders_due(now):
        sent += notify.deadline_reminder_send(seat, now)
    if sent:
        logger.info("deadline_reminders: sent %s", sent)
    return sent
