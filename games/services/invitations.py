"""Invitations: a person asked to take one seat of a match being formed, by a challenge from
the new-match form or by a rematch offer ("Play again" on a finished table). One mechanism for
both (docs/invitations.md): pending until accepted (the person sits), declined (the seat is
free again: the inviter fills it by link, lobby, or another challenge) or expired. The match
begins when its last seat is taken, as any match does.

Every answer locks the match row first, so two accepts of the last seat, an accept against the
expiry sweep, and a block against a pending challenge each come out one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.selectors.relations import blocked_between
from games.live import publish as live
from games.models import BotLevel, Invitation, Match, Seat
from games.services._store import match_bump
from games.services.challenges import challenge_refusal
from games.services.errors import Rejected
from games.services.invitation_mail import invitation_mails_enqueue
from games.services.invitation_seats import invitations_reserved
from games.services.matches import ACROSS_A_BLOCK, match_create, match_start, seat_across_a_block

Status = Invitation.Status
# A rematch offer with no turn deadline stays open this long.
REMATCH_DAYS_WITHOUT_DEADLINE = 7

REFUSED_BY_STATUS = {
    Status.ACCEPTED: gettext_lazy("You already accepted this invitation."),
    Status.DECLINED: gettext_lazy("This invitation was declined; it can no longer be accepted."),
    Status.EXPIRED: gettext_lazy("This invitation has expired."),
}
# Ended by a block, maybe the inviter's: not "declined", nor a word of the block.
WITHDRAWN = gettext_lazy("This invitation can no longer be accepted.")
REFUSED_BY_STATUS[Status.WITHDRAWN] = WITHDRAWN


@dataclass(frozen=True)
class Answered:
    """What an answer did: the match, and whether it began with this answer."""

    match_id: int
    started: bool


def challenge_lapse() -> timedelta:
    return timedelta(days=float(settings.PARLOUR_CHALLENGE_DAYS))


def match_challenge_create(
    *,
    created_by: AbstractBaseUser,
    challenges: Mapping[int, AbstractBaseUser],
    lapse: timedelta | None = None,
    **match_fields: Any,
) -> Match:
    """A new match (``match_create``'s fields) whose seats in ``challenges`` (seat index to
    person) are held for those people, each by a pending challenge that lapses after ``lapse``
    (``PARLOUR_CHALLENGE_DAYS`` by default). Refused, making nothing, when a person may not be
    challenged by ``created_by`` (``relations.challenge_refusal``)."""
    seen: set[int] = set()
    for target in challenges.values():
        if target.pk in seen:
            raise Rejected(
                _("%(name)s is challenged twice.") % {"name": target.get_username()}, status=400
            )
        seen.add(target.pk)
        refusal = challenge_refusal(
            challenger_id=created_by.pk, target_id=target.pk, target_name=target.get_username()
        )
        if refusal:
            raise Rejected(refusal, status=409)
    expires = timezone.now() + (challenge_lapse() if lapse is None else lapse)
    with transaction.atomic():
        match = match_create(created_by=created_by, **match_fields)
        made = Invitation.objects.bulk_create(
            Invitation(
                match=match,
                seat_index=index,
                user=target,
                invited_by=created_by,
                kind=Invitation.Kind.CHALLENGE,
                expires_at=expires,
            )
            for index, target in sorted(challenges.items())
        )
        invitation_mails_enqueue(invitation_ids=_ids(match, made))
        live.badges_changed(i.user_id for i in made)
    return match


def invitation_accept(*, invitation_id: int, user: AbstractBaseUser) -> Answered:
    """Take the seat the invitation holds; the match begins if it was the last one."""
    expired = False
    with transaction.atomic():
        invitation = _locked(invitation_id, user)
        match = Match.objects.select_for_update().get(pk=invitation.match_id)
        invitation.refresh_from_db()
        refusal = _answer_refusal(invitation, match)
        if refusal is None and invitation.expires_at <= timezone.now():
            expired = True
        elif refusal is None:
            seats = list(Seat.objects.filter(match_id=match.pk))
            if any(s.user_id == user.pk for s in seats):
                refusal = _("You already sit at this table.")
            elif any(s.index == invitation.seat_index for s in seats):
                refusal = _("That seat was just taken.")
            elif seat_across_a_block(match, seats, user.pk):
                raise Rejected(ACROSS_A_BLOCK, status=403)
        if refusal:
            raise Rejected(refusal, status=409)
        if not expired:
            Seat.objects.create(match=match, index=invitation.seat_index, user=user)
            invitation.status = Status.ACCEPTED
            invitation.answered_at = timezone.now()
            invitation.save(update_fields=["status", "answered_at"])
            match_bump(match=match)
            live.badges_changed([user.pk])
            started = len(seats) + 1 == match.num_players
            if started:
                match_start(match=match)
    if expired:  # marked lazily, outside the refused transaction
        invitations_expire()
        raise Rejected(REFUSED_BY_STATUS[Status.EXPIRED], status=409)
    return Answered(match_id=match.pk, started=started)


def invitation_decline(*, invitation_id: int, user: AbstractBaseUser) -> Answered:
    """Decline: the seat is free again for the inviter to fill."""
    with transaction.atomic():
        invitation = _locked(invitation_id, user)
        match = Match.objects.select_for_update().get(pk=invitation.match_id)
        invitation.refresh_from_db()
        refusal = _answer_refusal(invitation, match)
        if refusal:
            raise Rejected(refusal, status=409)
        invitation.status = Status.DECLINED
        invitation.answered_at = timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
        match_bump(match=match)
        # The inviter's notices list it now (declined: the seat to fill), so theirs recounts too.
        live.badges_changed([user.pk, invitation.invited_by_id])
    return Answered(match_id=match.pk, started=False)


def invitations_expire() -> int:
    """Mark every pending invitation past its time expired, and bump their matches' versions
    so open tables show it (beat runs this; answers and reads treat a lapsed one as expired
    already). How many were marked."""
    now = timezone.now()
    with transaction.atomic():
        lapsed = Invitation.objects.filter(status=Status.PENDING, expires_at__lte=now)
        rows = set(lapsed.values_list("match_id", "user_id", "invited_by_id"))
        if not rows:
            return 0
        marked = lapsed.update(status=Status.EXPIRED, answered_at=now)
        _bump_many({m for m, _, _ in rows})
        # Both recount: the invited lose it, the inviter's notices gain it (the seat to fill).
        live.badges_changed({u for _, u, _ in rows} | {by for _, _, by in rows})
    return marked


def invitations_decline_between(*, a_id: int, b_id: int) -> int:
    """Withdraw every pending invitation between the two, both ways (a block: called inside the
    blocking transaction): ``withdrawn``, its own state, never "declined", which would name a
    decision the person may not have made, and it stays so once the block is lifted. How many
    were withdrawn."""
    pending = Invitation.objects.filter(
        Q(user_id=a_id, invited_by_id=b_id) | Q(user_id=b_id, invited_by_id=a_id),
        status=Status.PENDING,
    )
    match_ids = set(pending.values_list("match_id", flat=True))
    if not match_ids:
        return 0
    withdrawn = pending.update(status=Status.WITHDRAWN, answered_at=timezone.now())
    _bump_many(match_ids)
    live.badges_changed([a_id, b_id])
    return withdrawn


def invitations_end(*, match_id: int) -> int:
    """End a cancelled match's pending invitations: marked expired, so they leave the invited
    people's notices and badges (called inside the cancel's transaction, the match locked).
    How many were ended."""
    pending = Invitation.objects.filter(match_id=match_id, status=Status.PENDING)
    invited = list(pending.values_list("user_id", flat=True))
    # The inviters' notices of this match's declined or lapsed seats leave with it too.
    inviters = set(
        Invitation.objects.filter(match_id=match_id).values_list("invited_by_id", flat=True)
    )
    ended = pending.update(status=Status.EXPIRED, answered_at=timezone.now()) if invited else 0
    live.badges_changed([*invited, *inviters])
    return ended


def person_blocked_receiver(sender: object, *, blocker_id: int, blocked_id: int, **_: Any) -> None:
    """``accounts.relations.person_blocked``'s listener (connected in ``games.apps``)."""
    invitations_decline_between(a_id=blocker_id, b_id=blocked_id)


def rematch_offer(*, match_id: int, user: AbstractBaseUser) -> Answered:
    """ "Play again": a new match with the finished one's game, options and seats, bots kept,
    the deal passing to the seat after the last dealer. Every other person seated is invited
    until the turn deadline (7 days with none), but one a block stands between (their seat is
    left open). If a rematch is already offered, this accepts the offerer's invitation to it
    (two people offering at once make one offer) or does nothing (offering twice). With only
    bots besides the offerer it begins at once."""
    with transaction.atomic():
        old = Match.objects.select_for_update().get(pk=match_id)
        seats = list(Seat.objects.filter(match_id=old.pk).order_by("index"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if old.status != Match.Status.FINISHED or mine is None:
            raise Rejected(_("Only a player of a finished match may offer to play again."), 409)
        existing = Match.objects.filter(rematch_of_id=old.pk).first()
        if existing is None:
            return _rematch_new(old, seats, mine, user)
    pending = Invitation.objects.filter(
        match_id=existing.pk, user_id=user.pk, status=Status.PENDING
    ).first()
    if pending is not None and pending.expires_at > timezone.now():
        return invitation_accept(invitation_id=pending.pk, user=user)
    seats = list(Seat.objects.filter(match_id=existing.pk))
    if not any(s.user_id == user.pk for s in seats):
        # Nothing to accept and no seat held: say so, rather than "offered" (issue 33).
        if seat_across_a_block(existing, seats, user.pk):
            raise Rejected(ACROSS_A_BLOCK, status=403)
        raise Rejected(_("No seat at this rematch waits for you; open it from the table."), 409)
    return Answered(match_id=existing.pk, started=existing.status != Match.Status.WAITING)


def _rematch_new(old: Match, seats: list[Seat], mine: Seat, user: AbstractBaseUser) -> Answered:
    options = {k: v for k, v in old.options.items() if k != "dealer"}
    dealer = old.options.get("dealer", 0) + 1
    people = [s for s in seats if s.user_id is not None and s.user_id != user.pk]
    active = set(
        get_user_model()
        .objects.filter(pk__in=[s.user_id for s in people], is_active=True)
        .values_list("pk", flat=True)
    )
    invited = [s for s in people if s.user_id in active and not blocked_between(user.pk, s.user_id)]
    bots = {s.index: s.bot_level for s in seats if s.bot_level}
    try:
        with transaction.atomic():
            match = match_create(
                game=old.game,
                num_players=old.num_players,
                created_by=user,
                options=options,
                bots=bots,
                creator_plays=False,
                deadline_days=old.deadline_days,
                holidays=old.holidays,
                public=old.public,
                phrases_watchers=old.phrases_watchers,
                dealer=dealer,
                rematch_of=old,
            )
            days = old.deadline_days or REMATCH_DAYS_WITHOUT_DEADLINE
            expires = timezone.now() + timedelta(days=days)
            made = Invitation.objects.bulk_create(
                Invitation(
                    match=match,
                    seat_index=s.index,
                    user_id=s.user_id,
                    invited_by=user,
                    kind=Invitation.Kind.REMATCH,
                    expires_at=expires,
                )
                for s in invited
            )
            invitation_mails_enqueue(invitation_ids=_ids(match, made))
            live.badges_changed(i.user_id for i in made)
            Seat.objects.create(match=match, index=mine.index, user=user)
            match_bump(match=match)
            started = len(bots) + 1 == old.num_players
            if started:
                match_start(match=match)
    except IntegrityError as exc:  # the one rematch made at the same moment elsewhere
        raise Rejected(_("A rematch was just offered; open it from the table."), 409) from exc
    return Answered(match_id=match.pk, started=started)


def seat_bot_add(*, match_id: int, user: AbstractBaseUser, seat_index: int, level: str) -> Answered:
    """The creator of a waiting match seats a bot in a free seat: one a decline or a lapse freed,
    a rematch seat left open across a block, or any seat no one holds. The match begins if it
    was the last seat. Under the match's row lock, so a join or an accept for the same seat at
    the same moment comes out one way."""
    if level not in BotLevel.values:
        raise Rejected(_("Pick one of the bots."), status=400)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.created_by_id != user.pk:
            raise Rejected(_("Only the person who made this match may seat a bot."), status=403)
        if match.status == Match.Status.CANCELLED:
            raise Rejected(_("This match was cancelled by its creator."), status=409)
        if match.status != Match.Status.WAITING:
            raise Rejected(_("This match has already started."), status=409)
        if not 0 <= seat_index < match.num_players:
            raise Rejected(
                _("There is no such seat at a table of %(seats)d.") % {"seats": match.num_players},
                400,
            )
        seats = list(Seat.objects.filter(match_id=match.pk))
        if any(s.index == seat_index for s in seats):
            raise Rejected(_("That seat was just taken."), status=409)
        if seat_index in invitations_reserved(match_id=match.pk):
            raise Rejected(_("That seat is held for the person invited until they answer."), 409)
        Seat.objects.create(match=match, index=seat_index, bot_level=level)
        match_bump(match=match)
        started = len(seats) + 1 == match.num_players
        if started:
            match_start(match=match)
    return Answered(match_id=match.pk, started=started)


def _ids(match: Match, made: list[Invitation]) -> list[int]:
    """The new invitations' ids (a bulk insert sets them on PostgreSQL and SQLite alike; read
    back should a backend not)."""
    if all(i.pk for i in made):
        return [i.pk for i in made]
    return list(Invitation.objects.filter(match=match).values_list("pk", flat=True))


def _locked(invitation_id: int, user: AbstractBaseUser) -> Invitation:
    found = Invitation.objects.filter(pk=invitation_id, user_id=user.pk).first()
    if found is None:
        raise Rejected(_("There is no such invitation for you."), status=404)
    return found


def _answer_refusal(invitation: Invitation, match: Match) -> str | None:
    if match.status == Match.Status.CANCELLED:  # its invitations ended with it
        return _("This match was cancelled by its creator.")
    if invitation.status == Status.DECLINED and blocked_between(
        invitation.user_id, invitation.invited_by_id
    ):
        # Declined by a block before blocks withdrew (``Status.WITHDRAWN``), the block standing.
        return WITHDRAWN
    if invitation.status != Status.PENDING:
        return REFUSED_BY_STATUS[invitation.status]
    if match.status != Match.Status.WAITING:
        return _("This match has already started.")
    return None


def _bump_many(match_ids: set[int]) -> None:
    for match in Match.objects.select_for_update().filter(pk__in=match_ids):
        match_bump(match=match)
