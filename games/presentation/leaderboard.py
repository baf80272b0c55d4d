"""A leaderboard's rows in words: the player's name and the rating with its "?"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.presentation.names import opponent_name
from games.presentation.ratings import rating_text

if TYPE_CHECKING:
    from games.selectors.ratings import BoardRow


@dataclass(frozen=True)
class BoardLine:
    place: int
    name: str
    username: str | None
    bot_level: str | None
    rating: str
    matches: int
    provisional: bool


def board_lines(rows: Iterable[BoardRow]) -> list[BoardLine]:
    return [
        BoardLine(
            place=r.place,
            name=opponent_name(r.username, r.bot_level),
            username=r.username,
            bot_level=r.bot_level,
            rating=rating_text(r.ordinal, r.matches),
            matches=r.matches,
            provisional=r.provisional,
        )
        for r in rows
    ]
