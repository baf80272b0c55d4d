"""``/live/``: one server-sent-events stream a tab (docs/live.md).

It carries ``table`` events ("the match on screen is at version V and shown mark P", ``id:
V.P``: docs/live.md, "Two marks") and ``badge`` events (the person's notices count and how many
matches await their move), numbers only: a member's page fetches its partial as a poll does, so
redaction stays in the table's views. A watcher's stream (no member of a public match) carries
the table itself instead, the ``watch`` event: the poll's own shared fragment, rendered by the
table's views once a version (games/live/watch.py). On connect it sends the current table
(unless ``Last-Event-ID`` says the page has it: numbers, even to a watcher) and badge, so a
reconnect or a tab shown again catches up at once; a comment every ``PARLOUR_LIVE_HEARTBEAT``
seconds keeps proxies from closing a quiet stream (one clock a process: games/live/beat.py). It
ends after ``LIFETIME`` seconds, at its next keep-alive (the browser reconnects and the sign-in
is checked again) and whenever the process loses Redis (the page polls until a stream can be
had again).

Signed out: 403. A match the person may not see (or no such match): 404, by the table's own
visibility rule (``match_poll_version``); the match's members are told of a change before its
watchers (games/live/hub.py). Without Redis, on the embedded default, the local hub
(games/live/local.py) wakes the streams, under ``runserver`` (WSGI: a sync generator) as under
ASGI. Streams off, or Redis's streams on a WSGI server (which would hold the endless answer
back): 204, "no stream here". Redis down, or the local socket held by another process: 503
(try again later). Either way the page polls.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from accounts.selectors import notify
from games.live.beat import clock
from games.live.hub import Hub, Listener, hub, settle
from games.live.local import LocalHub, LocalListener, local_hub
from games.live.release import release
from games.live.watch import Carried, table_id, watch_carried, watch_render
from games.selectors.access import match_watch_marks
from games.selectors.notices import turns_waiting_count
from games.views.notice_sources import notice_counts

LIFETIME = 1800.0  # seconds a stream lasts before the browser is asked to reconnect
RETRY_MS = 2000  # the reconnect delay the browser is told (EventSource's ``retry:``)
SYNC_HEARTBEAT = 5.0  # seconds between a WSGI stream's comments at most (a closed tab's thread)


def _badge(user_id: int) -> tuple[int, int]:
    """The nav badge's count and the matches awaiting the person's move (counted once: it is one
    of the badge's parts unless the person turned that kind off); the connection is handed back
    at once (below)."""
    try:
        counts = notice_counts(user_id)
        turns = counts.get(notify.NOTICE_TURNS)
        return sum(counts.values()), turns_waiting_count(user_id) if turns is None else turns
    finally:
        release()


def _marks(match_id: int, user: AbstractBaseUser) -> tuple[int, int] | None:
    """The table's marks if ``user`` may see it (``match_poll_version``), the connection handed
    back at once."""
    found = _watch_marks(match_id, user)
    return None if found is None else found[0]


def _watch_marks(match_id: int, user: AbstractBaseUser) -> tuple[tuple[int, int], bool] | None:
    """``match_watch_marks``: the marks and whether ``user`` is a member, the connection handed
    back at once."""
    try:
        return match_watch_marks(match_id=match_id, user=user)
    finally:
        release()


def _event(name: str, data: dict[str, int], event_id: str | None = None) -> str:
    head = f"event: {name}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}\n\n"


def _refusal(message: str, status: int) -> HttpResponse:
    response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


@require_GET
async def live_stream(request: HttpRequest) -> HttpResponse:
    user = await request.auser()
    if not user.is_authenticated:
        return _refusal("Sign in to follow your tables live.", 403)
    raw = request.GET.get("match")
    match_id: int | None = None
    member = True
    if raw is not None:
        if not raw.isdigit() or len(raw) > 12:
            return _refusal("The match must be given by its number.", 400)
        match_id = int(raw)
        found = await sync_to_async(_watch_marks)(match_id, user)
        if found is None:
            raise Http404("No such match.")
        member = found[1]
    # A watcher's stream carries the watchers' table itself (games/live/watch.py), in the
    # reader's time zone (the middleware's, gone by the time the stream runs).
    watching = None if member else Watching(request, timezone.get_current_timezone_name())
    if settings.PARLOUR_LIVE_LOCAL:
        return await _local_stream(request, match_id, user, watching)
    if not settings.PARLOUR_LIVE or not isinstance(request, ASGIRequest):
        # Off, or a WSGI server (runserver), which would hold the whole endless answer back:
        # 204, which tells an EventSource not to reconnect (the page polls instead).
        return _refusal("", 204)
    this_hub = hub()
    if not await this_hub.ready(settle() + 1.0):
        response = _refusal("Live changes are unavailable for now: the page polls.", 503)
        response["Retry-After"] = "10"
        return response
    listener = this_hub.listen(match_id, user.pk, member)
    last_id = request.headers.get("Last-Event-ID", "")
    response = StreamingHttpResponse(
        _events(this_hub, listener, user, last_id, watching), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    await sync_to_async(release)()  # the session's and the user's reads: not held open
    return response


@dataclass(frozen=True)
class Watching:
    """A watcher's stream (no member of its public match): the request and time zone its
    ``watch`` events are rendered for."""

    request: HttpRequest
    zone: str


def _numbers(table: tuple[int, int]) -> str:
    return _event("table", {"version": table[0], "phrases": table[1]}, table_id(table))


async def _events(
    this_hub: Hub | LocalHub,
    listener: Listener | LocalListener,
    user: AbstractBaseUser,
    last_id: str,
    watching: Watching | None = None,
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    ends = loop.time() + LIFETIME
    wake: asyncio.Event = listener.wake  # type: ignore[assignment]
    beats = clock(float(settings.PARLOUR_LIVE_HEARTBEAT))
    beat = beats.join(wake)  # one clock a process wakes it for its keep-alive
    told = Told(listener, last_id, watching)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        # Read after listening, so a change between the two is announced, never lost.
        if listener.match_id is not None:
            told.opened(await sync_to_async(_marks)(listener.match_id, user))
        listener.offer_badge()
        while True:
            await wake.wait()
            wake.clear()
            if listener.down:
                return
            if beat.due:
                beat.due = False
                if loop.time() >= ends:
                    return
                yield ": keep-alive\n\n"
            table = told.table_due()
            if table is not None:
                carried = None
                if told.carries(table) and watching is not None:
                    request, zone = watching.request, watching.zone
                    carried = await watch_carried(request, listener.match_id, table, zone)
                    if carried is None:  # the page fetches: spread, as the hub would have
                        await asyncio.sleep(random.uniform(0.0, this_hub.spread(listener.match_id)))
                yield told.table_event(table, carried)
            if told.badge_due():
                yield _badge_event(await sync_to_async(_badge)(listener.user_id))
    finally:
        beats.leave(beat)
        this_hub.forget(listener)


class Told:
    """What a stream has told its page, and what it owes it next: the loop's reckoning, shared
    by its twins (``_events`` under ASGI, ``_sync_events`` under WSGI), which differ only in
    how they wait and read."""

    def __init__(
        self, listener: Listener | LocalListener, last_id: str, watching: Watching | None
    ) -> None:
        self.listener, self.last_id, self.watching = listener, last_id, watching
        self.sent: tuple[int, int] | None = None
        self.at_connect: tuple[int, int] | None = None

    def opened(self, marks: tuple[int, int] | None) -> None:
        """The table's marks read at connect (``None``: gone, or no longer visible): owed to
        the page unless ``Last-Event-ID`` says it has them."""
        self.at_connect = marks
        if marks is None:
            return
        if table_id(marks) == self.last_id:
            self.sent = marks
        self.listener.offer_table(marks)

    def table_due(self) -> tuple[int, int] | None:
        """The table's marks owed to the page: newer than what it was last sent."""
        table = self.listener.table
        if table is not None and (self.sent is None or table > self.sent):
            return table
        return None

    def carries(self, table: tuple[int, int]) -> bool:
        """Whether ``table`` goes as the table itself: a change a watcher is told of. The
        state at connect (the page was just rendered, or the stream came back) is told in
        numbers."""
        return self.watching is not None and table != self.at_connect

    def table_event(self, table: tuple[int, int], carried: Carried | None) -> str:
        """The event's text, now sent: the table ``carried`` (a ``watch`` event, its marks read
        as new as ``table`` or newer), else ``table`` in numbers (the page fetches)."""
        if carried is not None and carried[0] >= table:
            self.sent, event = carried
        else:
            self.sent, event = table, _numbers(table)
        return event

    def badge_due(self) -> bool:
        """Whether the badge is owed a recount (taken: the next is owed on the next offer)."""
        if not self.listener.badge:
            return False
        self.listener.badge = False
        return True


def _badge_event(counts: tuple[int, int]) -> str:
    count, turns = counts
    return _event("badge", {"count": count, "turns": turns})


async def _local_stream(
    request: HttpRequest,
    match_id: int | None,
    user: AbstractBaseUser,
    watching: Watching | None,
) -> HttpResponse:
    """The embedded default's stream, woken by the local hub (games/live/local.py): an async
    generator under ASGI; under WSGI (``runserver``, threaded) a sync one, which the server
    writes out event by event in the request's thread (an async one it would collect whole)."""
    this_hub = local_hub()
    if not this_hub.ready():
        response = _refusal("Live changes are unavailable for now: the page polls.", 503)
        response["Retry-After"] = "10"
        return response
    last_id = request.headers.get("Last-Event-ID", "")
    if isinstance(request, ASGIRequest):
        listener = this_hub.listen(match_id, user.pk, asyncio.get_running_loop())
        events: Any = _events(this_hub, listener, user, last_id, watching)
    else:
        listener = this_hub.listen(match_id, user.pk)
        events = _sync_events(this_hub, listener, user, last_id, watching)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    await sync_to_async(release)()
    return response


def _sync_events(
    this_hub: LocalHub,
    listener: LocalListener,
    user: AbstractBaseUser,
    last_id: str,
    watching: Watching | None,
) -> Iterator[str]:
    """``_events`` for a WSGI server: the same events, waiting on a ``threading.Event``. A
    comment every ``SYNC_HEARTBEAT`` seconds at most finds a closed tab (the write fails and
    the server ends the generator), so its thread is freed within that time."""
    ends = time.monotonic() + LIFETIME
    heartbeat = min(float(settings.PARLOUR_LIVE_HEARTBEAT), SYNC_HEARTBEAT)
    told = Told(listener, last_id, watching)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        if listener.match_id is not None:
            told.opened(_marks(listener.match_id, user))
        listener.offer_badge()
        while True:
            left = ends - time.monotonic()
            if left <= 0:
                return
            if not listener.woken.wait(min(heartbeat, left)):
                yield ": keep-alive\n\n"
                continue
            listener.woken.clear()
            if listener.down:
                return
            table = told.table_due()
            if table is not None:
                carried = None
                if told.carries(table) and watching is not None:  # few watchers: no memo
                    carried = watch_render(watching.request, listener.match_id, watching.zone)
                yield told.table_event(table, carried)
            if told.badge_due():
                yield _badge_event(_badge(listener.user_id))
    finally:
        this_hub.forget(listener)
