"""The turn mail sent by a real Celery worker on Redis (the pattern of ``test_workers.py``).

The worker runs in a thread of this process and reads the same database, so the test commits
for real (``transaction=True``); the move's on-commit hook sends the turn's one task,
``games.turn_notice``, to Redis, and the worker, the mail being due at once, sends it into Django's
locmem outbox, which the test watches (the push, due later, goes on as its own task).
"""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from django.core import mail

import games.tasks  # noqa: F401  (registers the tasks before any worker test: see below)
from games.models import Match, MatchNotice, Seat
from tests import factories
from tests.polling import wait_for

# Celery's test app fixture (``setup_default_app``) forgets, when its test ends, the shared
# tasks whose module was first imported during that test; a later worker test's app would then
# lack them. Imported here, at collection, the tasks are known to every worker test's app.

pytestmark = [
    pytest.mark.services("postgres", "redis"),
    pytest.mark.django_db(transaction=True),
]


def _turn_played(worker: dict[str, list], start_task: str) -> tuple[Match, object]:
    """A match of two people whose first mover plays a whole turn (a draw, then a card) over
    HTTP, once ``start_task`` of the start's own notices (for the first player) has run; the
    outbox and the worker's record are cleared in between, so only the move's count. The match
    after it, and the person now awaited."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    match.refresh_from_db()
    mover_seat = match.awaiting[0]
    mover = match.seats.get(index=mover_seat).user
    waiting = bea if mover == ann else ann
    client = factories.client_for(mover)
    wait_for(lambda: start_task in worker, "the start's notices")
    mail.outbox = []
    worker.clear()
    while match.awaiting == [mover_seat]:
        move = factories.legal_moves(match, mover_seat)[0]
        assert factories.post_move(client, match, move).status_code == 200
        match.refresh_from_db()
    return match, waiting


def test_a_persons_move_against_a_person_sends_exactly_one_mail_through_the_worker(
    settings, worker
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PARLOUR_TURN_MAIL_DELAY = 0
    match, waiting = _turn_played(worker, "games.turn_notice")
    assert match.status == Match.Status.ACTIVE
    wait_for(lambda: len(worker.get("games.turn_notice", [])) >= 1, "the worker's turn notice")
    time.sleep(0.5)  # room for a second (wrong) mail to arrive
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    assert mail.outbox[0].subject == f"Your turn in The Faraway Tree #{match.pk}"
    [(match_id, user_id, version, turn)] = worker["games.turn_notice"]
    assert (match_id, user_id, version) == (match.pk, waiting.pk, match.version)
    # The turn it belongs to, through Redis and back: stamped once the seat became awaited.
    since = Seat.objects.get(match=match, user=waiting).awaited_since
    assert datetime.fromisoformat(turn) >= since
    assert MatchNotice.objects.get(user=waiting, match=match).turn_mailed_at is not None


def test_a_turn_change_sends_one_task_which_pushes_and_hands_the_mail_on(settings, worker):
    """The move's request sends the turn's one task (issue 35: one send, not one a notice); the
    worker runs the push, due at once, inside it, and sends the mail as its own task, due a
    second after the turn, which the worker then runs and mails."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PARLOUR_TURN_PUSH_DELAY = 0
    settings.PARLOUR_TURN_MAIL_DELAY = 1
    match, waiting = _turn_played(worker, "accounts.turn_mail")
    wait_for(lambda: "accounts.turn_mail" in worker, "the mail handed on")
    time.sleep(0.5)  # room for a second (wrong) task to arrive
    turn = (match.pk, waiting.pk, match.version)
    assert {name: [args[:3] for args in runs] for name, runs in worker.items()} == {
        "games.turn_notice": [turn],
        "accounts.turn_mail": [turn],
    }
    [(*_, sent_for)] = worker["accounts.turn_mail"]
    assert sent_for == worker["games.turn_notice"][0][3]  # the same turn's stamp
    assert [m.to for m in mail.outbox] == [[waiting.email]]
