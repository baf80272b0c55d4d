"""``{% log_lines %}`` (games/templatetags/event_log.py): the log's lines newest first, each as
``games/_log_line.html`` renders it, kept a process and keyed by everything the line shows."""

from __future__ import annotations

from django.template import Context, Template

from games.presentation.common import LogLine
from games.presentation.phrases import SaidLine
from games.templatetags.event_log import log_lines


def _loop(lines: list[LogLine]) -> str:
    """The table's log as match.html wrote it before the tag: the template's own loop."""
    return Template(
        '{% for line in lines reversed %}<li{% if line.said %} class="said"{% endif %}'
        ' data-line="{{ line.key }}"{% if line.own %} data-own{% endif %}>{{ line }}</li>'
        "{% endfor %}"
    ).render(Context({"lines": lines}))


def test_the_lines_read_as_the_templates_loop_wrote_them_newest_first_and_escaped():
    lines = [
        LogLine.keyed("Ann draws <3> & keeps it", "e1.0"),
        SaidLine.keyed("Bea: “Well played”", "p1", own=True),
        LogLine.keyed("You play 7", "e2.0", own=True),
    ]
    for _ in range(2):  # rendered, then kept
        html = log_lines(lines)
        assert html == _loop(lines)
    assert html.index("You play 7") < html.index("Ann draws")
    assert "&lt;3&gt; &amp; keeps" in html


def test_a_kept_line_is_never_served_for_a_line_that_reads_otherwise():
    """The same words under another key, owner or kind are another line."""
    text = "Ann plays 7"
    variants = [
        LogLine.keyed(text, "e5.0"),
        LogLine.keyed(text, "e5.0", own=True),
        LogLine.keyed(text, "e6.0"),
        SaidLine.keyed(text, "e5.0"),
    ]
    rendered = [log_lines([line]) for line in variants]
    assert len(set(rendered)) == len(variants)
    assert rendered == [_loop([line]) for line in variants]
