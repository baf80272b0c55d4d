"""A person's time zone, read (docs/accounts.md, "Time zones"): the zone they chose
(``TimeZoneSetting``; no row: UTC), and zone names looked up safely.

Reading that row on every request would add a statement to every page, the move POST and the
204 poll included, so the session keeps a copy (``SESSION_KEY``, written by
``accounts.services.time_zone``); ``accounts.time_zone_middleware`` activates it for the
request. Mail is rendered in the recipient's zone by the sender (``zone_of``, read once per
mail).
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from accounts.models import TimeZoneSetting

SESSION_KEY = "parlour_time_zone"
DEFAULT_ZONE = "UTC"


@lru_cache(maxsize=64)
def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """The zone called ``name``, or UTC for anything that is not one of the known zone names
    (never a path or a garbage key: only names from the zone database are looked up)."""
    if name not in known_zone_names():
        return zoneinfo.ZoneInfo(DEFAULT_ZONE)
    return zoneinfo.ZoneInfo(name)


@lru_cache(maxsize=1)
def known_zone_names() -> frozenset[str]:
    """Every IANA zone name the form offers (the zone database's, less ``Factory``)."""
    return frozenset(TimeZoneSetting._meta.get_field("zone").tz_backend.base_tzstrs)


def zone_of(user_id: int) -> zoneinfo.ZoneInfo:
    """The zone ``user_id`` reads times in (one query; UTC when they never chose one)."""
    name = TimeZoneSetting.objects.filter(user_id=user_id).values_list("zone", flat=True).first()
    return zone_named(str(name)) if name is not None else zone_named(DEFAULT_ZONE)
