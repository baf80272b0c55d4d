"""Browser tests: Playwright (through pytest-playwright) driving Debian's Chromium.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``. Without it the
browser tests skip, unless ``REQUIRE_SERVICES=1`` (CI), when they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
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


@pytest.fixture
def make_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Fresh browser contexts (separate cookie jars: separate people), closed after the test."""
    contexts: list[BrowserContext] = []

    def make(**kwargs: Any) -> BrowserContext:
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **kwargs})
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


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
