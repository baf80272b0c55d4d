"""Each request in the reader's time zone, without a query of its own.

The zone comes from the session (``accounts.services.time_zone`` writes it at sign-in and when it is
changed), which a signed-in request reads anyway (a session signed in before time zones
existed reads the zone once and keeps it); a request without a session cookie (a
signed-out visitor) is not made to open one, and sees UTC. Templates' ``date`` filters and
``timeuntil`` then show every time in that zone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.selectors.time_zone import SESSION_KEY, zone_named, zone_of


class ReaderTimeZoneMiddleware:
    """Activate the session's time zone for the request (UTC without one)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = None
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            name = request.session.get(SESSION_KEY)
            if name is None and request.user.is_authenticated:
                # A session older than time zones: read the zone once and keep it.
                name = zone_of(request.user.pk).key
                request.session[SESSION_KEY] = name
        if isinstance(name, str):
            timezone.activate(zone_named(name))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
