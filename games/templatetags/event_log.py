"""``{% log_lines lines %}``: the table log's lines, newest first, each rendered from
``games/_log_line.html`` once per process and kept.

A table's log is its 60 latest lines, and a line reads the same in every render that shows it
(its words, its ``key``, whether it is a phrase, whether it is the reader's own): the polls,
the streams' fetches and the watchers' shared renders of a match show the same lines over and
over, each poll one or two new. The template's loop cost about 6,400 Python calls a render (40%
of the table partial's, issue 35); a kept line costs a dictionary look-up. The markup stays in
the template. A kept line is keyed by everything it shows, so one reader's line can only be
served to a reader whose line reads the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from games.presentation.common import LogLine

register = template.Library()

LINE_TEMPLATE = "games/_log_line.html"
# Lines kept a process (a few hundred bytes each): the latest lines of many tables at once.
KEPT_LINES = 8192
_kept: dict[tuple[str, str, bool, bool], SafeString] = {}


def log_line(line: LogLine) -> SafeString:
    """One line of the log as the template renders it, kept."""
    key = (str(line), line.key, bool(line.said), bool(line.own))
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= KEPT_LINES:
            _kept.clear()
        found = _kept[key] = mark_safe(get_template(LINE_TEMPLATE).render({"line": line}).strip())
    return found


@register.simple_tag
def log_lines(lines: Sequence[LogLine]) -> SafeString:
    """``lines`` (oldest first, as presentation gives them) newest first, as the log's
    ``<ol reversed>`` lists them."""
    return mark_safe("".join(log_line(line) for line in reversed(lines)))
