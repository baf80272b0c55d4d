"""A seat's result in words ("Lost, 2nd of 4"), the recent form and the history rows, from the
values the history and lobby selectors read (docs/history.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.filters import IN_PLAY
from games.models import Match, Result
from games.presentation.holidays import AwayLine, away_lines
from games.presentation.invitations import HELD_FOR_SOMEONE, held_for
from games.presentation.names import OPEN_SEAT, opponent_name, ordinal, seat_names
from games.presentation.ratings import change_text

if TYPE_CHECKING:  # the selectors' dataclasses, for the hints only: no query reaches here
    from games.selectors.facts import MatchFacts
    from games.selectors.history import FormResult, HeadToHead, HistoryRow, SeatResult
    from games.selectors.lobby import MatchListing


RESULT_LABELS = {
    Result.WON: gettext_lazy("Won"),
    Result.LOST: gettext_lazy("Lost"),
    Result.DRAWN: gettext_lazy("Drawn"),
}


@dataclass(frozen=True)
class ResultWords:
    """A seat's result as a page shows it: ``key`` for styling and tests ("won", "lost",
    "drawn", "in_play", "waiting", "finished", "cancelled"), ``label`` ("Lost") and, in a
    match of three or more seats, ``place`` ("2nd of 4", "=2nd of 4" when another seat
    shares the rank)."""

    key: str
    label: str
    place: str = ""

    @property
    def text(self) -> str:
        return f"{self.label}, {self.place}" if self.place else self.label


def place_text(rank: int | None, tied: bool, num_players: int) -> str:
    """A place at a table of three or more ("=2nd of 4"); "" at two seats or with no rank."""
    if num_players < 3 or rank is None:
        return ""
    place = _("%(place)s of %(seats)d") % {"place": ordinal(rank), "seats": num_players}
    return f"={place}" if tied else place


def result_words(result: SeatResult) -> ResultWords:
    if result.status == Match.Status.WAITING:
        return ResultWords("waiting", _("Waiting"))
    if result.status == Match.Status.ACTIVE:
        return ResultWords(IN_PLAY, _("In play"))
    if result.status == Match.Status.CANCELLED:
        return ResultWords("cancelled", _("Cancelled"))
    if result.result is None:
        return ResultWords("finished", _("Finished"))
    place = place_text(result.rank, result.tied, result.num_players)
    return ResultWords(result.result, str(RESULT_LABELS[Result(result.result)]), place)


@dataclass(frozen=True)
class Named:
    """Someone across the table, named: a person links to their profile, a bot does not."""

    name: str
    username: str | None = None
    bot_level: str | None = None


@dataclass(frozen=True)
class HistoryLine:
    """One match of a history list, from the listed person's seat, in words."""

    match: MatchFacts
    opponents: list[Named]
    open_seats: int
    result: ResultWords
    moves: int
    rounds: int | None
    rating_change: str  # "+14", "-9" once rated, else ""
    held_seats: int = 0  # seats held for the people invited (no name: a history is public)
    mark: Any = None  # the event it was played in (``games.views.event_marks.MatchMark``)

    @property
    def replayable(self) -> bool:
        return self.match.has_table


def history_lines(rows: Iterable[HistoryRow]) -> list[HistoryLine]:
    return [
        HistoryLine(
            match=row.match,
            opponents=[
                Named(opponent_name(o.username, o.bot_level), o.username, o.bot_level)
                for o in row.opponents
            ],
            open_seats=row.open_seats,
            result=result_words(row.result),
            moves=row.moves,
            rounds=row.rounds,
            rating_change="" if row.rating_delta is None else change_text(row.rating_delta),
            held_seats=row.held_seats,
        )
        for row in rows
    ]


@dataclass(frozen=True)
class ListingLine:
    """A row of a list of matches: the match, the seats' names, the listed person's result
    once it is over ("Won", "Lost, 2nd of 4")."""

    match: MatchFacts
    your_turn: bool
    names: list[str]
    result: ResultWords | None
    away: list[AwayLine] = field(default_factory=list)  # who is on holiday, while in play


def _with_held(names: list[str], item: MatchListing, reader_id: int | None) -> list[str]:
    """A seat held for a person invited reads as held, not open: by name to the match's
    creator and to the person invited, "held for an invited player" to anyone else."""
    named = reader_id is not None and (
        reader_id == item.created_by_id
        or item.seat is not None
        or any(user_id == reader_id for user_id, _name in item.held.values())
    )
    for index, (_user_id, name) in item.held.items():
        if index < len(names) and names[index] == str(OPEN_SEAT):
            names[index] = held_for(name) if named else str(HELD_FOR_SOMEONE)
    return names


def listing_lines(
    listings: Iterable[MatchListing], reader_id: int | None = None
) -> list[ListingLine]:
    return [
        ListingLine(
            match=item.match,
            your_turn=item.your_turn,
            names=_with_held(seat_names(item.match.num_players, item.seats), item, reader_id),
            result=None if item.result is None else result_words(item.result),
            away=away_lines(item.match, item.seats),
        )
        for item in listings
    ]


@dataclass(frozen=True)
class FormEntry:
    """One finished result of the recent form, newest first."""

    match_id: int
    title: str  # "The Faraway Tree #12"
    result: ResultWords


def form_entries(form: Iterable[FormResult]) -> list[FormEntry]:
    return [FormEntry(f.match_id, f"{f.title} #{f.match_id}", result_words(f.result)) for f in form]


@dataclass(frozen=True)
class HeadToHeadLine:
    name: str
    username: str | None
    bot_level: str | None
    played: int
    won: int
    lost: int
    drawn: int
    is_viewer: bool


def head_to_head_lines(rows: Iterable[HeadToHead]) -> list[HeadToHeadLine]:
    return [
        HeadToHeadLine(
            name=opponent_name(r.username, r.bot_level),
            username=r.username,
            bot_level=r.bot_level,
            played=r.played,
            won=r.won,
            lost=r.lost,
            drawn=r.drawn,
            is_viewer=r.is_viewer,
        )
        for r in rows
    ]


def opponent_choices(
    opponents: Iterable[tuple[str, str | None, str | None, int]],
) -> list[tuple[str, str, int]]:
    """The history filter's opponents (``history_opponents``) as ``(value, name, count)``."""
    return [
        (value, opponent_name(username, bot_level), n)
        for value, username, bot_level, n in opponents
    ]
