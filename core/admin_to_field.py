"""A 400 for the admin's ``_to_field`` parameter given empty.

Django's admin checks a non-empty ``_to_field`` against the fields it may name (a refusal is a
400), but an empty one skips that check and then asks the model for a field named "": a
``FieldDoesNotExist`` and a 500 (``/admin/auth/group/1/change/?_to_field=``, found by
tests/integration/test_fuzz.py). No admin link ever sends it empty, so it is refused here before
the admin sees it, in the query string or a posted form alike.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

from core.error_views import bad_request

ADMIN_PREFIX = "/admin/"
TO_FIELD = "_to_field"  # django.contrib.admin.options.TO_FIELD_VAR


def empty_to_field(request: HttpRequest) -> bool:
    """Whether an admin request carries ``_to_field`` with an empty (or blank) value."""
    if not request.path_info.startswith(ADMIN_PREFIX):
        return False
    values = request.GET.getlist(TO_FIELD)
    if request.method == "POST":
        # A body Django cannot parse is answered by Django later (its own 400).
        with contextlib.suppress(Exception):
            values += request.POST.getlist(TO_FIELD)
    return any(not value.strip() for value in values)


class AdminEmptyToFieldRejectedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if empty_to_field(request):
            return bad_request(request, BadRequest("An empty _to_field in an admin request."))
        return self.get_response(request)
