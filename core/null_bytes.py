"""A 400 for a NUL character (``%00``) where it would reach the database as it came.

PostgreSQL text cannot hold NUL: a lookup with one raises ``DataError``, a 500. Found by
tests/integration/test_fuzz.py in two places, both refused here before any view runs:

- a path segment (``/players/%00/``, ``/matches/join/%00/``): no username or token of the site
  holds a NUL (Django's validators refuse it), so no such URL can name anything;
- a query parameter of the admin, whose list filters pass their values to the database as they
  come (``/admin/games/match/?status__exact=%00``);
- a request header: django-axes stores a failed sign-in's ``User-Agent`` as it came. gunicorn
  refuses such a header itself, but the embedded default's runserver passes it on.

The site's own pages vet every query parameter instead (a garbage filter or page number is
ignored, and the page says so: games/filters.py), so their query strings are left to them.
SQLite stores NUL, so there the same URLs were answered; now both databases answer alike.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

from core.error_views import bad_request

NUL = "\x00"
ADMIN_PREFIX = "/admin/"


def holds_nul(request: HttpRequest) -> bool:
    """Whether the decoded path or a header holds a NUL, or, in the admin, a query key or value."""
    if NUL in request.path_info:
        return True
    if any(NUL in value for key, value in request.META.items() if key.startswith("HTTP_")):
        return True
    if not request.path_info.startswith(ADMIN_PREFIX):
        return False
    return any(
        NUL in key or any(NUL in value for value in values) for key, values in request.GET.lists()
    )


class NullBytesRejectedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if holds_nul(request):
            return bad_request(request, BadRequest("A NUL character in the URL or a header."))
        return self.get_response(request)
