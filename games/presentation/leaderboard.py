"""A leaderboard's rows in words: the player's name and the rating with its "?"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
        return _("You (%(name)s) have no rated match of %(game)s yet: %(needed)s to be listed.") % {
            "name": username,
            "game": title,
            "needed": standing.matches_needed,
        }
    matches = ngettext("%(count)d rated match", "%(count)d rated matches", standing.matches) % {
        "count": standing.matches
    }
    rating = rating_text(standing.ordinal, standing.matches)
    if standing.recent_needed:
        return ngettext(
            "You (%(name)s): %(rating)s, %(matches)s, none in the last %(days)d day;"
            " finish one more to be listed again.",
            "You (%(name)s): %(rating)s, %(matches)s, none in the last %(days)d days;"
            " finish one more to be listed again.",
            recent_days,
        ) % {"name": username, "rating": rating, "matches": matches, "days": recent_days}
    return _("You (%(name)s): %(rating)s, %(matches)s; %(needed)s more to be listed.") % {
        "name": username,
        "rating": rating,
        "matches": matches,
        "needed": standing.matches_needed,
    }
