"""Presentation of one seat's ``engine.view``: a view and the logged moves in, words and move
buttons out.

Input is only what ``view(state, seat)`` returned, the seats' names and the move log already
redacted for that seat (docs/engine-contract.md), so nothing here can show a card that seat may
not see. Nothing here touches the database either: the selectors read, presentation words.
"""

from __future__ import annotations

from typing import Any

from games.logs import LogEntry

from . import faraway, gulliver
from .common import EVENT_LOG_LENGTH, GameBuilder, event_lines, explain_clicks
from .reasons import refusals_words

__all__ = [
    "BUILDERS",
    "EVENT_LOG_LENGTH",
    "GameBuilder",
    "LogEntry",
    "hand_faces",
    "log_lines",
    "move_text",
    "register",
    "table_build",
    "unregister",
]

# Each registered game's presentation, keyed like the engines' registry (a test holds the two
# to the same games).
BUILDERS: dict[str, GameBuilder] = {"faraway": faraway.BUILDER, "gulliver": gulliver.BUILDER}
_SHIPPED = frozenset(BUILDERS)


def register(name: str, builder: GameBuilder) -> None:
    """Add a game's presentation (a test's extra game, beside ``games.engines.register``)."""
    if name in BUILDERS:
        raise ValueError(f"A presentation for {name!r} is registered already.")
    BUILDERS[name] = builder


def unregister(name: str) -> None:
    if name in _SHIPPED:
        raise ValueError(f"{name!r} ships with the site and cannot be unregistered.")
    BUILDERS.pop(name, None)


def table_build(
    game: str,
    *,
    view: dict,
    names: list[str],
    log: list[LogEntry],
    interactive: bool = True,
) -> dict:
    """Everything the table templates print for ``view``: the board, the hand, the moves on
    offer and ``events``, the latest ``EVENT_LOG_LENGTH`` events of ``log`` in words.

    ``interactive=False`` (a replay, say) gives the same table with no move buttons anywhere
    and nothing to click; an interactive one says why each card or pile without a move is
    still (``explain_clicks``).
    """
    builder = BUILDERS[game]
    if not interactive:
        view = {**view, "legal_moves": []}
    table: dict[str, Any] = builder.table(view, names, log)
    if interactive:
        explain_clicks(table, refusals_words(view.get("refusals") or {}))
    table["events"] = event_lines(log, names, builder.event_line, reader=view.get("seat"))
    table["board_template"] = builder.board_template
    return table


def move_text(game: str, move: dict, view: dict, names: list[str]) -> str:
    """``move`` in words as the table labels it for ``view``'s seat ("Take 5 Moon-Face from
    the discards")."""
    return BUILDERS[game].move_label(move, view, names)[1]


def hand_faces(game: str, view: dict) -> list[dict[str, Any]]:
    """The faces of the hand ``view`` shows (``[]`` when it shows none)."""
    face = BUILDERS[game].face
    return [face(code) for code in view.get("hand") or []]


def log_lines(game: str, log: list[LogEntry], names: list[str]) -> list[str]:
    """Every event of ``log`` in words, oldest first (a replay's move list, one entry's lines)."""
    return event_lines(log, names, BUILDERS[game].event_line, limit=None)
