"""The address a request came from, as the sign-in throttles count it (docs/hardening.md).

django-axes (failed sign-ins) and django-ratelimit (registration, password reset) both key on
this one function, so the two never disagree about who is asking.

Behind reverse proxies, ``REMOTE_ADDR`` is the nearest proxy and ``X-Forwarded-For`` carries the
rest of the route, each proxy appending the address it heard from. Only the entries the site's
own proxies appended can be trusted; anything to their left is whatever the client sent. So with
``PARLOUR_TRUSTED_PROXIES = N`` the client is the N-th entry from the right, and with 0 (the
default: the site is served directly) the header is ignored, so a client cannot pick its own
address by sending one.

An address is always returned, and always a valid one: a value that does not parse (an odd
``REMOTE_ADDR``, a malformed header, too few entries) falls back to ``REMOTE_ADDR`` and then to
``UNKNOWN_ADDRESS``, because a garbage value would make ratelimit raise and PostgreSQL's ``inet``
column refuse axes' row (a 500 either way). IPv6 addresses are reduced to their /64 network:
one household or server usually holds a whole /64, so counting single addresses would let it
rotate past every limit.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

# Requests whose address cannot be read share this one (and so share their limits).
UNKNOWN_ADDRESS = "0.0.0.0"


def normalised(value: str | None) -> str | None:
    """``value`` as a canonical address (IPv6 as its /64 network), or None if it is not one."""
    if not value:
        return None
    text = value.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443", as some proxies write it
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "203.0.113.7:443"
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False).network_address)
    return str(address)


def client_address(request: HttpRequest) -> str:
    """The client's address for throttling: see the module docstring for the rules."""
    remote = normalised(request.META.get("REMOTE_ADDR"))
    trusted = int(getattr(settings, "PARLOUR_TRUSTED_PROXIES", 0))
    if trusted > 0:
        route = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if len(route) >= trusted:
            forwarded = normalised(route[-trusted])
            if forwarded is not None:
                return forwarded
    return remote or UNKNOWN_ADDRESS
