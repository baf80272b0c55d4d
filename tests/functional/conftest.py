"""Browser tests: Playwright (through pytest-playwright) driving Debian's Chromium.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``. Without it the
browser tests skip, unless ``REQUIRE_SERVICES=1`` (CI), when they fail instead.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.signals import request_finished, request_started
from playwright.sync_api import Browser, BrowserContext

CHROMIUM = Path(os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Long enough for one htmx poll (every 2 s) on a busy 2-core machine, short enough to fail fast.
DEFAULT_TIMEOUT_MS = 10_000


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        why = f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but {why}")
        pytest.skip(why)
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


class _InFlight:
    """Requests the test's WSGI live server is answering now (``request_started`` and
    ``request_finished`` come in the thread that answers each). A request a closed page left
    behind (a badge's or a poll's fetch) must end before the test's database is flushed: its
    reads and the flush's TRUNCATE once deadlocked in PostgreSQL and the flush failed."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()
        self.mine = threading.local()

    def started(self, sender: Any, environ: Any = None, **kwargs: Any) -> None:
        if environ is None:  # an ASGI request (the stream tests' server): not counted
            return
        self.mine.counted = True
        with self.lock:
            self.count += 1

    def finished(self, sender: Any, **kwargs: Any) -> None:
        if getattr(self.mine, "counted", False):
            self.mine.counted = False
            with self.lock:
                self.count -= 1

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Until no request is being answered, at most ``timeout`` s; then the count starts
        again from nothing, so a request never counted down cannot slow the tests after."""
        deadline = time.monotonic() + timeout
        while self.count > 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        with self.lock:
            self.count = 0


_in_flight = _InFlight()
request_started.connect(_in_flight.started, dispatch_uid="browser-tests-in-flight-started")
request_finished.connect(_in_flight.finished, dispatch_uid="browser-tests-in-flight-finished")


@pytest.fixture
def make_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Fresh browser contexts (separate cookie jars: separate people), closed after the test,
    and the live server's requests let finish before the database is flushed."""
    contexts: list[BrowserContext] = []

    def make(**kwargs: Any) -> BrowserContext:
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **kwargs})
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    _in_flight.wait_idle()


@pytest.fixture(autouse=True)
def _throttles_forgotten(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each browser test starts with no registration or reset counted against its address.

    The throttle counters live in a cache table (``accounts/throttle_cache.py``) that a
    transactional test's flush does not empty (it is not a model's table), and every browser
    test comes from 127.0.0.1: without this, the sixth registration of a run is refused.
    """
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


@pytest.fixture
def live_site(settings) -> Iterator[str]:
    """The full stack: the ASGI server with streams over real Redis (``PARLOUR_LIVE`` on)."""
    from games.live import publish
    from tests.live.server import asgi_server

    settings.PARLOUR_LIVE = True
    publish.backoff_reset()
    with asgi_server() as url:
        yield url


@pytest.fixture(scope="session")
def wcag_walks() -> Any:
    """Every page kind walked once a viewport for all the WCAG tests, kept for the session
    (tests/functional/wcag_walk.py)."""
    from tests.functional.wcag_walk import Walks

    return Walks()
