"""What a person's account deletion means for matches (docs/accounts.md, "Closing and
deleting"): the receivers of ``accounts.signals.account_leaving`` and ``account_deleting``,
connected in ``games.apps``.

Before the account row is anonymised the person leaves every match still going, through the
same services a person uses (``games.services.leaving``): a running seat resigns, so the greedy
bot plays it on and the record verifies (the resignation is a link of the hash chain); a waiting
match they created is cancelled, one they joined is left. Inside the deletion's transaction
their ratings, notices and table phrases go, the analyses they asked for forget who asked, a
deadline's rating note names the new name, and every match they sat at bumps its version, so no
page cached under the old version (the replay's move list) shows the old name.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Q

from games.engines import get_engine
from games.models import Match, MatchAnalysis, MatchNotice, Rating, Seat, TablePhrase
from games.services._store import due_work_enqueue, match_bump
from games.services.errors import Rejected
from games.services.leaving import match_cancel, match_leave, match_resign
from games.services.ratings import NOTE_DEADLINE

logger = logging.getLogger(__name__)


def matches_leave(*, user: AbstractBaseUser) -> None:
    """Resign every running seat, cancel every waiting match they created (seated or only
    watching) and leave every other waiting one, one transaction each (a match that moved on
    meanwhile, ended or already resigned, is left as it is)."""
    going = [Match.Status.ACTIVE, Match.Status.WAITING]
    seats = Seat.objects.filter(user_id=user.pk, match__status__in=going, resigned_ply__isnull=True)
    steps = [
        (match_resign if status == Match.Status.ACTIVE else match_leave, match_id)
        for match_id, status, creator in seats.values_list(
            "match_id", "match__status", "match__created_by_id"
        )
        if status == Match.Status.ACTIVE or creator != user.pk
    ]
    created = Match.objects.filter(created_by_id=user.pk, status=Match.Status.WAITING)
    steps += [(match_cancel, match_id) for match_id in created.values_list("pk", flat=True)]
    for step, match_id in steps:
        try:
            step(match_id=match_id, user=user)
        except Rejected as exc:
            logger.info("account deletion: match %s moved on (%s)", match_id, exc.status)


def _versions_bump(match_ids: list[int]) -> None:
    """Bump the version of each match: pages cached under the old one (the replay's move list)
    are not served again, and open tables fetch the new names at their next poll. A running
    match is bumped under its row lock and the bot's turn or deal due at the old version is
    sent again at the new one, as a resignation does."""
    Match.objects.filter(pk__in=match_ids).exclude(status=Match.Status.ACTIVE).update(
        version=F("version") + 1
    )
    for match in Match.objects.select_for_update().filter(
        pk__in=match_ids, status=Match.Status.ACTIVE
    ):
        match_bump(match=match)
        engine = get_engine(match.game)
        seats = list(Seat.objects.filter(match_id=match.pk))
        due_work_enqueue(
            match=match, engine=engine, state=engine.load(match.state), window=False, seats=seats
        )


def play_forget(*, user_id: int, old_name: str, new_name: str) -> None:
    """Inside the deletion's transaction: the person's ratings leave the leaderboards (their
    own changes go with them, by cascade; the other seats' changes from the same matches stay:
    they are theirs), their notices and what they said at tables go, the analyses they asked
    for forget who asked, and every match they sat at or created is renamed and bumped."""
    Rating.objects.filter(user_id=user_id).delete()
    MatchNotice.objects.filter(user_id=user_id).delete()
    TablePhrase.objects.filter(user_id=user_id).delete()
    MatchAnalysis.objects.filter(requested_by_id=user_id).update(requested_by=None)
    sat = Match.objects.filter(Q(seats__user_id=user_id) | Q(created_by_id=user_id))
    ids = list(sat.values_list("pk", flat=True).distinct())
    Match.objects.filter(pk__in=ids, rating_note=NOTE_DEADLINE.format(name=old_name)).update(
        rating_note=NOTE_DEADLINE.format(name=new_name)
    )
    _versions_bump(ids)


def account_leaving_receiver(sender: object, *, user: AbstractBaseUser, **_: Any) -> None:
    """``accounts.signals.account_leaving``'s listener (connected in ``games.apps``)."""
    matches_leave(user=user)


def account_deleting_receiver(
    sender: object, *, user_id: int, old_name: str, new_name: str, **_: Any
) -> None:
    """``accounts.signals.account_deleting``'s listener (connected in ``games.apps``)."""
    play_forget(user_id=user_id, old_name=old_name, new_name=new_name)
