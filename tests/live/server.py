"""The site's ASGI application under uvicorn, in a thread of the test process: the streams of
``/live/`` need an ASGI server (Django's test client and live server are WSGI), and a thread
shares the test's database (a file on SQLite, the test database on PostgreSQL).

Used by the stream tests (``tests/integration/test_live_stream.py``) and the browser tests.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from asgiref.sync import sync_to_async
from django.db import connections

from tests.polling import wait_for


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def asgi_server() -> Iterator[str]:
    """Serve ``config.asgi`` on a free loopback port; yields its base URL. Connections are not
    kept between requests while it serves (each request's thread would keep its own), and are
    closed on the way out: PostgreSQL would otherwise refuse to drop the test database."""
    from config.asgi import application

    port = _free_port()
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, lifespan="off", log_level="warning"
    )
    server = uvicorn.Server(config)
    loop_box: dict[str, asyncio.AbstractEventLoop] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        loop_box["loop"] = loop
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.serve())
        loop.run_until_complete(sync_to_async(connections.close_all)())
        loop.close()

    # As PARLOUR_DB_POOL=1 does for the ASGI server (config/settings/database.py): each request's
    # thread closes its connection when the request ends.
    database = connections.settings["default"]
    kept_age = database["CONN_MAX_AGE"]
    database["CONN_MAX_AGE"] = 0
    thread = threading.Thread(target=run, name="asgi-server", daemon=True)
    thread.start()
    wait_for(lambda: server.started, timeout=15, what="uvicorn to start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        server.force_exit = True  # streams stay open: do not wait for them
        thread.join(15)
        database["CONN_MAX_AGE"] = kept_age
