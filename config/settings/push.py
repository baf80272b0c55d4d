"""Web push: the VAPID key pair, the push services a device may name, and the turn push's
timing (docs/configuration.md, "Web push"; docs/notifications.md, "Web push").
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import DATA_DIR, DEBUG, PRODUCTION, env_bool, env_list
from config.settings.mail import DEFAULT_FROM_EMAIL
from games.push.vapid import key_pair_stored

# --- Web push (docs/notifications.md, "Web push") ---------------------------------------------
# The VAPID pair that signs every push (base64url: the 32-byte secret, the 65-byte public point;
# ``vapid --gen`` or
# ``python -c "from games.push.vapid import key_pair_new; print(key_pair_new())"`` makes one).
# Required in production; the embedded default generates one into DATA_DIR once.
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
