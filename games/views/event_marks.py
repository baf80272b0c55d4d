"""Hooks a capability above games fills, for the pages games serves (docs/competitions.md,
"On profiles and in history"): games never imports ``competitions``, so the leagues and the
ladder add, at start-up (``competitions/apps.py``),

- a **match mark**: for the matches a history lists, what event each was played in (a league
  table, a ladder challenge), as words and a link, read in one query for the whole page;
- a **profile section**: a partial template and its context for a person's profile (their
  leagues and ladder places).

With nothing added, both cost nothing (no query).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class MatchMark:
    text: str  # "League table: Autumn league", in words
    url: str  # the event's page (a path)


@dataclass(frozen=True)
class ProfileSection:
    template: str
    context: Callable[[Any, Any], dict[str, Any]]  # (owner, viewer) -> the partial's context


MatchMarker = Callable[[list[int]], dict[int, MatchMark]]
MATCH_MARKERS: list[MatchMarker] = []
PROFILE_SECTIONS: list[ProfileSection] = []


def match_marker_add(marker: MatchMarker) -> None:
    """Add what marks a history's rows (``marker(match ids) -> {match id: MatchMark}``, one
    query); adding the same one twice keeps one."""
    if marker not in MATCH_MARKERS:
        MATCH_MARKERS.append(marker)


def profile_section_add(section: ProfileSection) -> None:
    """Add a section to every profile; the same template twice keeps one."""
    if all(s.template != section.template for s in PROFILE_SECTIONS):
        PROFILE_SECTIONS.append(section)


def match_marks(match_ids: Iterable[int]) -> dict[int, MatchMark]:
    """Each listed match's mark, if any (one query a marker)."""
    ids = list(match_ids)
    marks: dict[int, MatchMark] = {}
    if not ids:
        return marks
    for marker in MATCH_MARKERS:
        marks.update(marker(ids))
    return marks


def lines_marked(lines: list[Any]) -> list[Any]:
    """The history's lines with their marks (``line.mark``), from one query a marker."""
    marks = match_marks(line.match.pk for line in lines)
    return [_with_mark(line, marks.get(line.match.pk)) for line in lines]


def _with_mark(line: Any, mark: MatchMark | None) -> Any:
    return replace(line, mark=mark)


def profile_sections(owner: Any, viewer: Any) -> list[tuple[str, dict[str, Any]]]:
    """Each added section's template and context for ``owner``'s profile seen by ``viewer``."""
    return [(s.template, s.context(owner, viewer)) for s in PROFILE_SECTIONS]
