"""A watcher's stream carries the table itself: the ``watch`` event (docs/live.md, "Watchers
get the table on the stream").

Every viewer of a public match who is not one of its members sees the same table partial at a
version (games/views/shared_table.py). Rather than tell 500 watchers "version V" and take 500
fetches of that one cached fragment, a watcher's stream sends the fragment: rendered once a
version (through the same ``watchers`` cache the poll reads, so once for every web process),
encoded as one server-sent event once a version and time zone in each process (the streams of
that moment share it), written as is to every watcher's stream. The page swaps it in without a
fetch (static/js/live.js).

What it may hold is what the poll would serve the same watcher: it is the poll's own shared
fragment (``watcher_fragment``, which shares only a running or finished public match's
spectator view, and never a member's, nor a fragment holding a CSRF token). A member's stream
never asks for it. The fragment is the same for every watcher of a time zone only while no
phrase shows to watchers (a phrase filter is the reader's own, two reads a reader): such a
match, and any fragment that cannot be had (the cache, the database), gets the numbers-only
``table`` event and the page fetches, as before.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from typing import Any

from asgiref.sync import sync_to_async
from django.db import DatabaseError
from django.http import HttpRequest
from django.utils import timezone

from games.live.release import release
from games.models import Match
from games.views.shared_table import phrases_for_watchers
from games.views.table import watcher_fragment

logger = logging.getLogger("parlour.live")

EVENT = "watch"
MEMO_SECONDS = 1.0  # how long an encoded event is kept for the streams of this process
LINE_BREAK = re.compile(r"\r\n|\r|\n")

Marks = tuple[int, int]
Carried = tuple[Marks, str]  # the fragment's marks and its whole server-sent event


def table_id(marks: Marks) -> str:
    """The event id of a table state: ``version.phrases``."""
    return f"{marks[0]}.{marks[1]}"


def watch_render(request: HttpRequest, match_id: int, zone: str) -> Carried | None:
    """The watchers' fragment of ``match_id`` as ``request``'s reader (a watcher) would poll it
    in ``zone``, as one ``watch`` event with its marks; ``None`` where the stream sends numbers
    only (phrases shown to watchers, a match not shared, a seat after all, the database out of
    reach). The connection is handed back at once."""
    try:
        with timezone.override(zone):
            match = Match.objects.filter(pk=match_id).first()
            if match is None or phrases_for_watchers(match):
                return None
            content = watcher_fragment(request, match)
    except DatabaseError as exc:
        logger.warning("watchers' table unreadable (%s): the page fetches", type(exc).__name__)
        return None
    finally:
        release()
    if content is None or b"csrfmiddlewaretoken" in content:
        return None
    marks = (match.version, match.shown)
    return marks, watch_event_text(content.decode(), marks)


def watch_event_text(html: str, marks: Marks) -> str:
    """``html`` as one server-sent event: a ``data:`` line for each of its lines (the browser
    joins them with a line feed)."""
    data = "".join(f"data: {line}\n" for line in LINE_BREAK.split(html))
    return f"event: {EVENT}\nid: {table_id(marks)}\n{data}\n"


_memos: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, asyncio.Task[Any]]] = (
    weakref.WeakKeyDictionary()
)


async def watch_carried(
    request: HttpRequest, match_id: int, marks: Marks, zone: str
) -> Carried | None:
    """``watch_render`` for the streams of this process told of ``marks`` in ``zone``: the first
    asks, the others wait for its answer (kept ``MEMO_SECONDS``), so a version is read, fetched
    from the cache and encoded once a process, however many watch."""
    loop = asyncio.get_running_loop()
    memo = _memos.setdefault(loop, {})
    key = (match_id, marks, zone)
    task = memo.get(key)
    if task is None:
        # In a thread of the loop's pool, not a stream's own (core/page_queue.py), and
        # tied to no stream: the first asker may close before it is done.
        render = sync_to_async(watch_render, thread_sensitive=False)
        task = memo[key] = loop.create_task(render(request, match_id, zone))
        task.add_done_callback(lambda _: loop.call_later(MEMO_SECONDS, memo.pop, key, None))
    # Shielded: a stream that closes while it waits does not cancel the others' answer.
    return await asyncio.shield(task)
