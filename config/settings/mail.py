"""Mail: the backend and SMTP server, and the turn and deadline mails' timing
(docs/configuration.md, "Mail and notifications"; docs/notifications.md).
"""

from __future__ import annotations

import os

from config.settings.base import env_bool

# Mail: the console backend by default (mails are printed); SMTP with
# EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and the variables below
# (docs/configuration.md).
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
