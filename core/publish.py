"""Sending a task to the broker from a request, bounded in time, with a back-off while it is down.

A move is committed before its tasks are sent (on commit), so a broker that is down must cost
the person's request as little as possible. Measured with kombu 5.7 / redis-py 8 defaults, one
send to a Redis that was down cost: 0.6 s refused (Celery's publish retry policy), about 6 s
refused once the publish did not retry (kombu's connect loop: ``broker_connection_timeout`` 4 s
plus a 2 s pause), and 133 s unreachable (redis-py has no connect timeout: the kernel's SYN
retries). A move can send more than one task (a bot's turn, turn mails). Three bounds:

- the settings' Celery block gives Redis short socket timeouts (``PARLOUR_BROKER_TIMEOUT``,
  0.25 s) and one connect attempt (``max_retries: 0``), so a refused, unreachable or hung
  broker fails within that time;
- ``publish`` sends once (``retry=False``): a retry inside a request only adds waiting, and the
  sweeper (``games.sweep_stalled``) re-sends what matters once the broker is back;
- after one failure, every send to that broker from this process is skipped for
  ``PARLOUR_BROKER_BACKOFF`` seconds (5) without touching the network, so the next moves of an
  outage do not pay even the connect timeout. The first send after it tries the broker again.

Nothing is lost by skipping: bot turns and deals are found by the sweeper
(``games.sweep_stalled``), turn mails by beat's ``accounts.turn_mails_sweep``. Every send goes
through ``games.queue``, which calls ``publish`` when a broker is configured.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Celery, current_app
from django.conf import settings
from kombu.exceptions import OperationalError as KombuOperationalError

logger = logging.getLogger("parlour.broker")

# Broker URL -> time.monotonic() before which this process does not try that broker. Keyed by
# URL so an app pointed at another broker (a test's, a benchmark's) is not held back by it. A
# race between two threads costs at most one extra attempt, so it needs no lock.
_down_until: dict[str, float] = {}


def publish(
    name: str, args: tuple[Any, ...], countdown: float | None = None, *, app: Celery | None = None
) -> bool:
    """Send the task registered as ``name`` with ``args`` once, to the current app's broker
    unless ``app`` is given; ``False`` (and a log line) if the broker is down.

    By name (``send_task``): the caller needs no tasks module, and the message carries only the
    name anyway. Never raises for a broker that is down or unreachable: the caller's
    transaction has committed, and failing the request would only hide the move from the
    person who made it.
    """
    app = app or current_app
    broker = str(app.conf.broker_url)
    now = time.monotonic()
    until = _down_until.get(broker, 0.0)
    if now < until:
        logger.warning(
            "broker down: %s%s not sent (retrying the broker in %.1f s); the sweeper will resend",
            name,
            args,
            until - now,
        )
        return False
    try:
        app.send_task(name, args, countdown=countdown or None, retry=False)
    except (KombuOperationalError, OSError) as exc:
        _down_until[broker] = time.monotonic() + float(settings.PARLOUR_BROKER_BACKOFF)
        logger.error(
            "broker down: could not send %s%s (%s: %s); skipping the broker for %s s; "
            "the sweeper will resend",
            name,
            args,
            type(exc).__name__,
            exc,
            settings.PARLOUR_BROKER_BACKOFF,
        )
        return False
    return True


def broker_backoff_reset() -> None:
    """Forget every recorded outage (for tests that start and stop brokers)."""
    _down_until.clear()
