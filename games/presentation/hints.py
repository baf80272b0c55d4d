"""Hints at a table in words (docs/lessons.md, "The first match, with hints"): what the seat's
own page says of them and the button that turns them on or off. The marks themselves are the
moves the table already hangs on the seat's cards (its ``legal_moves``) and the reasons it
already gives (``explain_clicks``, from ``Engine.refusals``): hints only make them plain, so
they can show nothing the seat's own view does not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.selectors.table import TableData

HINTS_ON = (
    "Hints are on: the moves you may make now are marked \u2713. "
    "Pick any other card to read beside your hand why it cannot be played."
)
MARK = "\u2713"
MARK_WORDS = "you may play this"
PACK_WORDS = "you may draw from the pack"


def hints_words(data: TableData) -> dict[str, Any] | None:
    """The seat's hints line and its toggle while its match is in play (``None`` for a
    watcher, or a table not dealt, over or cancelled)."""
    if data.seat is None or data.view is None or data.match.status != "active":
        return None
    on = data.seat.hints
    return {
        "on": on,
        "text": HINTS_ON if on else "",  # off, the button alone: a table stays as it was
        "button": "Turn hints off" if on else "Turn hints on",
        "value": "off" if on else "on",
        "mark": MARK,
        "mark_words": MARK_WORDS,
        "pack_words": PACK_WORDS,
    }
