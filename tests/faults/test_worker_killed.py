"""A Celery worker SIGKILLed in the middle of a strong bot's decision: once a new worker runs,
that turn is played exactly once (the sweeper re-sends it; the killed message, redelivered or
re-sent, is refused by the match version), and the match moves on."""

from __future__ import annotations

import re
import time

from games.models import Match, Move
from games.services import match_create
from games.tasks import bot_turn
from tests import factories
from tests.faults.conftest import SWEEP_AFTER, SWEEP_EVERY, person, visitor_for
from tests.faults.test_postgres_restart import bot_answered, person_turn
from tests.polling import wait_for

THINKING_MS = 4000  # the killed worker's strong bot: long enough to be killed mid-thought
TRIES = 6  # bot turns to try: a decision with one sensible move can end at once


def _received(log: str) -> int:
    return len(re.findall(r"Task games\.bot_turn\[[^\]]+\] received", log))


def test_a_bot_turn_cut_by_sigkill_is_played_once_after_a_new_worker_starts(stack):
    stack.web(asgi=True)  # as the Procfile serves
    stack.beat()
    first = stack.worker(PARLOUR_BOT_STRONG_BUDGET_MS=str(THINKING_MS))
    ann = person("ann")
    visitor = visitor_for(stack, ann)
    match = match_create(game="faraway", num_players=2, created_by=ann, bots={1: "strong"}, seed=8)

    killed_at = None
    for _ in range(TRIES):
        match.refresh_from_db()
        if match.awaiting == [0]:
            seen = _received(first.output())
            person_turn(match, visitor)
        else:
            seen = 0  # the bot opens: its first decision is the one to cut
        version = match.version
        wait_for(lambda n=seen: _received(first.output()) > n, "the bot's turn to start", 30)
        time.sleep(1.0)  # a quarter into its thinking
        match.refresh_from_db()
        if match.version == version:
            first.kill()
            killed_at = time.monotonic()
            break
        bot_answered(match)  # it decided at once; cut the next one
    assert killed_at is not None, f"no bot decision lasted a second in {TRIES} turns"

    match.refresh_from_db()
    assert match.version == version and match.awaiting == [1], "killed before its move"
    ply = match.ply
    time.sleep(SWEEP_AFTER + SWEEP_EVERY)  # no worker: nothing may move meanwhile
    match.refresh_from_db()
    assert match.version == version

    second = stack.worker(PARLOUR_BOT_STRONG_BUDGET_MS="300")
    wait_for(
        lambda: Move.objects.filter(match=match, ply=ply + 1).exists(),
        "the cut turn played by the new worker",
        timeout=30,
    )
    played_after = time.monotonic() - killed_at
    bot_answered(match)
    cut = Move.objects.get(match=match, ply=ply + 1)
    assert cut.seat == 1

    # The killed message, as a redelivery would bring it (Redis keeps it unacknowledged until
    # the visibility timeout, an hour): refused by the version, nothing played twice.
    before = Move.objects.filter(match=match).count()
    bot_turn.apply_async((match.pk, version))
    refusal = f"bot_turn({match.pk}, {version}) refused, already moved on"
    wait_for(lambda: refusal in second.output(), "the stale message's refusal", timeout=30)
    assert Move.objects.filter(match=match).count() == before
    assert "Traceback" not in second.output()

    person_turn(match, visitor)  # the match moves on
    bot_answered(match)
    print(f"killed mid-decision; the turn was played {played_after:.1f} s after the kill")
    assert Match.objects.get(pk=match.pk).status in (Match.Status.ACTIVE, Match.Status.FINISHED)
    factories.assert_replays(match)
