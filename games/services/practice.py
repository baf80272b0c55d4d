"""The practice match after a game's last lesson (docs/lessons.md, "The first match, with
hints"): the person against the greedy bot, hints on, unrated; one unfinished a person and game,
so a repeated click finds the first."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import BotLevel, Match
from games.services.errors import Rejected
from games.services.matches import match_create

# The easy bot: the greedy one plays sensible moves a beginner can read (the random bot's
# aimless moves teach nothing), and answers at once, unlike the strong bot's search.
PRACTICE_BOT = BotLevel.GREEDY
PRACTICE_PLAYERS = 2


def practice_running(*, game: str, user_id: int) -> Match | None:
    """The person's unfinished practice match of ``game``, if any."""
    return (
        Match.objects.filter(
            created_by_id=user_id,
            game=game,
            practice=True,
            status__in=(Match.Status.WAITING, Match.Status.ACTIVE),
        )
        .order_by("pk")
        .first()
    )


def practice_start(*, game: str, user: AbstractBaseUser) -> Match:
    """The person's practice match of ``game``: the unfinished one, or a new one at two seats
    (theirs first, hints on; the greedy bot's second), dealt so they move first when the game
    takes a chosen dealer. An unknown game is a 404."""
    try:
        get_engine(game)
    except KeyError as exc:
        raise Rejected(_("There is no such game."), status=404) from exc
    running = practice_running(game=game, user_id=user.pk)
    if running is not None:
        return running
    try:
        with transaction.atomic():
            return match_create(
                game=game,
                num_players=PRACTICE_PLAYERS,
                created_by=user,
                bots={1: PRACTICE_BOT},
                hints=True,
                practice=True,
                creator_first=True,
            )
    except IntegrityError:
        # Two clicks at once: the other one's match stands (``match_one_practice_running``).
        running = practice_running(game=game, user_id=user.pk)
        if running is None:
            raise
        return running
