"""Celery tasks: thin interfaces taking ids, calling the same services a person's move uses.

The tasks import the services; the services never import this module: they send work by task
name through ``games.queue`` (whose names these tasks are registered under).

Every task is idempotent through the match version: a duplicate, late or swept-up task finds the
version moved on, and the service refuses it with ``StaleVersion``, which the task logs and
swallows. Anything else is a real failure and is raised.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import Task, shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import queue
from games.engines import registered
from games.models import AnalysisStatus, Match
from games.push.turn import turn_push_send
from games.selectors.notifications import reminders_due, turn_mails_due, turn_of_task
from games.services import (
    StaleVersion,
    bot_move_play,
    match_deadline_enforce,
    match_next_round,
)
from games.services.analysis import analysis_run
from games.services.invitation_mail import invitation_mail_send
from games.services.invitations import invitations_expire as invitations_expire_now
from games.services.notifications import (
    deadline_reminder_send,
    turn_mail_send,
    turn_notices_later,
)
from games.services.quick import quick_bot_fill_due
from games.services.ratings import ratings_update_due

logger = logging.getLogger(__name__)

# Move tasks must survive a worker's death: acknowledged only once done, and requeued when the
# worker running them is lost (prefetch 1 is in settings). The version check makes a rerun safe.
MOVE_TASK = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}
# Mails and the turn push too: a rerun is refused by the conditional UPDATEs of
# games.services.notifications and by the push's claim (games.push.turn).
MAIL_TASK = MOVE_TASK


@shared_task(name=queue.BOT_TURN, **MOVE_TASK)
def bot_turn(match_id: int, version: int) -> None:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        logger.info("bot_turn: match %s is gone", match_id)
        return
    try:
        played = bot_move_play(match=match, expected_version=version)
    except StaleVersion as exc:
        logger.info("bot_turn(%s, %s) refused, already moved on: %s", match_id, version, exc)
        return
    if played is None:
        logger.info("bot_turn(%s, %s): no bot is awaited", match_id, version)


@shared_task(name=queue.ROUND_NEXT, **MOVE_TASK)
def round_next(match_id: int, version: int) -> None:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        logger.info("round_next: match %s is gone", match_id)
        return
    try:
        match_next_round(match=match, expected_version=version)
    except StaleVersion as exc:
        logger.info("round_next(%s, %s) refused, already dealt: %s", match_id, version, exc)


@shared_task(name="games.sweep_stalled", ignore_result=True)
def sweep_stalled() -> int:
    """Re-enqueue matches waiting on a bot or on a deal whose version has sat still too long.

    A lost message or a dead worker then delays a bot's turn by about the sweep threshold, and
    never stalls the match. A rerun of a task still in flight is refused by the version check.
    """
    cutoff = timezone.now() - timedelta(seconds=float(settings.PARLOUR_SWEEP_AFTER))
    # Games whose rounds end with nobody awaited, until the server deals the next one.
    with_rounds = [engine.name for engine in registered() if engine.has_rounds]
    candidates = (
        Match.objects.filter(status=Match.Status.ACTIVE, updated_at__lt=cutoff)
        .filter(
            Q(seats__bot_level__isnull=False)
            | Q(seats__resigned_ply__isnull=False)  # the greedy bot plays a resigned seat
            | Q(game__in=with_rounds)
        )
        .values("pk")
    )
    # By id, so the join with seats needs no DISTINCT over the rows' JSON snapshots.
    stalled = (
        Match.objects.filter(pk__in=candidates)
        .only("pk", "game", "version", "awaiting")
        .prefetch_related("seats")
    )
    count = 0
    for match in stalled:
        if not match.awaiting:
            if match.game in with_rounds:  # a round is over and waits for its deal
                enqueue(round_next, match.pk, match.version, 0.0)
                count += 1
            continue
        bots = {s.index for s in match.seats.all() if s.bot_plays}
        if bots.intersection(match.awaiting):
            enqueue(bot_turn, match.pk, match.version, 0.0)
            count += 1
    if count:
        logger.info("sweep_stalled: re-enqueued %s match(es)", count)
    return count


@shared_task(name="games.enforce_deadlines", ignore_result=True)
def enforce_deadlines() -> int:
    """Play the turns and close the votes whose deadline has passed."""
    now = timezone.now()
    played = 0
    due = Match.objects.filter(status=Match.Status.ACTIVE, deadline_at__lte=now)
    for match in due.order_by("deadline_at")[:500]:
        played += match_deadline_enforce(match=match, now=now)
    if played:
        logger.info("enforce_deadlines: played %s move(s)", played)
    return played


@shared_task(name="games.quick_bot_fill", ignore_result=True)
def quick_bot_fill() -> int:
    """Seat the greedy bot at the Play now tables whose "fill with a bot after N hours" has
    passed, and start them (docs/quick-match.md); on the deadline sweep's beat."""
    started = quick_bot_fill_due(now=timezone.now())
    if started:
        logger.info("quick_bot_fill: filled %s table(s)", started)
    return started


@shared_task(name="games.invitations_expire", ignore_result=True)
def invitations_expire() -> int:
    """Mark the challenges and rematch offers past their time expired (docs/invitations.md)."""
    return invitations_expire_now()


@shared_task(name=queue.RATINGS_UPDATE, **MOVE_TASK)
def ratings_update(match_id: int | None = None, version: int | None = None) -> int:
    """Rate every finished match still pending, oldest finish first (docs/ratings.md).

    Enqueued on the commit that ends a match (its id and version ride along for the logs
    only: the run takes every pending match, in order) and run by beat every minute as the
    sweeper. Idempotent: each match is rated under its row lock and a unique constraint, so a
    duplicate or a rerun after a killed worker rates nothing twice.
    """
    done = ratings_update_due()
    if done:
        logger.info("ratings_update (after match %s): %s match(es) rated", match_id, done)
    return done


@shared_task(name=queue.MATCH_ANALYSE, **MOVE_TASK)
def match_analyse(match_id: int, version: int | None = None) -> None:
    """Run a slice of the post-game analysis of the match (docs/analysis.md), then send the rest.

    Each run judges decisions for about ``PARLOUR_ANALYSIS_SLICE_S`` seconds and, if some are
    left, sends this task again through ``enqueue`` and returns: the continuation queues behind
    the bot moves and deals sent meanwhile, so they run between slices. If the broker refuses
    the continuation, the run carries on with the next slice itself rather than drop it.
    Enqueued on the commit that asked for it (``version`` rides along for the logs only).
    Idempotent: each decision is written once under a unique constraint and the analysis row's
    lock, so two continuations at once or a rerun after a killed worker judge only what is
    left, and a done analysis is left as it is. A lost continuation leaves the analysis still,
    and asking again after ``STALLED_AFTER`` sends it once more.
    """
    slice_s = float(settings.PARLOUR_ANALYSIS_SLICE_S)
    while True:
        analysis = analysis_run(match_id=match_id, slice_s=slice_s)
        if analysis is None:
            logger.info("match_analyse(%s): no analysis was asked for", match_id)
            return
        if analysis.status != AnalysisStatus.RUNNING:
            break
        if enqueue(match_analyse, match_id, version):
            break
        logger.warning("match_analyse(%s): continuation not sent, going on here", match_id)
    logger.info(
        "match_analyse(%s, %s): %s, %s of %s decision(s)",
        match_id,
        version,
        analysis.status,
        analysis.decisions_done,
        analysis.decisions_total,
    )


# --- Turn mails, the turn push and deadline reminders -------------------------------------------
# They moved here from accounts.tasks and kept their "accounts." names: a queued message and
# beat's schedule carry the name, and a turn mail or push sent before a deploy (seconds to
# minutes of countdown) must still find its task after it. All are safe to run twice: the
# conditional UPDATEs in games.services.notifications and games.push.turn let one delivery send
# and refuse the rest.


@shared_task(name=queue.TURN_MAIL, **MAIL_TASK)
def turn_mail(match_id: int, user_id: int, version: int, turn: str | None = None) -> bool:
    """Mail ``user_id`` that ``match_id`` waits for them (state ``version`` made it so, in the
    turn stamped ``turn``), unless that turn is over, they have looked at the table since,
    turned it off, or had one in the last 12 h. A task queued before tasks carried ``turn``
    mails only a turn awaited for the whole delay, as the sweep does."""
    sent = turn_mail_send(match_id=match_id, user_id=user_id, turn=turn_of_task(turn))
    logger.info(
        "turn_mail(%s, %s, v%s): %s", match_id, user_id, version, (sent and "sent") or "skipped"
    )
    return sent


@shared_task(name=queue.TURN_PUSH, **MAIL_TASK)
def turn_push(match_id: int, user_id: int, version: int, turn: str | None = None) -> int:
    """Push to ``user_id``'s devices that ``match_id`` waits for them (state ``version`` made
    it so, in the turn stamped ``turn``), unless that turn is over, they have looked at the
    table since, turned pushes off, or had this turn's push; a rerun is refused by the push's
    claim. How many devices took it. Without ``turn`` (an older task): as for ``turn_mail``."""
    sent = turn_push_send(match_id=match_id, user_id=user_id, turn=turn_of_task(turn))
    logger.info("turn_push(%s, %s, v%s): %s device(s)", match_id, user_id, version, sent)
    return sent


# What ``turn_notice`` runs for each notice due when it runs.
TURN_NOTICES = {queue.TURN_PUSH: turn_push, queue.TURN_MAIL: turn_mail}


@shared_task(name=queue.TURN_NOTICE, **MAIL_TASK)
def turn_notice(match_id: int, user_id: int, version: int, turn: str) -> None:
    """The one task a turn change sends (``turn_mails_enqueue``), when the soonest of the
    turn's notices is due: it runs each notice due now (``turn_push``, ``turn_mail``, called
    here) and sends each later one as its own task, its countdown counted from the turn. A
    notice that fails does not keep the others from going; the first failure is raised after."""
    failed: Exception | None = None
    since = datetime.fromisoformat(turn)
    for name, countdown in turn_notices_later(turn=since, now=timezone.now()):
        if countdown > 0:
            queue.send(name, match_id, user_id, version, turn, countdown=countdown, must_wait=True)
            continue
        try:
            TURN_NOTICES[name](match_id, user_id, version, turn)
        except Exception as exc:  # raised below, once the others have gone
            logger.exception(
                "turn_notice(%s, %s, v%s): %s failed", match_id, user_id, version, name
            )
            failed = failed or exc
    if failed is not None:
        raise failed


@shared_task(name=queue.INVITATION_MAIL, **MAIL_TASK)
def invitation_mail(invitation_id: int) -> bool:
    """Mail the person invited (a challenge or a rematch offer), once, if they want it."""
    sent = invitation_mail_send(invitation_id=invitation_id)
    logger.info("invitation_mail(%s): %s", invitation_id, (sent and "sent") or "skipped")
    return sent


@shared_task(name="accounts.turn_mails_sweep", ignore_result=True)
def turn_mails_sweep() -> int:
    """Send the turn mails that are due but whose own task never ran (lost with a broker that
    was down, or held by a worker that was killed); beat runs it with the reminders."""
    sent = 0
    for match_id, user_id in turn_mails_due(now=timezone.now()):
        sent += turn_mail_send(match_id=match_id, user_id=user_id)
    if sent:
        logger.info("turn_mails_sweep: sent %s turn mail(s) whose task never ran", sent)
    return sent


@shared_task(name="accounts.deadline_reminders", ignore_result=True)
def deadline_reminders() -> int:
    """Remind each person whose turn deadline is 80% gone, once per turn."""
    now = timezone.now()
    sent = 0
    for seat in reminders_due(now=now):
        sent += deadline_reminder_send(seat=seat, now=now)
    if sent:
        logger.info("deadline_reminders: sent %s", sent)
    return sent


# --- Sending ------------------------------------------------------------------------------------


def enqueue(task: Task, match_id: int, version: int | None, countdown: float = 0.0) -> bool:
    """Send ``task(match_id, version)`` now, to run after ``countdown`` seconds; ``False`` if
    the broker is down and it was not sent (``games.queue.send`` says how, and what eager mode
    does). For the tasks' own sends: a sweep's resend, an analysis's continuation.
    """
    return queue.send(task.name, match_id, version, countdown=countdown)
