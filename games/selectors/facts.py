"""The public facts of a match and of its seats as plain values: what a page may print about
them, read from the rows once, so no model row (and no lazy query) reaches a template.

The seed and the salt are facts only once the match is over (docs/records.md); before that a
``MatchFacts`` does not carry them at all, so no template can print them by mistake.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from games.engines import get_engine
from games.models import Match, Seat


@dataclass(frozen=True)
class SeatFacts:
    """A taken seat: a person (``username``) or a bot (``bot_level``)."""

    index: int
    user_id: int | None
    username: str | None
    bot_level: str | None


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


def seat_facts(seats: Iterable[Seat]) -> list[SeatFacts]:
    """The seats (read with their users) as facts, by index."""
    return [
        SeatFacts(
            index=s.index,
            user_id=s.user_id,
            username=s.user.username if s.user_id is not None else None,
            bot_level=s.bot_level,
        )
        for s in sorted(seats, key=lambda s: s.index)
    ]


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
    )
