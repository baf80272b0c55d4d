"""The turn mail sent by a real Celery worker on Redis (the pattern of ``test_workers.py``).

The worker runs in a thread of this process and reads the same database, so the test commits
for real (``transaction=True``); the move's on-commit hook sends ``accounts.turn_mail`` to Redis
and the worker sends the mail into Django's locmem outbox, which the test watches. The task
lives in ``games.tasks`` and kept its ``accounts.`` name (``games.queue`` says why).
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


def test_a_persons_move_against_a_person_sends_exactly_one_mail_through_the_worker(
    settings, worker
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PARLOUR_TURN_MAIL_DELAY = 0
    mail.outbox = []
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    match.refresh_from_db()
    mover_seat = match.awaiting[0]
    mover = match.seats.get(index=mover_seat).user
    waiting = bea if mover == ann else ann
    client = factories.client_for(mover)
    # The start's own turn mail (for the first player) may go too; only the move's is counted.
    wait_for(lambda: "accounts.turn_mail" in worker, "the start's turn mail task")
    mail.outbox = []
    worker.clear()
    while match.awaiting == [mover_seat]:  # a whole turn: a draw, then a card
        move = factories.legal_moves(match, mover_seat)[0]
        assert factories.post_move(client, match, move).status_code == 200
        match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    wait_for(lambda: len(worker.get("accounts.turn_mail", [])) >= 1, "the worker's turn mail")
    time.sleep(0.5)  # room for a second (wrong) mail to arrive
    assert [m.to for m in mail.outbox] == [[waiting.email]]
    assert mail.outbox[0].subject == f"Your turn in The Faraway Tree #{match.pk}"
    [(match_id, user_id, version, turn)] = worker["accounts.turn_mail"]
    assert (match_id, user_id, version) == (match.pk, waiting.pk, match.version)
    # The turn it belongs to, through Redis and back: stamped once the seat became awaited.
    since = Seat.objects.get(match=match, user=waiting).awaited_since
    assert datetime.fromisoformat(turn) >= since
    assert MatchNotice.objects.get(user=waiting, match=match).turn_mailed_at is not None
