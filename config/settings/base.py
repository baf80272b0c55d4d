"""The site itself: paths, the mode (production or not, debug or not), the apps and middleware,
templates, password rules, static files and logging (docs/configuration.md, "The site").

Also the two helpers every settings module reads the environment with, ``env_bool`` and
``env_list``; ``tests/unit/test_configuration_doc.py`` finds every variable they and
``os.environ`` read, and fails if docs/configuration.md does not list it.
"""

from __future__ import annotations

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
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
    "django.forms",  # the form renderer below finds Django's own widget templates here
    "csp",
    "django_htmx",
    "template_partials",
    "axes",  # failed sign-ins (docs/hardening.md)
    "django_ratelimit",  # registration and password-reset limits; its checks vet the cache
    "core",  # the platform: middlewares, error views, brokers, the backup command
    "accounts",
    "games",
    "competitions",  # above games: leagues and the ladder (docs/competitions.md)
]

MIDDLEWARE = [
    # Under ASGI, a response streamed from a sync iterator (a static file's, a download's)
    # streams from an async one, read in worker threads (core/async_streaming.py).
    "core.async_streaming.AsyncStreamingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A NUL in a path or an admin query is a 400 before a query sees it (core/null_bytes.py).
    "core.null_bytes.NullBytesRejectedMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The reader's language: the session's copy of the person's choice, else the switch's
    # cookie or Accept-Language; no query of its own (accounts/language_middleware.py).
    "accounts.language_middleware.ReaderLanguageMiddleware",
    # An empty _to_field is a 400 before the admin turns it into a 500 (core/admin_to_field.py).
    "core.admin_to_field.AdminEmptyToFieldRejectedMiddleware",
    # The reader's time zone, from the session: no query of its own
    # (accounts/services/time_zone.py).
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
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.notice_badge",
                "games.context_processors.parlour_games",
                "games.context_processors.parlour_live",
            ],
        },
    },
]

# Forms render through the site's templates, so templates/django/forms/ may replace one of
# Django's: a form's errors sit in an alert region (docs/accessibility.md, "WCAG 2.2 AA").
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

WSGI_APPLICATION = "config.wsgi.application"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

# The site's languages (docs/translation.md): British English (the words as written, and the
# dates as Britain writes them), German and French. A signed-in person's choice, kept on the
# account and copied into the session, wins; a visitor's comes from the language switch's cookie
# or the browser's Accept-Language (accounts/language_middleware.py). URLs carry no language.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
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
