"""What fell due: a person's turn past its deadline, or a vote left open (the engine says which:
``Engine.vote_open``, docs/engine-contract.md)."""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from games.engines import get_engine
from games.models import Match, Move, Seat
from games.services._store import deadline_span
from games.services.bots import bot_move_submit
from games.services.errors import OnHoliday, StaleVersion
from games.services.moves import move_submit

logger = logging.getLogger(__name__)


def match_deadline_enforce(*, match: Match, now: Any = None) -> int:
    """Play what fell due: a person's turn by the greedy bot, or a vote's missing ballots.

    A vote open past its deadline closes with each missing ballot cast as the engine says a
    silent seat votes (``Engine.silent_ballot``); a person's turn past the turn deadline is
    played by the greedy bot for them, to its end (a Faraway turn is a draw and then a card).
    Each move goes through ``move_submit`` at the version read here, so a person who moves at
    the last moment wins the race and nothing is played for them. A person on holiday in a
    match that allows holidays is not played for: the deadline moves to a full span after
    their holiday ends (docs/accounts.md, "Holidays"). Returns the number of moves played.
    """
    now = now or timezone.now()
    engine = get_engine(match.game)
    played = 0
    turn_of: int | None = None  # the seat whose overdue turn this sweep has begun to play
    seats = list(Seat.objects.filter(match_id=match.pk).order_by("index"))
    by_index = {s.index: s for s in seats}
    # Stops when what is awaited next has a deadline still to come (the next person's turn).
    for _ in range(4 * match.num_players + 8):
        match.refresh_from_db()
        if (
            match.status != Match.Status.ACTIVE
            or match.deadline_at is None
            or match.deadline_at > now
            or not match.awaiting
        ):
            break
        state = engine.load(match.state)
        first = match.awaiting[0]
        ballot: dict[str, Any] | None = None
        if engine.vote_open(state, first):
            seat = by_index[first]
            ballot = engine.silent_ballot(state, first)
        else:
            # a resigned person's seat is the bot's already (``bot_move_play``)
            people = [i for i in match.awaiting if not by_index[i].bot_plays]
            if not people:
                break  # a bot's turn: the sweeper's business, not a deadline's
            seat = by_index[people[0]]
        # A turn begun before a holiday is played to its end: a holiday starting between a
        # Faraway draw and its card would leave the turn half-played.
        holiday_holds = seat.index != turn_of
        try:
            if ballot is not None:
                move_submit(
                    match=match,
                    seat=seat,
                    move=ballot,
                    expected_version=match.version,
                    auto=Move.Auto.VOTE_CLOSED,
                    holiday_holds=holiday_holds,
                )
            else:
                bot_move_submit(
                    match=match, seat=seat, auto=Move.Auto.DEADLINE, holiday_holds=holiday_holds
                )
        except StaleVersion:
            logger.info("deadline on match %s: the table moved first", match.pk)
            break
        except OnHoliday as away:
            # The deadline restarts from the holiday's end: a full span after it. Only if the
            # table has not moved meanwhile (a move sets its own deadline).
            Match.objects.filter(pk=match.pk, version=match.version).update(
                deadline_at=away.until + deadline_span(match)
            )
            logger.info("deadline on match %s: seat %s is on holiday", match.pk, seat.index)
            break
        played += 1
        turn_of = seat.index
    return played
