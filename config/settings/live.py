"""Live events: the server-sent-events streams fed by Redis pub/sub (docs/configuration.md,
"Live tables"; docs/live.md).
"""

from __future__ import annotations

import os

from config.settings.base import DATA_DIR
from config.settings.celery import CELERY_BROKER_URL, CELERY_TASK_DEFAULT_QUEUE, REDIS_URL
from config.settings.database import DATABASES

# --- Live events (games/live/, docs/live.md) ---------------------------------------------------
# Open pages hear "match M is at version V" and their badge count over one server-sent-events
# stream a tab, fed by Redis pub/sub: on whenever Redis is configured. PARLOUR_LIVE=0 turns
# streams off (pages poll).
_live_wanted = os.environ.get("PARLOUR_LIVE", "1") == "1"
# Without Redis, on the embedded default (make run: the filesystem broker), the web process
# is told of each change through a local socket instead (games/live/local.py): on by default
# there, off elsewhere without Redis (tests' in-process tasks); PARLOUR_LIVE_LOCAL=1/0 decides.
PARLOUR_LIVE_LOCAL = (
    not REDIS_URL
    and _live_wanted
    and os.environ.get("PARLOUR_LIVE_LOCAL", "1" if CELERY_BROKER_URL == "filesystem://" else "0")
    == "1"
)
PARLOUR_LIVE = (bool(REDIS_URL) and _live_wanted) or PARLOUR_LIVE_LOCAL
# The local socket (a Unix datagram socket; one web process binds it, every process sends).
PARLOUR_LIVE_SOCKET = os.environ.get("PARLOUR_LIVE_SOCKET", str(DATA_DIR / "live.sock"))
# One channel a deployment (pub/sub ignores Redis's database numbers, so two sites or test runs
# sharing a server are kept apart by name).
PARLOUR_LIVE_CHANNEL = os.environ.get(
    "PARLOUR_LIVE_CHANNEL",
    f"parlour:live:{CELERY_TASK_DEFAULT_QUEUE}:{DATABASES['default']['NAME']}",
)
# Seconds a process skips Redis after a failed publish (games/live/publish.py); a hub that has
# just (re)subscribed waits this long (and a little more) before it takes streams, so no message
# skipped meanwhile by another process goes unannounced to a stream that started after it.
PARLOUR_LIVE_BACKOFF = float(os.environ.get("PARLOUR_LIVE_BACKOFF", "1"))
# Seconds between the stream's keep-alive comments (proxies close a connection silent for long).
# 25 s: under the 60 s idle timeouts of nginx and the common proxies; at 15 s, 5,000 idle
# streams cost 6.2% of a core (docs/performance.md).
PARLOUR_LIVE_HEARTBEAT = float(os.environ.get("PARLOUR_LIVE_HEARTBEAT", "25"))
# At most this many seconds over which a public match's watchers are told of a new version
# (its members at once): their pages' fetches arrive spread out, not as one queue in front of
# the seats' (games/live/hub.py).
PARLOUR_LIVE_SPREAD = float(os.environ.get("PARLOUR_LIVE_SPREAD", "2"))

# --- Watchers share one render (games/views/shared_table.py, docs/live.md) ---------------------
# Seconds a public match's table, as every watcher sees it at one version, stays cached for the
# next watcher (a new version or shown mark is a new entry anyway; this bounds what else could
# age, such as a seat's name). 0 renders each watcher's own copy, as before.
PARLOUR_WATCHER_RENDER_SECONDS = int(os.environ.get("PARLOUR_WATCHER_RENDER_SECONDS", "300"))
# The cache they share: Redis with the full stack (every web node then renders a version once),
# else this process's memory. Keys are kept apart per database, as the live channel is.
WATCHER_CACHE = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"parlour:watch:{DATABASES['default']['NAME']}",
        "TIMEOUT": PARLOUR_WATCHER_RENDER_SECONDS,
        # Redis gone, a watcher's poll waits this long before rendering its own copy.
        "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
    }
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "parlour-watchers",
        "TIMEOUT": PARLOUR_WATCHER_RENDER_SECONDS,
        "OPTIONS": {"MAX_ENTRIES": 2_000},
    }
)
