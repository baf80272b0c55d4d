"""Playing a running match to its end with the greedy bot in every seat, through the engine and
the move funnel (``move_submit``, ``match_next_round``): an event's last day (a league's,
docs/competitions.md) so the event ends on the day it said, and its record still verifies."""

from __future__ import annotations

import logging

from games.engines import get_engine
from games.models import Match, Move, Seat
from games.services.bots import bot_move_submit
from games.services.errors import StaleVersion
from games.services.moves import match_next_round

logger = logging.getLogger(__name__)

# A bound on the moves one play-out makes, far above any game's length, so a fault in an
# engine cannot loop for ever (the next sweep carries on from where this one stopped).
MOST_MOVES = 20_000


def match_play_out(*, match_id: int) -> int:
    """Play match ``match_id`` to its end: every awaited seat, person or bot, is played by the
    greedy bot from its own view (``Move.Auto.PLAYED_OUT`` on a person's seat, so the record
    says why), a finished round is dealt at once. Each move is its own version-checked
    transaction, so a person's move made meanwhile wins its race and the play-out goes on from
    there. Holidays do not hold it: the event's end does not wait. Returns the moves played
    (0 for a match not running)."""
    played = 0
    for _ in range(MOST_MOVES):
        match = Match.objects.filter(pk=match_id).first()
        if match is None or match.status != Match.Status.ACTIVE:
            break
        engine = get_engine(match.game)
        state = engine.load(match.state)
        try:
            if engine.round_over(state):
                match_next_round(match=match, expected_version=match.version)
                continue
            if not match.awaiting:
                break
            seat = Seat.objects.get(match_id=match.pk, index=match.awaiting[0])
            auto = Move.Auto.CHOSEN if seat.bot_level else Move.Auto.PLAYED_OUT
            bot_move_submit(match=match, seat=seat, auto=auto, holiday_holds=False)
        except StaleVersion:
            logger.info("play-out of match %s: the table moved first", match_id)
            continue
        played += 1
    return played
