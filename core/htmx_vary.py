"""``Vary: HX-Request`` on every response the views answer, so no cache serves an htmx
fragment for a page, or a page for a fragment.

The same URL answers two ways: ``/matches/<id>/`` is the whole page, or only the table for
htmx's poll; the history, the replay and the analysis panel likewise; ``login_required_htmx``
answers a signed-out htmx request with a worded 401 and anyone else with a 302; the 503 of
``core/unavailable.py`` is a fragment for htmx. Without the header, a browser's cache (the
Back button, history restore) may show the table alone as if it were the page: what
django-htmx's documentation warns of.

Which responses get it: all that pass through here, whatever the method, status or type.
Listing the views that branch on ``request.htmx`` would go stale with the next partial, and a
miss is a broken page; an extra ``Vary`` on a response that does not differ, or that nobody
caches (a POST's answer, a ``no-store`` page), costs only the header. Static files never reach
this middleware (WhiteNoise answers them first), so their caching is untouched.

Placed right after django-htmx's middleware, so it wraps every view and the middleware below
it (the 503 of ``DatabaseUnavailableMiddleware``, axes' lockout page). A response made above
it (a 400 for a NUL, the CSRF failure page) is built before ``request.htmx`` exists and does
not read the header; the only one that does, the 503 answered by ``handler500`` when a database
error escapes the middleware above, is ``Cache-Control: no-store``, so no cache keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

HEADER = "HX-Request"


class HtmxVaryMiddleware:
    """Adds ``HX-Request`` to the response's ``Vary`` (once, keeping what is there)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_vary_headers(response, (HEADER,))
        return response
