"""Background work, sent by task name: the one way the services reach Celery.

The tasks call the services, so a service that imported a tasks module (even inside a function)
would close an import circle. A service names the task instead, with one of the names below,
and this module sends it; the worker finds the function by that name in its registry, as it
would for any message. This module imports no tasks module, and no service imports one.

Two entry points:

- ``enqueue``: after the current transaction commits (at once outside one), what every service
  uses, so a task never runs against a write that might still roll back;
- ``send``: now, with the answer (``False``: not sent); for a task sending its own
  continuation, where the caller acts on the answer.

The names are what queued messages and beat's schedule (``CELERY_BEAT_SCHEDULE``) carry, so a
task keeps its name when its code moves: a message sent before a deploy must still find its
task after it. The turn mail and the turn push kept their ``accounts.`` names when they moved to
``games.tasks``.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from celery import Celery, Task, current_app
from django.db import transaction

from core.publish import publish

logger = logging.getLogger(__name__)

# The tasks the services send (``games.tasks`` registers each under this name).
BOT_TURN = "games.bot_turn"
ROUND_NEXT = "games.round_next"
RATINGS_UPDATE = "games.ratings_update"
MATCH_ANALYSE = "games.match_analyse"
TURN_MAIL = "accounts.turn_mail"
TURN_PUSH = "accounts.turn_push"  # games.tasks registers it, under its old name
TURN_NOTICE = "games.turn_notice"  # a turn's one task: sends its push and its mail in turn
INVITATION_MAIL = "games.invitation_mail"
DATA_EXPORT = "accounts.data_export"  # accounts.tasks registers it

_eager = threading.local()


def enqueue(
    name: str,
    *args: Any,
    countdown: float | None = None,
    must_wait: bool = False,
    robust: bool = False,
) -> None:
    """Send the task ``name(*args)`` once the current transaction commits (see ``send``).

    ``robust``: a failure of the send (or, in eager mode, of the task) is logged and does not
    stop the other on-commit work of the same commit (Django's ``on_commit(robust=True)``); a
    mail that failed must not keep a bot from playing.
    """
    transaction.on_commit(
        lambda: send(name, *args, countdown=countdown, must_wait=must_wait, robust=robust),
        robust=robust,
    )


def send(
    name: str,
    *args: Any,
    countdown: float | None = None,
    must_wait: bool = False,
    robust: bool = False,
) -> bool:
    """Send the task ``name(*args)`` now, to run after ``countdown`` seconds; ``False`` when it
    was not sent.

    With a broker: sent once, bounded in time, skipped during a known outage
    (``core/publish.py``). The write that made it due is committed already, and the sweepers
    (``games.sweep_stalled``, ``accounts.turn_mails_sweep``) send again what a broker outage
    lost.

    In eager mode (tests, or no broker at all: ``CELERY_TASK_ALWAYS_EAGER``) the task runs in
    this process, and Celery's ``send_task`` would ignore that mode: the registered task is
    applied instead, without its countdown. ``must_wait`` says the countdown is the point (a
    turn mail is checked minutes later, not while the person is still at the table): with
    nothing that can wait, such a task is not run at all. Tasks sent while an eager task runs
    are queued and run one after another by the outermost call, so a bots-only match does not
    recurse once per move until Python's stack gives out; a ``robust`` one that fails there is
    logged, and the others still run.
    """
    app = current_app._get_current_object()
    if not app.conf.task_always_eager:
        return publish(name, args, countdown, app=app)
    if must_wait and countdown:
        logger.info("%s%s not run: no worker to wait %s s", name, args, countdown)
        return False
    pending: deque | None = getattr(_eager, "pending", None)
    if pending is not None:
        pending.append((name, args, robust))
        return True
    _eager.pending = pending = deque([(name, args, robust)])
    try:
        while pending:
            queued, queued_args, queued_robust = pending.popleft()
            try:
                _registered(app, queued).apply(queued_args, throw=True)
            except Exception:
                if not queued_robust:
                    raise
                logger.exception("%s%s failed in eager mode", queued, queued_args)
    finally:
        _eager.pending = None
    return True


def _registered(app: Celery, name: str) -> Task:
    """The app's task registered as ``name``, discovering the apps' tasks modules first if
    nothing has imported them yet (a web process in eager mode: no worker imported them)."""
    if name not in app.tasks:
        app.autodiscover_tasks(force=True)  # what a worker does at start
    return app.tasks[name]
