"""The one index of a process's streams (games/live/index.py), kept by both hubs: Redis's
(games/live/hub.py) and the local socket's (games/live/local.py)."""

from __future__ import annotations

import asyncio

from games.live.hub import Hub, Listener
from games.live.index import StreamIndex
from games.live.local import LocalHub


def test_listeners_are_found_by_match_and_by_person_and_forgotten_without_a_trace():
    index: StreamIndex[Listener] = StreamIndex()

    async def run() -> None:
        seven, also_seven, badge_only = Listener(7, 1), Listener(7, 2), Listener(None, 1)
        for listener in (seven, also_seven, badge_only):
            assert index.add(listener) is listener
        assert set(index.of_match(7)) == {seven, also_seven} and index.of_match(8) == []
        assert set(index.of_users([1, 3])) == {seven, badge_only}
        assert set(index.everyone()) == {seven, also_seven, badge_only}
        assert (index.watching(7), index.watching(8), len(index)) == (2, 0, 3)
        for listener in (seven, also_seven, badge_only, badge_only):  # twice: no error
            index.forget(listener)
        assert len(index) == 0 and not index.by_match and not index.by_user

    asyncio.run(run())


def test_both_hubs_keep_their_streams_in_the_one_index(tmp_path):
    async def run() -> None:
        hub = Hub("redis://127.0.0.1:1/0", "test")
        listener = hub.listen(7, 1)
        assert isinstance(hub.index, StreamIndex) and hub.index.of_match(7) == [listener]

    asyncio.run(run())
    local = LocalHub(str(tmp_path / "live.sock"))
    listener = local.listen(7, 1)
    assert isinstance(local.index, StreamIndex) and local.index.of_match(7) == [listener]
    local.forget(listener)
    assert local.streams == 0
