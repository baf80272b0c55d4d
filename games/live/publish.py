"""Telling the web nodes what changed: one Redis ``PUBLISH`` after the commit, bounded in time.

Called inside the transaction that changed a match (a move, a bot's turn, a deal, a phrase, a
deadline) or a person's notices (a challenge, a rematch offer); the message goes out on commit,
so a stream never announces a version that a reader cannot see yet, and a rolled-back change is
never announced. Without Redis, on the embedded default (``PARLOUR_LIVE_LOCAL``), the message
goes to the local hub's socket instead (``games/live/local.py``); with streams off nothing is
sent and pages poll.

Redis down costs a request as little as a broker outage does (``core/publish.py``): short
socket timeouts, then this process skips Redis for ``PARLOUR_LIVE_BACKOFF`` seconds (1) without
touching the network. A lost message is a late page, never a wrong one: pages that lost their
stream poll, a stream that (re)connects is told the current version at once, and a hub takes
streams only once every skip that began before it subscribed is over (``games/live/hub.py``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from typing import Any

import redis
from django.conf import settings
from django.db import transaction
from redis.backoff import NoBackoff
from redis.retry import Retry

from games.live import local
from games.models import Match

logger = logging.getLogger("parlour.live")

_client: redis.Redis | None = None
_client_url = ""
_down_until = 0.0


def _redis() -> redis.Redis:
    global _client, _client_url
    url = settings.REDIS_URL
    if _client is None or _client_url != url:
        timeout = float(settings.PARLOUR_BROKER_TIMEOUT)
        _client = redis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout, retry=Retry(NoBackoff(), 0)
        )
        _client_url = url
    return _client


def send(message: dict[str, Any]) -> bool:
    """Publish ``message`` now (no transaction wait); ``False`` if Redis is off or down.
    Without Redis, on the embedded default, one datagram to the local hub (games/live/local.py)."""
    global _down_until
    if not settings.PARLOUR_LIVE:
        return False
    if settings.PARLOUR_LIVE_LOCAL:
        return local.send(message)
    now = time.monotonic()
    if now < _down_until:
        return False
    try:
        _redis().publish(settings.PARLOUR_LIVE_CHANNEL, json.dumps(message, separators=(",", ":")))
    except (redis.RedisError, OSError) as exc:
        _down_until = time.monotonic() + float(settings.PARLOUR_LIVE_BACKOFF)
        logger.warning(
            "live events: Redis down (%s: %s); pages poll; skipping Redis for %s s",
            type(exc).__name__,
            exc,
            settings.PARLOUR_LIVE_BACKOFF,
        )
        return False
    return True


def table_changed(match: Match, user_ids: Iterable[int | None] = ()) -> None:
    """After the commit: ``match`` is at its current version and shown mark; ``user_ids``
    (people whose badge may have changed with it: the seats, when the awaited seats changed or
    the match ended) are told to recount."""
    if not settings.PARLOUR_LIVE:
        return
    message = {
        "m": match.pk,
        "v": match.version,
        "p": match.shown,  # named "p" (phrases) on the wire: the shown mark (docs/live.md)
        "u": sorted({u for u in user_ids if u}),
    }
    transaction.on_commit(lambda: send(message))


def badges_changed(user_ids: Iterable[int | None]) -> None:
    """After the commit: these people's notices changed (a challenge came, an offer went)."""
    if not settings.PARLOUR_LIVE:
        return
    users = sorted({u for u in user_ids if u})
    if users:
        transaction.on_commit(lambda: send({"u": users}))


def backoff_reset() -> None:
    """Forget a recorded outage (for tests that stop and start Redis)."""
    global _down_until
    _down_until = 0.0
