"""Presentation of one seat's ``engine.view``: a view and the logged moves in, words and move
buttons out.

Input is only what ``view(state, seat)`` returned, the seats' names and the move log already
redacted for that seat (docs/engine-contract.md), so nothing here can show a card that seat may
not see. Nothing here touches the database either: the selectors read, presentation words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import faraway, gulliver
from .common import EVENT_LOG_LENGTH, GameBuilder, event_lines

__all__ = ["BUILDERS", "EVENT_LOG_LENGTH", "GameBuilder", "LogEntry", "log_lines", "table_build"]

BUILDERS: dict[str, GameBuilder] = {"faraway": faraway.BUILDER, "gulliver": gulliver.BUILDER}


@dataclass(frozen=True)
class LogEntry:  # one logged Move, oldest first
    seat: int | None
    events: list[dict]  # that move's events, ALREADY redacted for the viewer
    auto: str = ""  # Move.auto: "" chosen, "deadline", "vote_closed"


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

    ``interactive=False`` (a replay, say) gives the same table with no move buttons anywhere.
    """
    builder = BUILDERS[game]
    if not interactive:
        view = {**view, "legal_moves": []}
    table: dict[str, Any] = builder.table(view, names, log)
    table["events"] = event_lines(log, names, builder.event_line)
    table["board_template"] = builder.board_template
    return table


def log_lines(game: str, log: list[LogEntry], names: list[str]) -> list[str]:
    """Every event of ``log`` in words, oldest first (a replay's move list, one entry's lines)."""
    return event_lines(log, names, BUILDERS[game].event_line, limit=None)
