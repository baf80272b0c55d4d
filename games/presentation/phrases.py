"""Table phrases in words (docs/phrases.md): each said phrase as a log line ("Ann: “Good
luck”"), set among the moves' lines after the entry of the ply it was said at; and the
phrases a seated person may pick from."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.logs import EVENT_LOG_LENGTH, LogEntry
from games.phrases import game_phrases, phrase_words
from games.presentation import BUILDERS
from games.presentation.common import LogLine, event_lines, seat_name

if TYPE_CHECKING:
    from games.selectors.phrases import SaidPhrase


class SaidLine(LogLine):
    """A log line that is a phrase, not an event: templates mark it (``line.said``)."""

    said = True


def phrase_line(
    game: str, phrase: SaidPhrase, names: list[str], key: str = "", reader: int | None = None
) -> LogLine:
    """One said phrase as a line of the log (``key``: its name among the log's lines)."""
    words = f"{seat_name(names, phrase.seat)}: “{phrase_words(game, phrase.key)}”"
    return SaidLine.keyed(words, key, own=reader is not None and phrase.seat == reader)


def phrase_choices(game: str) -> list[tuple[str, str]]:
    """The (key, words) a seated person picks from at ``game``'s table."""
    return list(game_phrases(game))


def lines_with_phrases(
    game: str,
    log: Sequence[LogEntry],
    phrases: Sequence[SaidPhrase],
    names: list[str],
    limit: int | None = EVENT_LOG_LENGTH,
    reader: int | None = None,
) -> list[str]:
    """The log's lines as ``event_lines`` words them (the latest ``limit`` events), oldest
    first, each phrase just after the lines of the entry whose ply it was said at. A phrase
    whose entry is not shown is not shown either. A phrase's key is its ply and its place
    among the phrases said there; ``reader``'s own phrases are ``own``."""
    if limit is not None:
        log = _latest_events(log, limit)
    said: dict[int, list[SaidPhrase]] = {}
    for phrase in phrases:
        said.setdefault(phrase.ply, []).append(phrase)
    line_of = BUILDERS[game].event_line
    lines: list[str] = []
    for entry in log:
        lines += event_lines([entry], names, line_of, limit=None, reader=reader)
        lines += [
            phrase_line(game, p, names, f"{entry.ply}.p{n}", reader)
            for n, p in enumerate(said.get(entry.ply, []))
        ]
    return lines


def _latest_events(log: Sequence[LogEntry], limit: int) -> list[LogEntry]:
    """``log`` cut to its latest ``limit`` events, as ``event_lines`` cuts it (an entry cut
    short loses the note that follows its first event)."""
    skip = max(0, sum(len(entry.events) for entry in log) - limit)
    kept: list[LogEntry] = []
    for entry in log:
        if skip and skip >= len(entry.events):
            skip -= len(entry.events)
            continue
        if skip:
            entry = dataclasses.replace(entry, events=entry.events[skip:], auto="")
            skip = 0
        kept.append(entry)
    return kept
