"""A leaderboard's rows in words: the player's name and the rating with its "?"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.presentation.names import opponent_name
from games.presentation.ratings import rating_text

if TYPE_CHECKING:
    from games.selectors.ratings import BoardRow, OwnStanding


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


def own_line(standing: OwnStanding, *, username: str, title: str, recent_days: int) -> str:
    """The signed-in person's own line under a leaderboard that does not list them: their
    rating and rated matches, and what is still needed to be listed."""
    if standing.ordinal is None:
        return (
            f"You ({username}) have no rated match of {title} yet:"
            f" {standing.matches_needed} to be listed."
        )
    matches = f"{standing.matches} rated match{'' if standing.matches == 1 else 'es'}"
    rating = rating_text(standing.ordinal, standing.matches)
    if standing.recent_needed:
        return (
            f"You ({username}): {rating}, {matches}, none in the last {recent_days} days;"
            " finish one more to be listed again."
        )
    return f"You ({username}): {rating}, {matches}; {standing.matches_needed} more to be listed."
