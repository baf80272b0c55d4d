"""Each log line's key (``LogLine.key``, docs/accessibility.md): one per line, and the same
whether the log is cut to its newest events or not (an entry cut short keeps its lines' keys),
so a page told a line once is never told it again; the reader's own lines are the first event of
each move their seat chose, never a move the bot made for them."""

from __future__ import annotations

from games.presentation import BUILDERS
from games.presentation.common import event_lines
from games.presentation.phrases import lines_with_phrases
from games.selectors.phrases import SaidPhrase
from tests.unit.presentation.test_phrase_lines import NAMES, _log

LINE_OF = BUILDERS["faraway"].event_line


def _keyed(lines: list[str]) -> list[tuple[str, str]]:
    return [(line, line.key) for line in lines]


def test_a_cut_log_keys_its_lines_as_the_whole_log_does():
    phrases = [SaidPhrase(seat=0, ply=p, key="good_luck") for p in (3, 3, 7)]
    for entries, each, limit in ((40, 3, 60), (9, 4, 10), (9, 4, 1), (12, 3, 7)):
        log = _log(entries, each)
        whole = event_lines(log, NAMES, LINE_OF, limit=None)
        assert len({line.key for line in whole}) == len(whole)
        cut = event_lines(log, NAMES, LINE_OF, limit=limit)
        assert _keyed(cut) == _keyed(whole)[-len(cut) :]
        with_phrases = lines_with_phrases("faraway", log, phrases, NAMES, limit=None)
        assert len({line.key for line in with_phrases}) == len(with_phrases)
        shown = lines_with_phrases("faraway", log, phrases, NAMES, limit=limit)
        assert _keyed(shown) == _keyed(with_phrases)[-len(shown) :]


def test_the_readers_own_lines_are_the_first_of_each_move_they_chose():
    log = _log(10, 2)  # seats take turns; every fifth entry the bot played at a deadline
    lines = event_lines(log, NAMES, LINE_OF, limit=None, reader=1)
    own = [line.key for line in lines if line.own]
    assert own == [f"{e.ply}.1" for e in log if e.seat == 1 and not e.auto]
    assert not any(line.own for line in event_lines(log, NAMES, LINE_OF, limit=None))
    said = [SaidPhrase(seat=1, ply=2, key="oops"), SaidPhrase(seat=0, ply=2, key="oops")]
    phrased = lines_with_phrases("faraway", log, said, NAMES, limit=None, reader=1)
    assert [(line, line.own) for line in phrased if line.said] == [
        ("Bea: “Oops”", True),
        ("Ann: “Oops”", False),
    ]
