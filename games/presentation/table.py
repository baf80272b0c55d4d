"""A match's page in words: the table (``table_build``) from a seat's ``TableData``, the seats'
names, the rating changes. What the ``games/match.html`` templates print."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.presentation import table_build
from games.presentation.hints import hints_words
from games.presentation.holidays import HOLIDAYS_REFUSED, away_lines, deadline_waits
from games.presentation.invitations import HELD_FOR_SOMEONE, held_for
from games.presentation.leaving import leave_words
from games.presentation.names import seat_names
from games.presentation.phrases import lines_with_phrases, phrase_choices
from games.presentation.ratings import seat_change_lines

if TYPE_CHECKING:
    from games.selectors.table import TableData


def table_page(data: TableData) -> dict[str, Any]:
    """The context of the table page and its ``#table`` partial."""
    names = seat_names(data.match.num_players, data.seats)
    seat_list = list(names)
    for held in data.held:  # a seat held for a person invited is no open seat
        seat_list[held.index] = held_for(held.username) if data.member else str(HELD_FOR_SOMEONE)
    context: dict[str, Any] = {
        "match": data.match,
        "seat": data.seat,
        "names": names,
        "seat_list": seat_list,
        "free_seats": data.free_seats,
        "held_seats": len(data.held),
        "held_for_me": data.held_for_me,
        "table": None,
        "deadline_at": data.deadline_at,
        "rating_changes": seat_change_lines(data.rating_changes, names),
        "leave": leave_words(data.leave, names),
        "away": away_lines(data.match, data.seats),
        "holidays_refused": HOLIDAYS_REFUSED if not data.match.holidays else "",
    }
    if data.view is not None:
        context["table"] = table_build(data.match.game, view=data.view, names=names, log=data.log)
        if data.phrases:
            context["table"]["events"] = lines_with_phrases(
                data.match.game, data.log, data.phrases, names, reader=data.view.get("seat")
            )
        awaiting = data.view.get("awaiting") or []
        context["deadline_waits"] = deadline_waits(data.match, data.seats, awaiting)
        context["log_append"] = data.log_append
        if data.seat is not None:
            context["phrase_choices"] = phrase_choices(data.match.game)
        context["hints"] = hints_words(data)
    return context
