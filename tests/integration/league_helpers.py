"""Helpers of the league tests: a league made as staff would make it, people entered, a match
played by its people or let go to its deadline."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from competitions.models import Event
from games.engines import get_engine
from games.models import Match, Seat
from games.services import match_deadline_enforce, move_submit
from tests import factories


def league_make(
    *,
    game: str = "faraway",
    seats: int = 2,
    circle_size: int = 3,
    circles: int = 1,
    open_most: int = 2,
    absences_most: int = 2,
    **fields: Any,
) -> Event:
    return Event.objects.create(
        name=fields.pop("name", "Autumn league"),
        game=game,
        seats=seats,
        circle_size=circle_size,
        circles=circles,
        deadline_days=fields.pop("deadline_days", 1),
        open_tables_most=open_most,
        absences_most=absences_most,
        **fields,
    )


def people(prefix: str, count: int) -> list[Any]:
    return [factories.user_make(f"{prefix}{i}") for i in range(count)]


def play_turn(match: Match, rng: random.Random) -> None:
    """One move by the first awaited seat, chosen at random among the legal ones."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    state = engine.load(match.state)
    seat_index = match.awaiting[0]
    seat = Seat.objects.get(match=match, index=seat_index)
    move = rng.choice(engine.legal_moves(state, seat_index))
    move_submit(match=match, seat=seat, move=move, expected_version=match.version)


def let_deadline_pass(match: Match, *, days: float = 1.5) -> int:
    """The turn deadline passes for whoever is awaited: the greedy bot plays their turn."""
    match.refresh_from_db()
    later = (match.deadline_at or dt.datetime.now(dt.UTC)) + dt.timedelta(days=days)
    return match_deadline_enforce(match=match, now=later)
