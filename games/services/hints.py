"""Hints on or off for a person's own seat (docs/lessons.md, "The first match, with hints"):
one update of their seat row, idempotent; the match's version and marks stay, so no move made
meanwhile turns stale and no other page refetches."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games.models import Match, Seat
from games.services.errors import Rejected


def seat_hints_set(*, match_id: int, user: AbstractBaseUser, on: bool) -> None:
    """Turn the person's hints at ``match_id`` on or off, while the match is in play.

    Setting what is already set changes nothing (a double click, a stale page). No seat of
    theirs: a 403; a match over or not begun: a 409.
    """
    seat = (
        Seat.objects.filter(match_id=match_id, user_id=user.pk)
        .select_related("match")
        .only("pk", "hints", "match__status")
        .first()
    )
    if seat is None:
        raise Rejected(_("You do not have a seat at this table."), status=403)
    if seat.match.status != Match.Status.ACTIVE:
        raise Rejected(_("Hints are for a match in play."), status=409)
    if seat.hints != on:
        Seat.objects.filter(pk=seat.pk).update(hints=on)
