"""core/page_queue.py: under the ASGI server at most PARLOUR_ASGI_PAGES pages run at once in a
process and the rest wait their turn in arrival order; live streams and lifespan pass by."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.page_queue import PageQueue


class Pages:
    """An ASGI app whose requests run until released, recording how many run at once."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.started: list[str] = []
        self.release = asyncio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        self.started.append(scope.get("path", scope["type"]))
        try:
            if scope.get("path", "").startswith("/slow"):
                await self.release.wait()
        finally:
            self.running -= 1


async def _nothing() -> dict[str, Any]:
    return {}


async def _ignore(message: Any) -> None:
    return None


def _call(queue: PageQueue, path: str, kind: str = "http") -> asyncio.Task[None]:
    scope = {"type": kind, "path": path}
    return asyncio.ensure_future(queue(scope, _nothing, _ignore))


def test_pages_beyond_the_limit_wait_their_turn_in_order():
    async def run() -> None:
        pages = Pages()
        queue = PageQueue(pages, 2)
        tasks = [_call(queue, f"/slow/{i}") for i in range(5)]
        await asyncio.sleep(0.05)
        assert pages.started == ["/slow/0", "/slow/1"]
        pages.release.set()
        await asyncio.gather(*tasks)
        assert pages.most == 2
        assert pages.started == [f"/slow/{i}" for i in range(5)]

    asyncio.run(run())


def test_streams_and_lifespan_pass_a_full_queue():
    async def run() -> None:
        pages = Pages()
        queue = PageQueue(pages, 1)
        slow = _call(queue, "/slow/page")
        await asyncio.sleep(0.01)
        await asyncio.wait_for(_call(queue, "/live/", "http"), 1.0)
        await asyncio.wait_for(_call(queue, "", "lifespan"), 1.0)
        waiting = _call(queue, "/other/")
        await asyncio.sleep(0.05)
        assert not waiting.done()
        pages.release.set()
        await asyncio.gather(slow, waiting)

    asyncio.run(run())


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError):
        PageQueue(Pages(), 0)
