"""Leaving a match (docs/leaving.md): resign one in play, cancel a waiting one you created, or
leave a waiting one you joined. Each is one transaction under the match's row lock, so it
queues behind a move, a join or another leave on the same table and sees what they wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines import get_engine
from games.engines.resignation import RESIGN, ends_match, resigned_order
from games.models import Match, Move, Seat
from games.services._store import (
    STATE_FIELDS,
    due_work_enqueue,
    entry_log,
    match_bump,
    match_changed,
    match_finish,
)
from games.services.errors import Rejected
from games.services.invitations import invitations_end

NOT_SEATED = gettext_lazy("You do not have a seat at this table.")


@dataclass(frozen=True)
class Resigned:
    """A resignation that was logged: the match as committed, every seat (with their users),
    the resigner's seat and the logged entry."""

    match: Match
    seats: list[Seat]
    seat: Seat
    entry: Move

    @property
    def ended(self) -> bool:
        return self.match.status == Match.Status.FINISHED


def _locked(match_id: int) -> tuple[Match, list[Seat]]:
    """The match row, locked, then its seats with their users, by index."""
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise Rejected(_("There is no such match."), status=404) from None
    seats = list(Seat.objects.filter(match_id=match.pk).select_related("user").order_by("index"))
    return match, seats


def _over_message(match: Match) -> str:
    if match.status == Match.Status.CANCELLED:
        return _("This match was cancelled.")
    return _("This match is over.")


def match_resign(*, match_id: int, user: AbstractBaseUser) -> Resigned:
    """``user`` resigns the running match ``match_id``: a logged entry ``(seat, RESIGN)`` in
    the hash chain; the position does not change.

    If at most one seat, or no person, is left playing, the match ends now: the seats still
    playing share first place and the resigners rank below them (``games.engines.resignation``)
    and the rating follows as for any finished match. Otherwise play goes on and the greedy bot
    plays the resigned seat (``bot_move_play``). Refused, with nothing changed: no seat
    (403), a match not in play, a second resignation (409).
    """
    with transaction.atomic():
        match, seats = _locked(match_id)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise Rejected(NOT_SEATED, status=403)
        if match.status == Match.Status.WAITING:
            raise Rejected(
                _("This match has not started: leave it (or cancel it) instead."), status=409
            )
        if match.status != Match.Status.ACTIVE:
            raise Rejected(_over_message(match), status=409)
        if seat.resigned_ply is not None:
            raise Rejected(_("You have already resigned from this match."), status=409)
        engine = get_engine(match.game)
        state = engine.load(match.state)
        people = {s.index for s in seats if s.user_id is not None}
        resigned = [*resigned_order({s.index: s.resigned_ply for s in seats}), seat.index]
        ends = ends_match(num_players=match.num_players, resigned=resigned, people=people)
        event = {"type": "resign", "seat": seat.index, "ends": ends}
        entry = entry_log(
            engine=engine,
            match=match,
            seat=seat.index,
            move=dict(RESIGN),
            state=state,
            auto=Move.Auto.RESIGNED,
            events=[event],
        )
        seat.resigned_ply = match.ply
        seat.awaited_since = None  # the bot plays the seat: "your turn" is no longer theirs
        seat.save(update_fields=["resigned_ply", "awaited_since"])
        match.version += 1
        if ends:
            match.awaiting = []
            match.deadline_at = None
            match_finish(
                match=match,
                outcome=engine.outcome(state),
                seats=seats,
                fields=STATE_FIELDS,
                game_over=False,
            )
        else:
            match.save(update_fields=STATE_FIELDS)
        match_changed(match, recount=[s.user_id for s in seats])
        if not ends:
            # The bot's turn or the next deal due at the old version is stale now: send it
            # again at this one (the resigned seat counts as a bot's from here).
            due_work_enqueue(match=match, engine=engine, state=state, window=False, seats=seats)
    return Resigned(match=match, seats=seats, seat=seat, entry=entry)


def match_cancel(*, match_id: int, user: AbstractBaseUser) -> Match:
    """The creator calls off a match still waiting for players. It is kept, with the status
    ``cancelled``: the seated people see it so in their lists and the invite link says so;
    its pending invitations end (``invitations_end``), leaving the notices and badges.
    Refused: anyone but the creator (403), a match that has begun or is over, a Play now table
    others sit at (409: the creator leaves it to them instead, docs/quick-match.md)."""
    with transaction.atomic():
        match, seats = _locked(match_id)
        if match.created_by_id != user.pk:
            raise Rejected(_("Only the person who created this match may cancel it."), status=403)
        if match.status == Match.Status.ACTIVE:
            raise Rejected(
                _("This match has begun, so it can no longer be cancelled; you may resign."),
                status=409,
            )
        if match.status != Match.Status.WAITING:
            raise Rejected(_over_message(match), status=409)
        if match.quick and any(s.user_id not in (None, user.pk) for s in seats):
            raise Rejected(
                _("Others sit at this table, so it stays for them: leave it instead."), status=409
            )
        match.status = Match.Status.CANCELLED
        match_bump(match=match, fields=["status"])
        invitations_end(match_id=match.pk)  # its challenges leave the notices and badges
    return match


def match_leave(*, match_id: int, user: AbstractBaseUser) -> Match:
    """A seated person other than the creator gets up from a match still waiting: the seat is
    free again for someone else. The creator of a table Play now opened leaves it too while
    others sit at it, handing it to the one seated longest. Refused: no seat (403), the creator
    of any other table, or of a Play now table they sit at alone (who cancels instead), a match
    that has begun or is over (409)."""
    with transaction.atomic():
        match, seats = _locked(match_id)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise Rejected(NOT_SEATED, status=403)
        if match.status == Match.Status.ACTIVE:
            raise Rejected(_("This match has begun: you may resign instead."), status=409)
        if match.status != Match.Status.WAITING:
            raise Rejected(_over_message(match), status=409)
        fields: list[str] = []
        if match.created_by_id == user.pk:
            others = [s for s in seats if s.user_id not in (None, user.pk)]
            if not (match.quick and others):
                raise Rejected(_("You created this match: cancel it instead."), status=409)
            # Play now's table stays for the others (docs/quick-match.md): the person seated
            # longest holds it from now on, as its creator.
            match.created_by_id = min(others, key=lambda s: (s.joined_at, s.index)).user_id
            fields.append("created_by")
        seat.delete()
        match_bump(match=match, fields=fields)
    return match
