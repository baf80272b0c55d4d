"""Handing a stream's database connections back after every read (docs/live.md, "Serving it")."""

from __future__ import annotations

from django.db import connections


def release() -> None:
    """Close this thread's database connections (back to the pool under PARLOUR_DB_POOL).

    A stream's request lasts as long as the stream, and under ASGI its sync code runs in a
    thread of its own: a connection it opened (the session, the user, a read) would be held
    for the stream's whole life, and twenty streams emptied a pool of ten, stopping every page
    of the process (found by bench/live.py). Each read gives its connection back instead;
    never one inside a transaction (a WSGI caller's, which the view may run inside)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()
