"""The ladder's writes (docs/competitions.md, "Ladder"): joining (at the bottom), leaving (those
below move up one), challenging someone above within reach (a two-seat ``games`` match whose
seat for the challenged person a games invitation holds until they answer), withdrawing, and
the result (the challenger who wins takes the challenged person's place, everyone between
moving down one). Closing or deleting an account leaves every ladder.

Every write locks the game's ``Ladder`` row first, so two results landing at once, two
challengers for one place, or a challenge against a person who just moved come one at a time,
each reading the places the last one left. The one lock order: a match row before the ladder
row (a result arrives inside the match's finishing transaction), never the other way: a
write holding the ladder cancels matches only after its commit.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ChallengeSetting
from accounts.selectors.email_confirmation import confirmed_address
from accounts.selectors.relations import blocked_between, challenge_setting
from competitions import ladder_rules
from competitions.models import Ladder, LadderChallenge, LadderEvent, LadderNotice, LadderRung
from competitions.selectors.ladder import (
    challenged_recently,
    ladder_export,
    open_between,
    open_count,
)
from games.engines import get_engine
from games.live import publish as live
from games.models import Match, Result, Seat
from games.services import Rejected, match_cancel
from games.services.invitations import match_challenge_create

State = LadderChallenge.State
Kind = LadderEvent.Kind
# Places pass through this offset while a block of rows moves, so the one-a-place constraint
# holds after every statement (PostgreSQL checks it row by row, SQLite too).
OFFSET = 1_000_000


def ladder_join(*, game: str, user: AbstractBaseUser) -> LadderRung:
    """Put ``user`` at the bottom of ``game``'s ladder; joining twice keeps the place held.
    Refused: an unconfirmed e-mail address, or a person who does not take challenges from
    anyone (the entry gates, ``ladder_rules.JOIN_*``)."""
    _game_known(game)
    if not confirmed_address(user):
        raise Rejected(_(ladder_rules.JOIN_NO_EMAIL), status=409)
    if challenge_setting(user.pk) != ChallengeSetting.Who.ANYONE:
        raise Rejected(_(ladder_rules.JOIN_NOT_OPEN), status=409)
    with transaction.atomic():
        ladder = _locked(game)
        held = LadderRung.objects.filter(ladder=ladder, user_id=user.pk).first()
        if held is not None:
            return held
        bottom = LadderRung.objects.filter(ladder=ladder).count() + 1
        rung = LadderRung.objects.create(ladder=ladder, user_id=user.pk, position=bottom)
        LadderEvent.objects.create(
            ladder=ladder, kind=Kind.JOINED, user_id=user.pk, to_place=bottom
        )
    return rung


def ladder_leave(*, game: str, user: AbstractBaseUser) -> bool:
    """Take ``user`` off ``game``'s ladder: those below move up one, the person's open
    challenges end (a match not yet begun is cancelled; one in play goes on, for nothing on the
    ladder). ``False``: they were not on it."""
    _game_known(game)
    with transaction.atomic():
        ladder = _locked(game)
        rung = LadderRung.objects.filter(ladder=ladder, user_id=user.pk).first()
        if rung is None:
            return False
        waiting = _remove(ladder, rung)
    _cancel(waiting)
    return True


def ladder_challenge(
    *, game: str, challenger: AbstractBaseUser, target_name: str
) -> LadderChallenge:
    """``challenger`` challenges the person named ``target_name`` above them on ``game``'s
    ladder: a private two-seat match, the challenger at seat 0, the challenged person's seat 1
    held by a games challenge lapsing after ``PARLOUR_LADDER_ANSWER_DAYS``; the challenged
    person moves first (the engine chooses the dealer: ``first_seat``), at the ladder's turn
    deadline. Refused (409, nothing made) by ``ladder_rules.challenge_refusal``, read under
    the ladder's lock."""
    _game_known(game)
    target = get_user_model().objects.filter(username=target_name, is_active=True).first()
    if target is None:
        raise Rejected(_(ladder_rules.NOT_THERE) % {"name": target_name[:40]}, status=404)
    with transaction.atomic():
        ladder = _locked(game)
        places = dict(
            LadderRung.objects.filter(
                ladder=ladder, user_id__in=[challenger.pk, target.pk]
            ).values_list("user_id", "position")
        )
        facts = ladder_rules.ChallengeFacts(
            challenger_place=places.get(challenger.pk),
            target_place=places.get(target.pk),
            target_name=target.get_username(),
            challenger_open=open_count(ladder, challenger.pk),
            target_open=open_count(ladder, target.pk),
            open_between=open_between(ladder, challenger.pk, target.pk),
            cooling=target.pk in challenged_recently(ladder, challenger.pk),
            refused=blocked_between(challenger.pk, target.pk)
            or challenge_setting(target.pk) != ChallengeSetting.Who.ANYONE,
        )
        refusal = ladder_rules.challenge_refusal(
            facts,
            reach=settings.PARLOUR_LADDER_REACH,
            most_open=settings.PARLOUR_LADDER_OPEN,
            cooldown_days=float(settings.PARLOUR_LADDER_COOLDOWN_DAYS),
            words=_,
        )
        if refusal:
            raise Rejected(refusal, status=409)
        match = match_challenge_create(
            created_by=challenger,
            challenges={1: target},
            lapse=timedelta(days=float(settings.PARLOUR_LADDER_ANSWER_DAYS)),
            game=game,
            num_players=2,
            deadline_days=settings.PARLOUR_LADDER_DEADLINE_DAYS,
            public=False,
            first_seat=1,
        )
        return LadderChallenge.objects.create(
            ladder=ladder,
            challenger_id=challenger.pk,
            challenged_id=target.pk,
            match=match,
            challenger_place=places[challenger.pk],
            challenged_place=places[target.pk],
        )


def ladder_withdraw(*, challenge_id: int, user: AbstractBaseUser) -> LadderChallenge:
    """The challenger calls off a challenge whose match has not begun (answered or not): the
    match is cancelled (its invitation ends) and the challenge is withdrawn. Refused once the
    match has begun (resigning ends it), or for anyone but the challenger (404)."""
    found = LadderChallenge.objects.filter(pk=challenge_id, challenger_id=user.pk).first()
    if found is None:
        raise Rejected(_("There is no such challenge of yours."), status=404)
    if found.state != State.OPEN:
        raise Rejected(_("This challenge is over already."), status=409)
    match_cancel(match_id=found.match_id, user=user)  # the match's lock decides against an accept
    with transaction.atomic():
        Ladder.objects.select_for_update().get(pk=found.ladder_id)
        LadderChallenge.objects.filter(pk=found.pk, state=State.OPEN).update(
            state=State.WITHDRAWN, settled_at=timezone.now()
        )
    found.refresh_from_db()
    return found


def ladder_notices_seen(*, game: str, user_id: int) -> int:
    """The person opened ``game``'s ladder: its notices of theirs are seen (one statement)."""
    return LadderNotice.objects.filter(
        user_id=user_id, seen_at__isnull=True, event__ladder__game=game
    ).update(seen_at=timezone.now())


def match_finished_receiver(sender: object, *, match: Match, seats: list[Seat], **_: Any) -> None:
    """``games.signals.match_finished``: settle the ladder challenge the match was for, in the
    finishing transaction (one statement for a match that is none). Idempotent: a challenge
    settles once."""
    found = LadderChallenge.objects.filter(match_id=match.pk, state=State.OPEN).first()
    if found is None:
        return
    ladder = Ladder.objects.select_for_update().get(pk=found.ladder_id)
    found.refresh_from_db()
    if found.state != State.OPEN:
        return
    _settle(ladder, found, seats)


def account_closing_receiver(sender: object, *, user_id: int, **_: Any) -> None:
    """``accounts.signals.account_closing``, inside the closing transaction: off every ladder;
    the waiting matches of the person's challenges are cancelled once it commits."""
    waiting: list[tuple[int, int]] = []
    for ladder_id in LadderRung.objects.filter(user_id=user_id).values_list("ladder_id", flat=True):
        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
        rung = LadderRung.objects.filter(ladder=ladder, user_id=user_id).first()
        if rung is not None:
            waiting += _remove(ladder, rung)
    if waiting:
        transaction.on_commit(lambda: _cancel(waiting))


def account_leaving_receiver(sender: object, *, user: AbstractBaseUser, **_: Any) -> None:
    """``accounts.signals.account_leaving`` (before a deletion, outside any transaction): off
    every ladder, one at a time."""
    games = LadderRung.objects.filter(user_id=user.pk).values_list("ladder__game", flat=True)
    for game in list(games):
        ladder_leave(game=game, user=user)


def export_sections_receiver(sender: object, *, user_id: int, **_: Any) -> dict[str, Any]:
    """``accounts.signals.export_sections``: the person's ladders in their "your data" file."""
    return {"ladders": ladder_export(user_id)}


def _settle(ladder: Ladder, challenge: LadderChallenge, seats: list[Seat]) -> None:
    now = timezone.now()
    held = {s.user_id: s for s in seats if s.user_id is not None}
    two = {challenge.challenger_id, challenge.challenged_id}
    places = dict(
        LadderRung.objects.filter(ladder=ladder, user_id__in=two).values_list("user_id", "position")
    )
    if set(held) != two or len(seats) != 2 or set(places) != two:
        # A bot took a seat, or one of them left the ladder meanwhile: nothing to settle.
        challenge.state, challenge.settled_at = State.VOID, now
        challenge.save(update_fields=["state", "settled_at"])
        return
    won = held[challenge.challenger_id].result == Result.WON
    mine, theirs = places[challenge.challenger_id], places[challenge.challenged_id]
    shift = ladder_rules.result_shift(
        challenger_won=won, challenger_place=mine, challenged_place=theirs
    )
    moved: list[int] = []
    if shift is not None:
        rows = LadderRung.objects.filter(ladder=ladder)
        moved = list(
            rows.filter(position__gte=shift.first, position__lte=shift.last).values_list(
                "user_id", flat=True
            )
        )
        rows.filter(user_id=challenge.challenger_id).update(position=0)
        rows.filter(position__gte=shift.first, position__lte=shift.last).update(
            position=F("position") + OFFSET
        )
        rows.filter(position__gt=OFFSET).update(position=F("position") - (OFFSET - 1))
        rows.filter(user_id=challenge.challenger_id).update(position=shift.first)
    event = LadderEvent.objects.create(
        ladder=ladder,
        kind=Kind.CLIMBED if shift else Kind.HELD,
        user_id=challenge.challenger_id,
        other_id=challenge.challenged_id,
        from_place=mine,
        to_place=shift.first if shift else mine,
        challenge=challenge,
        at=now,
    )
    # Everyone the climb moved is told (the notices page and badge, live after the commit): at
    # most reach + 1 people.
    told = [challenge.challenger_id, *moved]
    LadderNotice.objects.bulk_create(LadderNotice(user_id=user_id, event=event) for user_id in told)
    live.badges_changed(told)
    challenge.state = State.WON if won else State.HELD
    challenge.settled_at = now
    challenge.save(update_fields=["state", "settled_at"])


def _remove(ladder: Ladder, rung: LadderRung) -> list[tuple[int, int]]:
    """Delete the rung, close up the places below it, end the person's open challenges on
    this ladder. Returns the (match, challenger) pairs of matches to cancel after the commit."""
    place, user_id = rung.position, rung.user_id
    rung.delete()
    rows = LadderRung.objects.filter(ladder=ladder)
    rows.filter(position__gt=place).update(position=F("position") + OFFSET)
    rows.filter(position__gt=OFFSET).update(position=F("position") - (OFFSET + 1))
    LadderEvent.objects.create(ladder=ladder, kind=Kind.LEFT, user_id=user_id, from_place=place)
    mine = LadderChallenge.objects.filter(ladder=ladder, state=State.OPEN).filter(
        Q(challenger_id=user_id) | Q(challenged_id=user_id)
    )
    waiting = list(
        mine.filter(match__status=Match.Status.WAITING).values_list("match_id", "challenger_id")
    )
    mine.update(state=State.VOID, settled_at=timezone.now())
    return waiting


def _cancel(waiting: list[tuple[int, int]]) -> None:
    """Cancel the matches of challenges that ended before they began (each under its own
    lock; one begun or ended meanwhile is left as it is)."""
    people = get_user_model().objects.in_bulk({challenger for _, challenger in waiting})
    for match_id, challenger_id in waiting:
        with contextlib.suppress(Rejected):
            match_cancel(match_id=match_id, user=people[challenger_id])


def _locked(game: str) -> Ladder:
    Ladder.objects.get_or_create(game=game)
    return Ladder.objects.select_for_update().get(game=game)


def _game_known(game: str) -> None:
    try:
        get_engine(game)
    except KeyError:
        raise Rejected(_("There is no such game."), status=404) from None
