"""One Redis subscription a web process, handing each message to that process's streams.

A stream registers a ``Listener`` (the match it shows, its person) and sleeps on it; a message
("match M at version V", "recount these people's badges") marks the listeners it concerns and
wakes them. A listener holds only the newest version it has been told and a recount flag, so a
slow stream never queues a backlog: it wakes to the latest state.

While Redis cannot be reached the hub is down: every stream is ended (its page polls and its
EventSource reconnects; a new stream is refused with a 503 until the hub is back), and the hub
tries Redis again every ``RETRY`` seconds. Once subscribed it waits ``settle()`` seconds before it
takes streams: a process that failed to publish while Redis was down skips Redis for
``PARLOUR_LIVE_BACKOFF`` seconds, and a change it made in that time is never published; a
stream that starts after every such skip is over reads the current state itself. A Redis that
hangs without closing the socket is found by a ``PING`` after ``PING_EVERY`` seconds of silence,
answered within ``PING_EVERY``.

Members first: a new version wakes the match's members (its seats, creator, invited people) at
once, and its watchers (anyone else at a public match) ``HEAD_START`` seconds later. A watcher's
stream carries the watchers' shared table itself (games/live/watch.py): one render a version,
no fetch, so every watcher is woken at that moment. Where it cannot (``PARLOUR_WATCHER_RENDER_
SECONDS`` 0 here; a match whose phrases show to watchers, in the stream) each woken page fetches
its partial, and 500 watchers fetching at the same instant would queue the other seat's fetch
behind theirs (bench/live.py measured a 4.5 s p50 that way): those are told at random moments
spread over up to ``PARLOUR_LIVE_SPREAD`` seconds (``SPREAD_EACH`` a watcher: ``spread``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import weakref

import redis
import redis.asyncio as aioredis
from django.conf import settings
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from games.live.index import StreamIndex
from games.live.local import message_read

logger = logging.getLogger("parlour.live")

PING_EVERY = 5.0  # seconds of silence before the hub asks Redis whether it is there
RETRY = 1.0  # seconds between attempts to reach Redis while it is down
SPREAD_EACH = 0.004  # seconds of spread a watcher adds (up to PARLOUR_LIVE_SPREAD in all)
HEAD_START = 0.1  # seconds the members' fetches have before the first watcher is told


def settle() -> float:
    """Seconds from subscribing to taking streams: every publisher's skip begun before is over."""
    return float(settings.PARLOUR_LIVE_BACKOFF) + 0.25


class Listener:
    """One stream's mailbox: the newest (version, phrases) of its match it was told, whether
    its person's badge needs a recount, whether the hub went down under it, and whether its
    person is a member of the match (told first) or a watcher."""

    __slots__ = ("badge", "down", "match_id", "member", "table", "user_id", "wake")

    def __init__(self, match_id: int | None, user_id: int, member: bool = True) -> None:
        self.match_id, self.user_id, self.member = match_id, user_id, member
        self.table: tuple[int, int] | None = None
        self.badge = False
        self.down = False
        self.wake = asyncio.Event()

    def offer_table(self, marks: tuple[int, int]) -> None:
        if self.table is None or marks > self.table:
            self.table = marks
            self.wake.set()

    def offer_badge(self) -> None:
        self.badge = True
        self.wake.set()


class Hub:
    def __init__(self, url: str, channel: str) -> None:
        self.url, self.channel = url, channel
        self.index: StreamIndex[Listener] = StreamIndex()
        self.up = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._settled: asyncio.TimerHandle | None = None

    # --- streams --------------------------------------------------------------------------------

    async def ready(self, timeout: float) -> bool:
        """Start listening if not yet; ``True`` once subscribed (within ``timeout`` seconds)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        if self.up.is_set():
            return True
        try:
            await asyncio.wait_for(self.up.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def listen(self, match_id: int | None, user_id: int, member: bool = True) -> Listener:
        return self.index.add(Listener(match_id, user_id, member))

    def forget(self, listener: Listener) -> None:
        self.index.forget(listener)

    @property
    def streams(self) -> int:
        return len(self.index)

    # --- Redis ----------------------------------------------------------------------------------

    def dispatch(self, raw: bytes | str) -> None:
        """Hand one published message to the listeners it concerns; garbage is logged, dropped."""
        read = message_read(raw)
        if read is None:
            return
        match_id, marks, users = read
        if marks is not None:
            watchers = []
            for listener in self.index.of_match(match_id):
                if listener.member:
                    listener.offer_table(marks)
                else:
                    watchers.append(listener)
            self._spread(watchers, marks)
        for listener in self.index.of_users(users):
            listener.offer_badge()

    def spread(self, match_id: int) -> float:
        """Seconds over which the watchers of ``match_id`` who fetch their partial are told of
        a new version: ``SPREAD_EACH`` a stream of the match, at most ``PARLOUR_LIVE_SPREAD``."""
        watching = self.index.watching(match_id)
        return min(float(settings.PARLOUR_LIVE_SPREAD), SPREAD_EACH * watching)

    def _spread(self, watchers: list[Listener], marks: tuple[int, int]) -> None:
        """Offer ``marks`` to ``watchers`` ``HEAD_START`` seconds from now: all at once where
        their streams carry the table (games/live/watch.py; the stream spreads its own
        fallback), else at random moments over their share of the spread."""
        if not watchers:
            return
        loop = asyncio.get_running_loop()
        if settings.PARLOUR_WATCHER_RENDER_SECONDS > 0:
            loop.call_later(HEAD_START, _offer_all, watchers, marks)
            return
        spread = self.spread(watchers[0].match_id or 0)
        for listener in watchers:
            loop.call_later(HEAD_START + random.uniform(0.0, spread), listener.offer_table, marks)

    def _all_down(self) -> None:
        for listener in self.index.everyone():
            listener.down = True
            listener.wake.set()

    async def _run(self) -> None:
        while True:
            client = aioredis.Redis.from_url(
                self.url,
                socket_connect_timeout=float(settings.PARLOUR_BROKER_TIMEOUT) * 4,
                retry=Retry(NoBackoff(), 0),
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self._settled = asyncio.get_running_loop().call_later(settle(), self.up.set)
                logger.info("live events: listening on %s", self.channel)
                await self._listen(pubsub)
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as exc:
                if self.up.is_set():
                    logger.warning(
                        "live events: lost Redis (%s: %s); streams end, pages poll",
                        type(exc).__name__,
                        exc,
                    )
            finally:
                if self._settled is not None:
                    self._settled.cancel()
                self.up.clear()
                self._all_down()
                await _quietly_close(pubsub, client)
            await asyncio.sleep(RETRY)

    async def _listen(self, pubsub: aioredis.client.PubSub) -> None:
        loop = asyncio.get_running_loop()
        heard = loop.time()
        pinged = False
        while True:
            message = await pubsub.get_message(timeout=PING_EVERY)
            if message is not None:
                heard, pinged = loop.time(), False
                if message.get("type") == "message":
                    self.dispatch(message["data"])
                continue
            if loop.time() - heard >= 2 * PING_EVERY and pinged:
                raise redis.ConnectionError(f"no answer to PING in {PING_EVERY} s")
            if not pinged:
                await pubsub.ping()
                pinged = True


def _offer_all(listeners: list[Listener], marks: tuple[int, int]) -> None:
    for listener in listeners:
        listener.offer_table(marks)


async def _quietly_close(pubsub: aioredis.client.PubSub, client: aioredis.Redis) -> None:
    for close in (pubsub.aclose, client.aclose):
        with contextlib.suppress(redis.RedisError, OSError):
            await close()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This event loop's hub (one a web process under the ASGI server)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None or (found.url, found.channel) != (
        settings.REDIS_URL,
        settings.PARLOUR_LIVE_CHANNEL,
    ):
        found = _hubs[loop] = Hub(settings.REDIS_URL, settings.PARLOUR_LIVE_CHANNEL)
    return found
