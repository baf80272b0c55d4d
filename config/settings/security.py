"""Production's HTTPS settings, the security headers and the Content Security Policy
(docs/configuration.md, "Security"; docs/hardening.md).
"""

from __future__ import annotations

import os

from config.settings.base import DEBUG, PRODUCTION, env_bool

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
