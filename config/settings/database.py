"""The database: ``DATABASE_URL`` or the embedded SQLite file, SQLite's options beside a worker,
the connection pool under the ASGI server and how many pages a process runs at once
(docs/configuration.md, "Database"; docs/storage.md, docs/live.md).
"""

from __future__ import annotations

import os

import dj_database_url

from config.settings.base import DATA_DIR

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'parlour.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default has a worker writing beside the web process. IMMEDIATE takes the
    # write lock at BEGIN, so a second writer waits (up to ``timeout`` seconds) instead of
    # failing with "database is locked" when its read turns into a write; WAL lets readers run
    # beside the writer. PostgreSQL rejects these options, so they are for SQLite only.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": float(os.environ.get("SQLITE_BUSY_TIMEOUT", "20")),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# Under the ASGI server (the Procfile's web: docs/live.md) every request's sync code runs in a
# thread of its own (Django's ThreadSensitiveContext), so a persistent connection would stay
# behind with each finished request's thread. PARLOUR_DB_POOL=1 (set by the Procfile) closes
# connections at the end of each request instead, and on PostgreSQL hands them back to psycopg's
# pool, so a request still finds one open.
PARLOUR_DB_POOL_SIZE = int(os.environ.get("PARLOUR_DB_POOL_SIZE", "10"))
if os.environ.get("PARLOUR_DB_POOL") == "1":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": PARLOUR_DB_POOL_SIZE,
            "timeout": 10,
            # psycopg's pool retries a lost connection with gaps that double (1, 2, 4, 8, ... s)
            # until this many seconds have passed (5 minutes by default): after an outage of
            # half a minute its next try can be 16 s away, and a page waiting for it gets the
            # 10 s above and a 503 though PostgreSQL is back (tests/faults/
            # test_postgres_restart.py failed so twice in three runs). With 5 s a series of
            # tries ends on a last one at the 5 s mark, and a page waiting after it starts a
            # new series at once: the first page after an outage waits at most about 5 s.
            "reconnect_timeout": 5,
        }
# Under the ASGI server, how many pages a process runs at once; the rest wait in the event loop
# as they would in sync gunicorn's listen queue (core/page_queue.py). By default two fewer than
# the pool's size: each page finds a connection without the pool's 10 s wait, and two are left
# for the live streams' brief reads.
PARLOUR_ASGI_PAGES = int(
    os.environ.get("PARLOUR_ASGI_PAGES", str(max(1, PARLOUR_DB_POOL_SIZE - 2)))
)
