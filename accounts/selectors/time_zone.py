"""A person's time zone, read (docs/accounts.md, "Time zones"): the zone they chose
(``TimeZoneSetting``; no row: UTC), and zone names looked up safely.

Reading that row on every request would add a statement to every page, the move POST and the
204 poll included, so the session keeps a copy (``SESSION_KEY``, written by
``accounts.services.time_zone``); ``accounts.time_zone_middleware`` activates it for the
request. Mail is rendered in the recipient's zone by the sender (``zone_of``, read once per
mail).

The lists people choose from (``zone_groups``) offer the zone database's own list of places,
``zone.tab`` (one line per country and zone; the file Debian's and the ``tzdata`` package's
zone databases ship), grouped by region and labelled with the city and country, the IANA name
kept in sight: no deprecated alias ("US/Eastern", "America/Buenos_Aires"), no ``localtime``, no
``Etc/GMT+5`` (whose sign is the reverse of what it seems). Any zone the database knows is
still accepted when posted (``known_zone_names``): a person whose stored zone is an alias keeps
it, shown selected.
"""

from __future__ import annotations

import importlib.resources
import zoneinfo
from functools import lru_cache
from pathlib import Path

from accounts.models import TimeZoneSetting

SESSION_KEY = "parlour_time_zone"
DEFAULT_ZONE = "UTC"
# The regions of zone.tab, in the order the lists show them (after UTC).
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)
REGION_NAMES = {
    "America": "Americas",
    "Atlantic": "Atlantic Ocean",
    "Indian": "Indian Ocean",
    "Pacific": "Pacific Ocean",
}


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


def _table_text(name: str) -> str | None:
    """A table file of the zone database (``zone.tab``, ``iso3166.tab``): from the system's zone
    directories (``zoneinfo.TZPATH``), else from the ``tzdata`` package if installed."""
    for directory in zoneinfo.TZPATH:
        path = Path(directory) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return (importlib.resources.files("tzdata.zoneinfo") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return None


def _rows(text: str | None) -> list[list[str]]:
    if text is None:
        return []
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def zone_label(name: str, country: str | None = None) -> str:
    """How a list shows ``name``: its city, its country when known, and the name itself, as in
    "Buenos Aires, Argentina (America/Argentina/Buenos_Aires)"."""
    if "/" not in name:
        return name
    city = name.rsplit("/", 1)[1].replace("_", " ")
    return f"{city}, {country} ({name})" if country and country != city else f"{city} ({name})"


@lru_cache(maxsize=1)
def zone_groups() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The zones to choose from, as ``(region, ((name, label), ...))`` groups: UTC first, then
    each region of ``REGIONS`` with its places sorted by label. From ``zone.tab`` when the zone
    database ships it; else (no table found) every known name under a region, which may hold a
    few aliases but never ``localtime``, ``Etc/...`` or the old "US/..." names."""
    known = known_zone_names()
    countries = {row[0]: row[1] for row in _rows(_table_text("iso3166.tab")) if len(row) >= 2}
    places: dict[str, str | None] = {
        row[2]: countries.get(row[0])
        for row in _rows(_table_text("zone.tab"))
        if len(row) >= 3 and row[2] in known
    }
    if not places:
        places = {name: None for name in known if name.split("/", 1)[0] in REGIONS}
    groups: list[tuple[str, tuple[tuple[str, str], ...]]] = [
        ("UTC", ((DEFAULT_ZONE, "UTC (Coordinated Universal Time)"),))
    ]
    for region in REGIONS:
        names = [name for name in places if name.split("/", 1)[0] == region]
        if names:
            labelled = sorted((zone_label(n, places[n]), n) for n in names)
            groups.append(
                (REGION_NAMES.get(region, region), tuple((n, label) for label, n in labelled))
            )
    return tuple(groups)


@lru_cache(maxsize=1)
def offered_zone_names() -> frozenset[str]:
    """The names ``zone_groups`` offers."""
    return frozenset(name for _, zones in zone_groups() for name, _ in zones)
