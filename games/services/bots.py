"""A bot's turn: it decides from its seat's view alone, then moves like a person."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games import bots
from games.engines import get_engine
from games.models import BotLevel, Match, Move, Seat
from games.selectors.public_log import public_history
from games.services.errors import StaleVersion
from games.services.moves import move_submit


def bot_seed(match: Match, seat: int) -> int:
    """Each decision its own reproducible seed: the match's, the version and the seat."""
    return (match.seed * 1_000_003 + match.version * 101 + seat) % (1 << 63)


def bot_move_play(*, match: Match, expected_version: int) -> Match | None:
    """Play the move of the first awaited bot seat, if the match is still at that version.

    The bot decides from ``engine.view(state, seat)`` alone, outside any transaction (the
    strong bot thinks for most of a second), and its move then goes through ``move_submit``
    like a person's, which re-checks the version under the row lock. Returns ``None`` when no
    bot is awaited; raises ``StaleVersion`` when the match moved on.
    """
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE or match.version != expected_version:
        raise StaleVersion(_("The match moved on before the bot's turn."), status=409)
    seats = list(Seat.objects.filter(match_id=match.pk).order_by("index"))
    by_index = {s.index: s for s in seats if s.bot_plays}
    seat = next((by_index[i] for i in match.awaiting if i in by_index), None)
    if seat is None:
        return None
    # A resigned person's seat is played by the greedy bot, as a passed deadline would.
    level = seat.bot_level or BotLevel.GREEDY
    auto = Move.Auto.RESIGNED if seat.resigned else Move.Auto.CHOSEN
    engine = get_engine(match.game)
    view = engine.view(engine.load(match.state), seat.index)
    budget = None
    if level == BotLevel.STRONG:
        budget = bots.Budget(time_ms=float(settings.PARLOUR_BOT_STRONG_BUDGET_MS))
    history = public_history(match) if level == BotLevel.STRONG else None
    move = bots.choose_move(
        match.game,
        level,
        view,
        seed=bot_seed(match, seat.index),
        budget=budget,
        history=history,
    )
    return move_submit(
        match=match, seat=seat, move=move, expected_version=expected_version, auto=auto
    )


def bot_move_submit(*, match: Match, seat: Seat, auto: str, holiday_holds: bool = True) -> Match:
    """The greedy bot's move for ``seat``, chosen from that seat's view alone, played through
    ``move_submit`` at the version ``match`` was read at: a person's seat played for them (a
    passed deadline, an event's play-out), ``auto`` saying why. Raises ``StaleVersion`` when
    the table moved on (a person's own move wins its race) and ``OnHoliday`` as ``move_submit``
    does."""
    engine = get_engine(match.game)
    view = engine.view(engine.load(match.state), seat.index)
    move = bots.choose_move(match.game, BotLevel.GREEDY, view, seed=bot_seed(match, seat.index))
    return move_submit(
        match=match,
        seat=seat,
        move=move,
        expected_version=match.version,
        auto=auto,
        holiday_holds=holiday_holds,
    )
