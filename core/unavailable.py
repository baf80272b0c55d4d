"""A 503 page, not a traceback, while the database cannot be reached (e.g. a PostgreSQL restart).

Two ways in, one answer:

- ``DatabaseUnavailableMiddleware.process_exception`` for a view that hits a lost or refused
  connection (most requests: the session and the user are loaded lazily, inside the view);
- ``server_error``, the project's ``handler500``, for the same errors raised outside a view (a
  session saved in ``process_response``), where Django has already turned the exception into
  a call of the 500 handler with the exception in ``sys.exc_info()``.

The answer touches nothing that could need the database: no ``request.user``, no session, no
context processors (``render_to_string`` without a request), so it cannot fail the same way.
Django closes the broken connection when the request ends (``CONN_MAX_AGE`` with
``conn_health_checks`` drops an unusable one before the next request reuses it), so the first
request once the database is back opens a fresh connection and succeeds.

Only connection-level errors count: Django's ``OperationalError`` and ``InterfaceError`` (the
DB-API's "not under the programmer's control" errors: refused, lost, shutting down, and also
lock timeouts and deadlocks, which a retry cures too). An ``IntegrityError`` or a
``ProgrammingError`` is a bug and stays a 500.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from core.error_views import error_page

logger = logging.getLogger("parlour.unavailable")

# Seconds a client is asked to wait: a PostgreSQL restart or failover takes a few.
RETRY_AFTER_SECONDS = 5

DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)

HTMX_BODY = (
    '<p class="error" role="alert" id="move-error">Parlour cannot reach its storage just now; '
    "nothing was changed. Please try again in a few seconds.</p>"
)


def database_unavailable_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """The 503 answer: the full page, or a short fragment for an htmx request."""
    logger.error(
        "database unavailable, answering 503: %s %s: %s: %s",
        request.method,
        request.path,
        type(exc).__name__,
        exc,
    )
    if request.headers.get("HX-Request") == "true":
        body = HTMX_BODY
    else:
        body = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Answers 503 for a view that raised a database connection error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_UNAVAILABLE):
            return database_unavailable_response(request, exception)
        return None


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: a 503 for a database connection error raised outside a view, else the
    500 page.

    Rendered here rather than by Django's ``defaults.server_error``, whose
    ``requires_csrf_token`` runs the CSRF check again and so reads the body again: on a request
    whose body could not be parsed, the handler itself would raise (core/error_views.py).
    """
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_UNAVAILABLE):
        return database_unavailable_response(request, exc)
    return error_page(template_name, 500)
