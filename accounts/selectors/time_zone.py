"""A person's time zone, read (docs/accounts.md, "Time zones"): the zone they chose
(``TimeZoneSetting``; no row: UTC), and zone names looked up safely.

Reading that row on every request would add a statement to every page, the move POST and the
204 poll included, so the session keeps a copy (``SESSION_KEY``, written by
``accounts.services.time_zone``); ``accounts.time_zone_middleware`` activates it for the
request. Mail is rendered in the recipient's zone by the sender (``zone_of``, read once per
mail).

The lists people choose from (``zone_groups``) offer the zone database's own list of places,
``zone.tab`` (one line per country and zone; the file Debian's and the ``tzdata`` package's
zone databases ship), grouped by region and labelled with the city and country in the reader's
language (Babel's words for them, the regions' from the catalogues), the IANA name kept in
sight: no deprecated alias ("US/Eastern", "America/Buenos_Aires"), no ``localtime``, no
``Etc/GMT+5`` (whose sign is the reverse of what it seems). Any zone the database knows is
still accepted when posted (``known_zone_names``): a person whose stored zone is an alias keeps
it, shown selected.
"""

from __future__ import annotations

import importlib.resources
import unicodedata
import zoneinfo
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.dates import get_timezone_location
from django.utils import translation
from django.utils.translation import gettext_lazy

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
# Each region's heading, in the reader's language ("Americas", "Amerika", "Amériques").
REGION_NAMES = {
    "Africa": gettext_lazy("Africa"),
    "America": gettext_lazy("Americas"),
    "Antarctica": gettext_lazy("Antarctica"),
    "Arctic": gettext_lazy("Arctic"),
    "Asia": gettext_lazy("Asia"),
    "Atlantic": gettext_lazy("Atlantic Ocean"),
    "Australia": gettext_lazy("Australia"),
    "Europe": gettext_lazy("Europe"),
    "Indian": gettext_lazy("Indian Ocean"),
    "Pacific": gettext_lazy("Pacific Ocean"),
}
UTC_LABEL = gettext_lazy("UTC (Coordinated Universal Time)")


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


def zone_label(name: str, country: str | None = None, city: str | None = None) -> str:
    """How a list shows ``name``: its city (``city``, else the name's last part), its country
    when known, and the name itself, as in "Buenos Aires, Argentina
    (America/Argentina/Buenos_Aires)"."""
    if "/" not in name:
        return name
    city = city or name.rsplit("/", 1)[1].replace("_", " ")
    return f"{city}, {country} ({name})" if country and country != city else f"{city} ({name})"


def zone_groups(language: str | None = None) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The zones to choose from, as ``(region, ((name, label), ...))`` groups: UTC first, then
    each region of ``REGIONS`` with its places sorted by label, in ``language`` (the active
    one when not given). Built once per language a process (``_zone_groups``)."""
    return _zone_groups((language or translation.get_language() or "en").lower())


@lru_cache(maxsize=8)
def _zone_groups(language: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """``zone_groups`` in ``language``. From ``zone.tab`` when the zone database ships it;
    else (no table found) every known name under a region, which may hold a few aliases but
    never ``localtime``, ``Etc/...`` or the old "US/..." names.

    English reads the zone database's own words: the city from the name, the country from
    ``iso3166.tab``. Another language reads Babel's (the Unicode CLDR's) words for both, the
    city as that language writes it ("Kalkutta", "Londres") and the country too ("Indien",
    "Royaume-Uni"), each falling back to the English where Babel has none; the regions'
    headings are the catalogues' (``REGION_NAMES``)."""
    known = known_zone_names()
    english = {row[0]: row[1] for row in _rows(_table_text("iso3166.tab")) if len(row) >= 2}
    places: dict[str, str | None] = {
        row[2]: row[0]
        for row in _rows(_table_text("zone.tab"))
        if len(row) >= 3 and row[2] in known
    }
    if not places:
        places = {name: None for name in known if name.split("/", 1)[0] in REGIONS}
    words = _place_words(language)
    # English keeps the order it always had; another language sorts as its reader would.
    order = str if words is None else _sort_key
    with translation.override(language):
        groups: list[tuple[str, tuple[tuple[str, str], ...]]] = [
            ("UTC", ((DEFAULT_ZONE, str(UTC_LABEL)),))
        ]
        for region in REGIONS:
            names = [name for name in places if name.split("/", 1)[0] == region]
            if not names:
                continue
            labels = {}
            for name in names:
                code = places[name]
                country = english.get(code) if code else None
                city = None
                if words is not None:
                    city, country = words(name, code, country)
                labels[name] = zone_label(name, country, city)
            labelled = sorted((order(label), label, name) for name, label in labels.items())
            groups.append(
                (str(REGION_NAMES[region]), tuple((n, label) for _key, label, n in labelled))
            )
    return tuple(groups)


def _place_words(
    language: str,
) -> Callable[[str, str | None, str | None], tuple[str, str | None]] | None:
    """For a language other than English that Babel knows, a function giving a zone's city
    and country in it (``(name, country code, English country)``); ``None`` for English."""
    if language.split("-")[0] == "en":
        return None
    try:
        locale = Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        return None
    territories = locale.territories

    def words(name: str, code: str | None, country: str | None) -> tuple[str, str | None]:
        try:
            city = get_timezone_location(name, locale=locale, return_city=True)
        except LookupError:
            city = name.rsplit("/", 1)[1].replace("_", " ")
        return city, territories.get(code, country) if code else country

    return words


def _sort_key(label: str) -> str:
    """A label as a reader sorts it: accents and case aside ("Île" with the "I"s)."""
    folded = unicodedata.normalize("NFKD", label)
    return "".join(c for c in folded if not unicodedata.combining(c)).casefold()


@lru_cache(maxsize=1)
def offered_zone_names() -> frozenset[str]:
    """The names ``zone_groups`` offers."""
    return frozenset(name for _, zones in _zone_groups("en") for name, _ in zones)
