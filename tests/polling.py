"""Waiting for what another process does (a worker's move, a server coming up): poll a check."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30.0) -> float:
    """Poll ``check`` until it is true; the seconds that took. Fails with ``what`` after
    ``timeout`` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
