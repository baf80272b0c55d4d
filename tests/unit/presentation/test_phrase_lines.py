"""Table phrases among the log's lines (games.presentation.phrases): with no phrase the lines
are exactly the log's, cut the same way; a phrase follows the entry of its ply."""

from __future__ import annotations

from games.logs import LogEntry
from games.presentation import BUILDERS
from games.presentation.common import event_lines
from games.presentation.phrases import lines_with_phrases, phrase_line
from games.selectors.phrases import SaidPhrase

NAMES = ["Ann", "Bea"]


def _log(entries: int, events_each: int) -> list[LogEntry]:
    deal = LogEntry(seat=None, events=[{"type": "deal", "seat": None}], ply=0)
    return [deal] + [
        LogEntry(
            seat=ply % 2,
            events=[{"type": "pass", "seat": ply % 2} for _ in range(events_each)],
            auto="deadline" if ply % 5 == 0 else "",
            ply=ply,
        )
        for ply in range(1, entries + 1)
    ]


def test_without_phrases_the_lines_are_the_logs_cut_the_same_way():
    line_of = BUILDERS["faraway"].event_line
    for entries, each, limit in ((3, 1, 60), (40, 3, 60), (70, 2, 60), (9, 4, 10), (9, 4, 1)):
        log = _log(entries, each)
        expected = event_lines(log, NAMES, line_of, limit=limit)
        assert lines_with_phrases("faraway", log, [], NAMES, limit=limit) == expected


def test_a_phrase_follows_the_lines_of_its_entry_and_a_cut_entry_takes_it_along():
    log = _log(4, 2)
    phrases = [SaidPhrase(seat=1, ply=0, key="good_luck"), SaidPhrase(seat=0, ply=2, key="oops")]
    lines = lines_with_phrases("faraway", log, phrases, NAMES, limit=None)
    luck, oops = (
        phrase_line("faraway", phrases[0], NAMES),
        phrase_line("faraway", phrases[1], NAMES),
    )
    assert luck == "Bea: “Good luck”" and oops == "Ann: “Oops”"
    per_entry = [event_lines([e], NAMES, BUILDERS["faraway"].event_line, None) for e in log]
    assert lines == [
        *per_entry[0],
        luck,
        *per_entry[1],
        *per_entry[2],
        oops,
        *per_entry[3],
        *per_entry[4],
    ]
    shown = lines_with_phrases("faraway", log, phrases, NAMES, limit=5)  # entries 2 (one) to 4
    assert luck not in shown and oops in shown


def test_every_line_answers_said_so_the_templates_lookup_never_fails():
    """``match.html`` asks each log line ``line.said``: a line without the attribute sends
    Django's lookup through three failures and a ``dir()`` (a third of a partial's render,
    issue 35), so a move's line answers ``False`` and a phrase's ``True``."""
    log = _log(3, 2)
    phrases = [SaidPhrase(seat=1, ply=2, key="good_luck")]
    lines = lines_with_phrases("faraway", log, phrases, NAMES, limit=None)
    assert [line.said for line in lines] == [line.endswith("“Good luck”") for line in lines]
    assert sum(line.said for line in lines) == 1
    plain = event_lines(log, NAMES, BUILDERS["faraway"].event_line)
    assert plain and not any(line.said for line in plain)
