"""The hub's hand-out of published messages to its listeners (games/live/hub.py), without Redis:
which listeners a message wakes, that a listener keeps only the newest table it was told, and
that garbage on the channel is dropped."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from games.live.hub import HEAD_START, Hub


def _hub() -> Hub:
    return Hub("redis://127.0.0.1:1/0", "test")


def test_a_table_message_wakes_that_matchs_listeners_and_named_people_recount():
    async def run() -> None:
        hub = _hub()
        seven, eight, badge_only = hub.listen(7, 1), hub.listen(8, 2), hub.listen(None, 3)
        hub.dispatch(json.dumps({"m": 7, "v": 12, "p": 0, "u": [3]}))
        assert seven.wake.is_set() and seven.table == (12, 0) and not seven.badge
        assert not eight.wake.is_set() and eight.table is None
        assert badge_only.badge and badge_only.table is None
        hub.dispatch(json.dumps({"u": [1, 2]}))
        assert seven.badge and eight.badge

    asyncio.run(run())


def test_a_listener_keeps_the_newest_table_only():
    async def run() -> None:
        hub = _hub()
        listener = hub.listen(7, 1)
        for version, phrases in ((12, 0), (14, 0), (13, 5), (14, 1)):
            hub.dispatch(json.dumps({"m": 7, "v": version, "p": phrases}))
        assert listener.table == (14, 1)

    asyncio.run(run())


@pytest.mark.parametrize(
    "raw", [b"", b"not json", b"[]", b'{"m": 7}', b'{"m": 7, "v": "x"}', b'{"u": [null]}', b"\xff"]
)
def test_garbage_on_the_channel_is_dropped(raw, caplog):
    async def run() -> None:
        hub = _hub()
        listener = hub.listen(7, 1)
        hub.dispatch(raw)
        assert not listener.wake.is_set()

    asyncio.run(run())
    assert "unreadable message dropped" in caplog.text


def test_forgotten_listeners_leave_no_trace():
    async def run() -> None:
        hub = _hub()
        a, b = hub.listen(7, 1), hub.listen(None, 1)
        assert hub.streams == 2
        hub.forget(a)
        hub.forget(b)
        assert hub.streams == 0 and not hub.index.by_match and not hub.index.by_user

    asyncio.run(run())


def _seat_and_watchers(hub: Hub, watching: int) -> tuple[Any, list[Any]]:
    """A seat and ``watching`` watchers of match 7, told of version 12 now."""
    seat = hub.listen(7, 1, member=True)
    watchers = [hub.listen(7, 100 + i, member=False) for i in range(watching)]
    hub.dispatch(json.dumps({"m": 7, "v": 12, "p": 0}))
    return seat, watchers


def test_members_are_told_at_once_and_watchers_within_the_spread(settings):
    """Where watchers fetch their partial (their streams carry no table)."""
    settings.PARLOUR_LIVE_SPREAD = 0.3
    settings.PARLOUR_WATCHER_RENDER_SECONDS = 0

    async def run() -> None:
        started = asyncio.get_running_loop().time()
        seat, watchers = _seat_and_watchers(_hub(), 200)
        assert seat.table == (12, 0)
        assert sum(w.table is not None for w in watchers) < len(watchers)
        await asyncio.gather(*(w.wake.wait() for w in watchers))
        took = asyncio.get_running_loop().time() - started
        assert all(w.table == (12, 0) for w in watchers)
        assert took <= HEAD_START + 0.3 + 0.2

    asyncio.run(run())


def test_a_lone_watcher_waits_a_few_milliseconds_at_most(settings):
    settings.PARLOUR_LIVE_SPREAD = 2.0

    async def run() -> None:
        hub = _hub()
        watcher = hub.listen(7, 5, member=False)
        started = asyncio.get_running_loop().time()
        hub.dispatch(json.dumps({"m": 7, "v": 3, "p": 0}))
        await asyncio.wait_for(watcher.wake.wait(), 1.0)
        assert asyncio.get_running_loop().time() - started < HEAD_START + 0.5
        assert watcher.table == (3, 0)

    asyncio.run(run())


def test_watchers_whose_streams_carry_the_table_are_told_together(settings):
    """Their streams carry the table itself (games/live/watch.py): no fetch to spread, so every
    watcher is told at once, ``HEAD_START`` after the members."""
    settings.PARLOUR_LIVE_SPREAD = 2.0
    settings.PARLOUR_WATCHER_RENDER_SECONDS = 300

    async def run() -> None:
        hub = _hub()
        seat, watchers = _seat_and_watchers(hub, 300)
        assert seat.table == (12, 0) and all(w.table is None for w in watchers)
        await asyncio.wait_for(watchers[0].wake.wait(), 1.0)
        assert all(w.table == (12, 0) for w in watchers)  # the same moment for all of them
        # What a stream that falls back to a fetch waits at most: 4 ms a stream of the match.
        assert hub.spread(7) == pytest.approx(0.004 * 301)

    asyncio.run(run())
