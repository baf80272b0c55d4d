"""Celery: the broker (Redis, kombu's filesystem transport for ``make run``, or tasks run in
process), its bounded sends, the worker's behaviour and beat's schedule (docs/configuration.md,
"Background work"; docs/hardening.md, "Outages").
"""

from __future__ import annotations

import os

from config.settings.base import DATA_DIR
from config.settings.games import (
    PARLOUR_DEADLINE_EVERY,
    PARLOUR_INVITATIONS_EVERY,
    PARLOUR_LEAGUE_EVERY,
    PARLOUR_RATINGS_EVERY,
    PARLOUR_SWEEP_EVERY,
)
from config.settings.mail import PARLOUR_REMINDER_EVERY

# --- Celery -----------------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
_broker = os.environ.get("CELERY_BROKER_URL", "")
CELERY_FILESYSTEM_DIR = DATA_DIR / "broker"
# Seconds between the worker's looks for new tasks on the filesystem broker (make run).
PARLOUR_BROKER_POLL = float(os.environ.get("PARLOUR_BROKER_POLL", "0.05"))
# Seconds a Redis connect or command may take before it counts as down (core/publish.py):
# short, so a move committed while Redis is unreachable or hung still answers at once (redis-py
# would otherwise wait for the kernel's SYN retries, two minutes).
PARLOUR_BROKER_TIMEOUT = float(os.environ.get("PARLOUR_BROKER_TIMEOUT", "0.25"))
# Seconds a process skips the broker after a failed send (the sweeper resends what matters).
PARLOUR_BROKER_BACKOFF = float(os.environ.get("PARLOUR_BROKER_BACKOFF", "5"))
PARLOUR_REDIS_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": PARLOUR_BROKER_TIMEOUT,
    "socket_timeout": PARLOUR_BROKER_TIMEOUT,
    # A sender's (re)connect is tried once: kombu's default retried for up to
    # broker_connection_timeout (4 s) plus a 2 s pause, the ~6 s a move once waited. The
    # worker's own consumer reconnects with its own retries (CELERY_BROKER_CONNECTION_*).
    "max_retries": 0,
}
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_BROKER_TRANSPORT_OPTIONS = PARLOUR_REDIS_TRANSPORT_OPTIONS
    # kombu's Redis transport, with a worker that survives losing Redis while it holds
    # reserved messages (core/redis_broker.py says how it died before).
    CELERY_BROKER_TRANSPORT = "core.redis_broker:Transport"
elif _broker == "filesystem":
    # make run: a real worker and beat beside the web process, no Redis needed.
    for sub in ("queue", "processed", "control"):
        (CELERY_FILESYSTEM_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    # kombu's transport with its messages written atomically (core/broker.py says why).
    CELERY_BROKER_TRANSPORT = "core.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FILESYSTEM_DIR / "queue"),
        "data_folder_out": str(CELERY_FILESYSTEM_DIR / "queue"),
        "processed_folder": str(CELERY_FILESYSTEM_DIR / "processed"),
        "store_processed": False,
        # kombu's default is ./control, which would litter whatever directory the worker runs in.
        "control_folder": str(CELERY_FILESYSTEM_DIR / "control"),
        # Seconds between the worker's looks at the queue folder: kombu's default (1 s) kept a
        # bot's turn waiting ~0.5 s on average; 0.05 s costs the idle worker about a percent
        # of a core (docs/performance.md, issue 35).
        "polling_interval": PARLOUR_BROKER_POLL,
    }
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = _broker or "memory://"
    CELERY_TASK_ALWAYS_EAGER = not _broker
if _broker:
    # Celery reads CELERY_BROKER_URL from the environment ahead of any setting, so a bare
    # "filesystem" there would become amqp://filesystem: hand it the URL resolved above.
    os.environ["CELERY_BROKER_URL"] = CELERY_BROKER_URL
# Several deployments (or a benchmark beside a running site) can share one Redis by queue name.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("PARLOUR_CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# The worker and beat wait out a broker outage of any length, and a worker started during one
# waits for the broker instead of exiting; both reconnect by themselves (docs/hardening.md).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task running when the broker connection drops finishes and commits; its ack is lost with
# the connection, and the redelivered copy is refused by the match version (games/tasks.py).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False

# A periodic run that no worker picked up before the next one is due is dropped, not piled up.
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-stalled": {
        "task": "games.sweep_stalled",
        "schedule": PARLOUR_SWEEP_EVERY,
        "options": {"expires": PARLOUR_SWEEP_EVERY},
    },
    "enforce-deadlines": {
        "task": "games.enforce_deadlines",
        "schedule": PARLOUR_DEADLINE_EVERY,
        "options": {"expires": PARLOUR_DEADLINE_EVERY},
    },
    # Play now's "fill with a bot after N hours" (docs/quick-match.md), as often as deadlines.
    "quick-bot-fill": {
        "task": "games.quick_bot_fill",
        "schedule": PARLOUR_DEADLINE_EVERY,
        "options": {"expires": PARLOUR_DEADLINE_EVERY},
    },
    # Leagues: open tables, withdraw the absent, end each league on its day (docs/competitions.md).
    "leagues-sweep": {
        "task": "competitions.leagues_sweep",
        "schedule": PARLOUR_LEAGUE_EVERY,
        "options": {"expires": PARLOUR_LEAGUE_EVERY},
    },
    # Cups: start, pair each round, end on the day, make the next occurrence (the same pace).
    "cups-sweep": {
        "task": "competitions.cups_sweep",
        "schedule": PARLOUR_LEAGUE_EVERY,
        "options": {"expires": PARLOUR_LEAGUE_EVERY},
    },
    "ratings-update": {
        "task": "games.ratings_update",
        "schedule": PARLOUR_RATINGS_EVERY,
        "options": {"expires": PARLOUR_RATINGS_EVERY},
    },
    "invitations-expire": {
        "task": "games.invitations_expire",
        "schedule": PARLOUR_INVITATIONS_EVERY,
        "options": {"expires": PARLOUR_INVITATIONS_EVERY},
    },
    "deadline-reminders": {
        "task": "accounts.deadline_reminders",
        "schedule": PARLOUR_REMINDER_EVERY,
        "options": {"expires": PARLOUR_REMINDER_EVERY},
    },
    "turn-mails-sweep": {
        "task": "accounts.turn_mails_sweep",
        "schedule": PARLOUR_REMINDER_EVERY,
        "options": {"expires": PARLOUR_REMINDER_EVERY},
    },
    # Closed accounts past their 30 days are deleted; data exports past 7 days go.
    "closed-accounts-delete": {
        "task": "accounts.closed_accounts_delete",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    "data-exports-expire": {
        "task": "accounts.data_exports_expire",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
}
