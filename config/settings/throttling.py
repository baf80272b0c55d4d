"""Sign-in throttling, registration and password-reset limits, confirmation links, and the
database cache their counters live in (docs/configuration.md, "Sign-in and limits";
docs/hardening.md).
"""

from __future__ import annotations

import os

from config.settings.live import WATCHER_CACHE

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
    "watchers": WATCHER_CACHE,  # the watchers' shared table (config/settings/live.py)
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
