"""The notices page in words: one line for each match that awaits the person (``MatchNoticeItem``
data from ``games.selectors.notices``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy

from games.presentation.names import ordinal, seat_names

if TYPE_CHECKING:
    import datetime

    from games.selectors.notices import MatchNoticeItem

RESULT_WORDS = {
    "won": gettext_lazy("You won"),
    "lost": gettext_lazy("You lost"),
    "drawn": gettext_lazy("A draw"),
}


@dataclass(frozen=True)
class MatchNoticeLine:
    match_id: int
    game: str
    title: str
    against: str  # the other seats' names
    since: datetime.datetime | None
    result: str = ""  # "You won, 1st" once finished


def match_notice_lines(items: list[MatchNoticeItem]) -> list[MatchNoticeLine]:
    """Each match as the page prints it: the game, who else sits there, since when, the result."""
    lines = []
    for item in items:
        names = seat_names(item.num_players, item.seats)
        others = [name for i, name in enumerate(names) if i != item.own_index]
        result = ""
        if item.result is not None:
            result = str(RESULT_WORDS.get(item.result, item.result))
            if item.rank is not None and item.num_players > 2:
                result = f"{result}, {ordinal(item.rank)}"
        lines.append(
            MatchNoticeLine(
                match_id=item.match_id,
                game=item.game,
                title=item.title,
                against=", ".join(others),
                since=item.since,
                result=result,
            )
        )
    return lines
