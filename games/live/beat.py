"""One keep-alive clock a process for its async streams (docs/live.md, "What the stream
carries").

A stream sends a comment every ``PARLOUR_LIVE_HEARTBEAT`` seconds so that proxies and NAT boxes
keep a quiet connection. A timer of its own a stream (``asyncio.wait_for``: a task, a waiter and
a timer made and cancelled each time) was most of what 10,000 idle streams cost. Instead each
stream joins one of up to ``SLOTS`` rings, the one the clock turned to last when it opened, and
one task a loop turns to the next ring every heartbeat / rings seconds and wakes the streams of
that ring: each stream is woken once a heartbeat, and nothing runs a stream in between.
"""

from __future__ import annotations

import asyncio
import weakref

SLOTS = 25  # rings at most (one a second at the 25 s default)


class Beat:
    """A stream's place on the clock: ``due`` once its keep-alive is due (the stream clears it),
    ``wake`` the event the stream sleeps on."""

    __slots__ = ("due", "ring", "wake")

    def __init__(self, wake: asyncio.Event, ring: int) -> None:
        self.wake, self.ring = wake, ring
        self.due = False


class Clock:
    def __init__(self, every: float) -> None:
        self.every = every
        self.rings: list[set[Beat]] = [set() for _ in range(max(1, min(SLOTS, int(every))))]
        self.turn = 0
        self._task: asyncio.Task[None] | None = None

    def join(self, wake: asyncio.Event) -> Beat:
        """A new stream's beat: first due within one heartbeat (less one turn) from now."""
        beat = Beat(wake, self.turn)
        self.rings[self.turn].add(beat)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return beat

    def leave(self, beat: Beat) -> None:
        self.rings[beat.ring].discard(beat)

    async def _run(self) -> None:
        step = self.every / len(self.rings)
        while any(self.rings):
            await asyncio.sleep(step)
            self.turn = (self.turn + 1) % len(self.rings)
            for beat in self.rings[self.turn]:
                beat.due = True
                beat.wake.set()


_clocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[float, Clock]] = (
    weakref.WeakKeyDictionary()
)


def clock(every: float) -> Clock:
    """This event loop's clock beating every ``every`` seconds."""
    clocks = _clocks.setdefault(asyncio.get_running_loop(), {})
    found = clocks.get(every)
    if found is None:
        found = clocks[every] = Clock(every)
    return found
