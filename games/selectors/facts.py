"""The public facts of a match and of its seats as plain values: what a page may print about
them, read from the rows once, so no model row (and no lazy query) reaches a template.

The seed and the salt are facts only once the match is over (docs/records.md); before that a
``MatchFacts`` does not carry them at all, so no template can print them by mistake.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone

from games.engines import get_engine
from games.models import Match, Seat


@dataclass(frozen=True)
class SeatFacts:
    """A taken seat: a person (``username``) or a bot (``bot_level``)."""

    index: int
    user_id: int | None
    username: str | None
    bot_level: str | None
    # When the person's holiday ends, while they are on one (read only where the seats were
    # read with ``user__holiday``: the table's reads, never a query of its own).
    away_until: datetime.datetime | None = None
    hints: bool = False  # a person's hints at this table (docs/lessons.md): their page's alone


@dataclass(frozen=True)
class MatchFacts:
    pk: int
    game: str
    title: str  # the game's title, from its engine
    status: str  # a ``Match.Status`` value
    status_label: str
    version: int
    ply: int
    num_players: int
    public: bool
    invite_token: str
    commitment: str
    has_table: bool  # dealt (started): there is a table to show and to replay
    created_at: datetime.datetime | None
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    rating_status: str
    rating_note: str
    seed: int | None = None  # once the match is over
    salt: str | None = None  # once the match is over
    creator: str = ""  # the creator's name, where the page read it
    deadline_at: datetime.datetime | None = None  # when the awaited move falls due, if it does
    holidays: bool = True  # a seated person's holiday holds the deadline (docs/accounts.md)
    phrase_count: int = 0  # table phrases said so far (docs/phrases.md)
    shown: int = 0  # the pages' change mark beside the version (docs/live.md), polled with it
    moves: int = 0  # the players' moves made so far (``moves_made``): what every page counts
    # Play now's terms of a waiting table (docs/quick-match.md); read while it waits only.
    quick: bool = False  # opened by Play now
    rated: bool = True  # the players chose a rated table
    bot_fill_at: datetime.datetime | None = None  # when the greedy bot takes the open seats


def seat_facts(seats: Iterable[Seat]) -> list[SeatFacts]:
    """The seats (read with their users) as facts, by index; with each person's holiday where
    the seats were read with ``user__holiday`` (``select_related``)."""
    now = timezone.now()
    return [
        SeatFacts(
            index=s.index,
            user_id=s.user_id,
            username=s.user.username if s.user_id is not None else None,
            bot_level=s.bot_level,
            away_until=_away_until(s, now),
            hints=s.hints,
        )
        for s in sorted(seats, key=lambda s: s.index)
    ]


def _away_until(seat: Seat, now: datetime.datetime) -> datetime.datetime | None:
    """The seat's person's holiday end if they are away and the row was read with them."""
    if seat.user_id is None:
        return None
    holiday_of = type(seat.user).holiday.related  # the reverse one-to-one to accounts.Holiday
    if not holiday_of.is_cached(seat.user):
        return None
    row = holiday_of.get_cached_value(seat.user)
    if row is None or row.away_since is None or row.away_until is None:
        return None
    return row.away_until if row.away_since <= now < row.away_until else None


def moves_made(*, ply: int, rounds: int) -> int:
    """The players' moves (seats' and bots', the deadline's and resignations included) among a
    log's first ``ply`` entries, ``rounds`` the rounds dealt by then: every entry is a move but
    the deal of each round after the first (the first round's deal is entry 0, the start).
    History, the replay, the analysis and profiles count this way (docs/replays.md)."""
    return max(0, ply - (max(rounds, 1) - 1))


def match_facts(match: Match, *, creator: bool = False) -> MatchFacts:
    """``match``'s public facts; ``creator=True`` reads the creator's name too (one query
    unless ``created_by`` was selected with the match). Reads none of the columns lists
    defer (the snapshot, the deal's events)."""
    over = match.status == Match.Status.FINISHED
    return MatchFacts(
        pk=match.pk,
        game=match.game,
        title=get_engine(match.game).title,
        status=match.status,
        status_label=Match.Status(match.status).label,
        version=match.version,
        ply=match.ply,
        moves=moves_made(ply=match.ply, rounds=match.rounds),
        num_players=match.num_players,
        public=match.public,
        invite_token=match.invite_token,
        commitment=match.commitment,
        # a match is dealt as it starts; a cancelled one never was
        has_table=match.status in (Match.Status.ACTIVE, Match.Status.FINISHED),
        created_at=match.created_at,
        started_at=match.started_at,
        finished_at=match.finished_at,
        rating_status=match.rating_status,
        rating_note=match.rating_note,
        seed=match.seed if over else None,
        salt=match.salt if over else None,
        creator=match.created_by.username if creator else "",
        deadline_at=match.deadline_at,
        holidays=match.holidays,
        phrase_count=match.phrase_count,
        shown=match.shown,
        **(_waiting_terms(match) if match.status == Match.Status.WAITING else {}),
    )


def _waiting_terms(match: Match) -> dict:
    """Play now's terms of a waiting table; a table in play or over reads none of them (the
    move's and the phrase's narrow reads of the row stay as they are)."""
    return {"quick": match.quick, "rated": match.rated, "bot_fill_at": match.bot_fill_at}
