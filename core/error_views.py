"""The 400, 403 and 404 handlers: Django's error pages, without reading the request again.

Django's default error views are decorated with ``requires_csrf_token``, which runs the CSRF
middleware's check once more and so reads the request body once more. When the body is what
failed (a form posted as ``application/x-www-form-urlencoded; charset=latin-1`` is a
``BadRequest``; a multipart body without a boundary is a ``MultiPartParserError``), the error
view raises the same error again and the 400 becomes a 500. It happened on every CSRF-checked
POST, and on a POST of that kind to any unknown URL or with a bad ``Host`` (found by
tests/integration/test_fuzz.py). The error pages hold no form (templates/errors/_base.html) and
need no token, so these render the same templates and touch neither the body nor the session.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def error_page(template_name: str, status: int) -> HttpResponse:
    """An error template as the answer. No request is passed: no context processor runs, so
    no session, user or database read (the 500 handler in core/unavailable.py uses it too)."""
    return HttpResponse(render_to_string(template_name), status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``."""
    return error_page("400.html", 400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``."""
    return error_page("403.html", 403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``."""
    return error_page("404.html", 404)
