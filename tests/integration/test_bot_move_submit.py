"""One greedy bot's move for a seat, spelled once (``games.services.bots.bot_move_submit``): the
move a passed deadline and an event's play-out make for a person's seat."""

from __future__ import annotations

import pytest

from games import bots
from games.engines import get_engine
from games.models import BotLevel, Match, Move, Seat
from games.services import StaleVersion
from tests import factories

pytestmark = pytest.mark.django_db


def _started(ann, bea) -> Match:
    match = factories.match_make(players=[ann, bea], seed=7)
    assert match.status == Match.Status.ACTIVE
    return match


def test_the_greedy_bot_moves_for_the_seat_from_its_own_view(ann, bea):
    from games.services.bots import bot_move_submit, bot_seed

    match = _started(ann, bea)
    seat = Seat.objects.get(match=match, index=match.awaiting[0])
    engine = get_engine(match.game)
    view = engine.view(engine.load(match.state), seat.index)
    wanted = bots.choose_move(match.game, BotLevel.GREEDY, view, seed=bot_seed(match, seat.index))
    version = match.version
    bot_move_submit(match=match, seat=seat, auto=Move.Auto.DEADLINE)
    last = Move.objects.filter(match=match, seat=seat.index).latest("ply")
    assert (last.payload, last.auto) == (wanted, Move.Auto.DEADLINE)
    match.refresh_from_db()
    assert match.version > version


def test_a_table_that_moved_on_is_not_played_for(ann, bea):
    from games.services.bots import bot_move_submit

    match = _started(ann, bea)
    stale = Match.objects.get(pk=match.pk)
    seat = Seat.objects.get(match=match, index=match.awaiting[0])
    bot_move_submit(match=match, seat=seat, auto=Move.Auto.PLAYED_OUT)
    moves = Move.objects.filter(match=match).count()
    with pytest.raises(StaleVersion):
        bot_move_submit(match=stale, seat=seat, auto=Move.Auto.PLAYED_OUT)
    assert Move.objects.filter(match=match).count() == moves
