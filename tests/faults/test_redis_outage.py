"""Redis stopped mid-match: people keep playing, each move committed and answered within 0.5 s
of normal; a bot's turn waits for Redis, then is played with nobody acting (the worker and beat
reconnect, the sweeper re-sends it).

The one timed assertion here is the issue's bound (normal + 0.5 s, against the slowest of the
normal moves measured in this test on the same stack). Before the bound, a move sent while
Redis refused connections waited ~6 s in kombu's connect retries.
"""

from __future__ import annotations

import time

from tests import factories
from tests.faults.conftest import SWEEP_AFTER, SWEEP_EVERY
from tests.faults.play import (
    MARGIN,
    bot_answered,
    person_turn,
    timed_moves,
    two_matches_served,
)

MOVES = 4


def test_people_play_on_while_redis_is_down_and_bots_resume_after(stack):
    people, visitors, with_bot, ann_alone = two_matches_served(stack)
    bot_answered(with_bot)

    for visitor in visitors.values():
        assert visitor.table(people.pk).status == 200
    timed_moves(people, visitors, 4)  # warm-up: each gunicorn worker's first requests
    normal = timed_moves(people, visitors, MOVES)

    stack.redis.stop()
    try:
        down = timed_moves(people, visitors, MOVES)
        person_turn(with_bot, ann_alone)  # the bot's turn now, and no broker to send it
        stalled_at = with_bot.ply
        # With Redis up, the bot answers within a sweep; down, it must not move at all.
        time.sleep(SWEEP_AFTER + 2 * SWEEP_EVERY)
        with_bot.refresh_from_db()
        assert with_bot.ply == stalled_at and with_bot.awaiting == [1]
    finally:
        stack.redis.start()
    back = time.monotonic()

    bot_answered(with_bot, timeout=60)  # nobody acts: worker and beat reconnect, sweeper sends
    resumed_after = time.monotonic() - back
    print(f"normal moves {normal}; during the outage {down}; bot resumed {resumed_after:.1f} s")
    assert max(down) <= max(normal) + MARGIN, (down, normal)
    assert timed_moves(people, visitors, 1)

    web_log = next(p for p in stack.processes if p.name == "web").output()
    assert "broker down: could not send" in web_log  # what the operator sees
    for match in (people, with_bot):
        factories.assert_replays(match)
