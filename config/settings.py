"""Parlour settings: everything comes from the environment, with embedded defaults.

Embedded default (no variables set): SQLite file in ``var/``, Celery tasks run in process.
Full stack: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (Celery broker).
``CELERY_BROKER_URL=filesystem`` runs a real worker on kombu's filesystem transport (make run).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from games.push.vapid import key_pair_stored

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("PARLOUR_DATA_DIR", BASE_DIR / "var"))
# Each game's rules page is ``<name>.md`` here (the project's own docs).
PARLOUR_RULES_DIR = BASE_DIR / "docs" / "rules"
DATA_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# PARLOUR_PRODUCTION=1 turns on the hardened settings that ``check --deploy`` expects.
PRODUCTION = env_bool("PARLOUR_PRODUCTION")
# Django's debug pages (tracebacks, the yellow 404) are for developers who ask for them:
# PARLOUR_DEBUG=1 (or the older DEBUG=1). Off by default, so ``make run`` shows what visitors
# see, the site's own error pages; static files are served by WhiteNoise either way.
DEBUG = env_bool("PARLOUR_DEBUG", default=env_bool("DEBUG"))
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise RuntimeError("SECRET_KEY must be set when PARLOUR_PRODUCTION=1")
    SECRET_KEY = "dev-only-insecure-key-parlour-not-for-production-use-0123456789"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if not PRODUCTION else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "template_partials",
    "axes",  # failed sign-ins (docs/hardening.md)
    "django_ratelimit",  # registration and password-reset limits; its checks vet the cache
    "core",  # the platform: middlewares, error views, brokers, the backup command
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A NUL in a path or an admin query is a 400 before a query sees it (core/null_bytes.py).
    "core.null_bytes.NullBytesRejectedMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # An empty _to_field is a 400 before the admin turns it into a 500 (core/admin_to_field.py).
    "core.admin_to_field.AdminEmptyToFieldRejectedMiddleware",
    # The reader's time zone, from the session: no query of its own (accounts/time_zone.py).
    "accounts.time_zone_middleware.ReaderTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Every response below varies on HX-Request: a page and its htmx fragment share URLs.
    "core.htmx_vary.HtmxVaryMiddleware",
    # A lost or refused database connection in a view is a 503 page, not a 500 (config/urls.py
    # has the handler500 for the same errors outside a view).
    "core.unavailable.DatabaseUnavailableMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a sign-in lockout into its 429 page
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.notice_badge",
                "games.context_processors.parlour_games",
                "games.context_processors.parlour_live",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

# --- Sign-in throttling (docs/hardening.md) ---------------------------------------------------
# Failed sign-ins (django-axes, through authenticate: the site's login and the admin's). One
# account from one address is locked after PARLOUR_LOGIN_FAILURES failures, for
# PARLOUR_LOGIN_COOLOFF_MINUTES from the last of them; one address is locked for every account
# after PARLOUR_LOGIN_ADDRESS_FAILURES failures across accounts (password spraying). The correct
# password is refused during a lockout; a successful sign-in clears that pair's count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out sign-ins
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("PARLOUR_LOGIN_FAILURES", "5"))
PARLOUR_LOGIN_COOLOFF_MINUTES = float(os.environ.get("PARLOUR_LOGIN_COOLOFF_MINUTES", "15"))
AXES_COOLOFF_TIME = PARLOUR_LOGIN_COOLOFF_MINUTES / 60  # axes reads a float as hours
PARLOUR_LOGIN_ADDRESS_FAILURES = int(os.environ.get("PARLOUR_LOGIN_ADDRESS_FAILURES", "30"))
AXES_LOCKOUT_PARAMETERS = "accounts.throttling.lockout_parameters"
AXES_LOCKOUT_CALLABLE = "accounts.throttling.lockout_response"
AXES_USERNAME_CALLABLE = "accounts.throttling.attempted_username"  # fits axes' column
AXES_RESET_ON_SUCCESS = True
# Only failures are kept (and only for the cool-off): a row per successful sign-in, who from
# where, would be personal data that grows forever and that throttling has no use for.
AXES_DISABLE_ACCESS_LOG = True
# Attempts during a lockout are refused without being counted, so the wait the page announces
# is the wait there is; a patient guesser gets no more tries either way.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The client's address, for axes and ratelimit alike (accounts/client_address.py): REMOTE_ADDR,
# or with PARLOUR_TRUSTED_PROXIES=N reverse proxies in front, the N-th X-Forwarded-For entry
# from the right. Never set N higher than the proxies there are: clients could pick addresses.
PARLOUR_TRUSTED_PROXIES = int(os.environ.get("PARLOUR_TRUSTED_PROXIES", "0"))
AXES_CLIENT_IP_CALLABLE = "accounts.client_address.client_address"
RATELIMIT_IP_META_KEY = "accounts.client_address.client_address"
# Registration and password reset (django-ratelimit), each POST counted per fixed window.
PARLOUR_REGISTER_RATE = os.environ.get("PARLOUR_REGISTER_RATE", "5/h")
PARLOUR_RESET_RATE_ADDRESS = os.environ.get("PARLOUR_RESET_RATE_ADDRESS", "5/h")
PARLOUR_RESET_RATE_EMAIL = os.environ.get("PARLOUR_RESET_RATE_EMAIL", "3/h")
# Confirmation links (docs/accounts.md): mails asked for per account (changing the address and
# sending the link again alike), and how long a link stays good.
PARLOUR_EMAIL_CONFIRM_RATE = os.environ.get("PARLOUR_EMAIL_CONFIRM_RATE", "3/h")
PARLOUR_EMAIL_CONFIRM_DAYS = int(os.environ.get("PARLOUR_EMAIL_CONFIRM_DAYS", "3"))
# The counters live in the site's database (table made by accounts migration 0002):
# shared by every web process on SQLite and PostgreSQL, and up while Redis is down. The backend
# makes incr atomic (accounts/throttle_cache.py); ratelimit only knows it as "not officially
# supported" (W001), silenced below. The default cache stays Django's per-process memory cache.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {
        "BACKEND": "accounts.throttle_cache.AtomicCounterDatabaseCache",
        "LOCATION": "parlour_throttle_cache",
        # Culling past MAX_ENTRIES drops live counters too: far above any real count of them.
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
}
RATELIMIT_USE_CACHE = "throttle"
# Fail closed: the counters are in the database the site cannot run without, so a failure to
# count is rare and brief; refusing a registration then costs a retry, letting it through would
# switch the limit off for whoever can cause the failure.
RATELIMIT_FAIL_OPEN = False
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

# Mail: the console backend by default (mails are printed); SMTP with
# EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and the variables below (README).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "parlour@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))

# --- Notifications (docs/notifications.md) ----------------------------------------------------
# The site's address as mails link to it (no trailing slash).
PARLOUR_SITE_URL = os.environ.get("PARLOUR_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# At most one "your turn" mail per person and match in this many seconds (12 hours).
PARLOUR_TURN_MAIL_EVERY = float(os.environ.get("PARLOUR_TURN_MAIL_EVERY", str(12 * 3600)))
# Seconds between becoming awaited and the turn mail's check: a person at the table by then
# has been marked seen, and gets no mail.
PARLOUR_TURN_MAIL_DELAY = float(os.environ.get("PARLOUR_TURN_MAIL_DELAY", "180"))
# How often beat looks for turn deadlines 80% gone, and for turn mails whose task never ran
# (seconds).
PARLOUR_REMINDER_EVERY = float(os.environ.get("PARLOUR_REMINDER_EVERY", "300"))

# --- Web push (docs/notifications.md, "Web push") ---------------------------------------------
# The VAPID pair that signs every push (base64url: the 32-byte secret, the 65-byte public point;
# ``vapid --gen`` or ``python -c "from config.vapid import key_pair_new; print(key_pair_new())"``
# makes one). Required in production; the embedded default generates one into DATA_DIR once.
PARLOUR_VAPID_PRIVATE_KEY = os.environ.get("PARLOUR_VAPID_PRIVATE_KEY", "")
PARLOUR_VAPID_PUBLIC_KEY = os.environ.get("PARLOUR_VAPID_PUBLIC_KEY", "")
if not (PARLOUR_VAPID_PRIVATE_KEY and PARLOUR_VAPID_PUBLIC_KEY):
    if PRODUCTION:
        raise ImproperlyConfigured(
            "PARLOUR_VAPID_PRIVATE_KEY and PARLOUR_VAPID_PUBLIC_KEY must be set when "
            "PARLOUR_PRODUCTION=1"
        )
    PARLOUR_VAPID_PRIVATE_KEY, PARLOUR_VAPID_PUBLIC_KEY = key_pair_stored(DATA_DIR)
# Whom a push service may write to about this site's pushes.
PARLOUR_VAPID_SUBJECT = os.environ.get("PARLOUR_VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
# The push services a subscription may name (https, by host or a parent domain of it): the
# worker POSTs to the endpoint a browser gave, so no other address is accepted.
PARLOUR_PUSH_HOSTS = env_list(
    "PARLOUR_PUSH_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,"
    "notify.windows.com,push.apple.com",
)
# Also accept http endpoints on a loopback address (a local stand-in push service: tests, and
# developers with PARLOUR_DEBUG=1).
PARLOUR_PUSH_LOOPBACK = env_bool("PARLOUR_PUSH_LOOPBACK", DEBUG)
PARLOUR_PUSH_DEVICES = 5  # devices a person may have; a further one replaces the oldest
# Seconds a push service may take to answer for one device.
PARLOUR_PUSH_TIMEOUT = float(os.environ.get("PARLOUR_PUSH_TIMEOUT", "5"))
# Seconds a push service keeps a push for a device that is off (12 hours).
PARLOUR_PUSH_TTL = int(os.environ.get("PARLOUR_PUSH_TTL", str(12 * 3600)))
# Seconds between becoming awaited and the turn push's check: a person at the table by then
# has been marked seen, and gets no push.
PARLOUR_TURN_PUSH_DELAY = float(os.environ.get("PARLOUR_TURN_PUSH_DELAY", "10"))
# After a push reached a device, the turn mail waits this many seconds (6 hours) instead of
# PARLOUR_TURN_MAIL_DELAY, and goes then only if the person still has not looked.
PARLOUR_TURN_MAIL_AFTER_PUSH = float(os.environ.get("PARLOUR_TURN_MAIL_AFTER_PUSH", str(6 * 3600)))

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every start without it
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Outside production WhiteNoise also serves straight from the apps' and ``static/``'s files, so
# a ``runserver`` with DEBUG off (the default) has its stylesheet and scripts without a
# ``collectstatic``. Production serves only the collected, hashed files.
WHITENOISE_USE_FINDERS = not PRODUCTION

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# --- Security headers and CSP (docs/hardening.md) ---------------------------------------------
# The same headers in every mode, so a page that breaks under them breaks in development first.
if PRODUCTION and DEBUG:
    # DEBUG pages show settings, SQL and tracebacks (a seat's hidden hand among them).
    raise RuntimeError("DEBUG must be off when PARLOUR_PRODUCTION=1")
SECURE_REFERRER_POLICY = "same-origin"  # other sites never see match or replay addresses
X_FRAME_OPTIONS = "DENY"  # no framing at all (CSP frame-ancestors 'none' says it again)
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# django-csp 4 format. Every script and stylesheet is a file under static/: no inline <script>,
# no <style>, no style= attribute, no eval (htmx's allowEval is off in base.html). A new script
# goes in static/js/ and is loaded with <script src="{% static ... %}" defer>.
_SELF, _NONE = "'self'", "'none'"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [_SELF],
        "script-src": [_SELF],
        "style-src": [_SELF],
        "img-src": [_SELF],  # nothing here or in the admin uses data: images
        "connect-src": [_SELF],  # htmx requests and polling
        "worker-src": [_SELF],  # the service worker, /sw.js (web push)
        "manifest-src": [_SELF],  # /manifest.webmanifest (the installable app)
        "font-src": [_SELF],
        "form-action": [_SELF],
        "frame-ancestors": [_NONE],
        "base-uri": [_SELF],
        "object-src": [_NONE],
    }
}

# --- Celery -----------------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
_broker = os.environ.get("CELERY_BROKER_URL", "")
CELERY_FILESYSTEM_DIR = DATA_DIR / "broker"
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

# --- Live events (games/live/, docs/live.md) ---------------------------------------------------
# Open pages hear "match M is at version V" and their badge count over one server-sent-events
# stream a tab, fed by Redis pub/sub: on whenever Redis is configured. Without it (the embedded
# default) pages poll as before; PARLOUR_LIVE=0 turns streams off with Redis too.
PARLOUR_LIVE = bool(REDIS_URL) and os.environ.get("PARLOUR_LIVE", "1") == "1"
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

# --- Bots, rounds and deadlines ---------------------------------------------------------------
# Seconds bots hold back after a person's card when challenges are on, so a challenge can come.
PARLOUR_BOT_WINDOW = float(os.environ.get("PARLOUR_BOT_WINDOW", "2"))
# Seconds a finished Gulliver round stays on the table before the next deal.
PARLOUR_ROUND_PAUSE = float(os.environ.get("PARLOUR_ROUND_PAUSE", "5"))
# Seconds a match waiting on a bot (or a deal) may sit still before the sweeper re-enqueues it.
PARLOUR_SWEEP_AFTER = float(os.environ.get("PARLOUR_SWEEP_AFTER", "60"))
# How long a challenge waits for its answer before it expires (days; docs/invitations.md), and
# how often beat marks the lapsed ones expired (seconds).
PARLOUR_CHALLENGE_DAYS = float(os.environ.get("PARLOUR_CHALLENGE_DAYS", "3"))
PARLOUR_INVITATIONS_EVERY = float(os.environ.get("PARLOUR_INVITATIONS_EVERY", "300"))
# How often beat runs the sweeper and the deadline check (seconds).
PARLOUR_SWEEP_EVERY = float(os.environ.get("PARLOUR_SWEEP_EVERY", "30"))
PARLOUR_DEADLINE_EVERY = float(os.environ.get("PARLOUR_DEADLINE_EVERY", "60"))
# How often beat runs the rating sweeper, which rates finished matches left pending (seconds).
PARLOUR_RATINGS_EVERY = float(os.environ.get("PARLOUR_RATINGS_EVERY", "60"))
# The strong bot's thinking time per decision, in milliseconds.
PARLOUR_BOT_STRONG_BUDGET_MS = float(os.environ.get("PARLOUR_BOT_STRONG_BUDGET_MS", "800"))
# Post-game analysis (docs/analysis.md): the strong bot's thinking time per decision analysed,
# in milliseconds, and optionally an iteration cap too (tests set one, so a run replays exactly).
PARLOUR_ANALYSIS_BUDGET_MS = float(os.environ.get("PARLOUR_ANALYSIS_BUDGET_MS", "300"))
PARLOUR_ANALYSIS_ITERATIONS = (
    int(os.environ["PARLOUR_ANALYSIS_ITERATIONS"])
    if os.environ.get("PARLOUR_ANALYSIS_ITERATIONS")
    else None
)
# How long one run of the analysis task judges decisions before it sends its own continuation
# and returns (seconds), so the bot moves queued meanwhile run between slices; 0: one decision
# a run.
PARLOUR_ANALYSIS_SLICE_S = float(os.environ.get("PARLOUR_ANALYSIS_SLICE_S", "2.0"))
# How many new analyses one person may ask for (django-ratelimit, the "throttle" cache); asking
# for one that exists already costs nothing.
PARLOUR_ANALYSIS_RATE = os.environ.get("PARLOUR_ANALYSIS_RATE", "10/h")

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# bench/web.py serves the site with one extra login-required page to measure other requests
# against; only that benchmark sets PARLOUR_BENCH, so no deployment ever routes to it.
if env_bool("PARLOUR_BENCH"):
    ROOT_URLCONF = "bench.urls"
