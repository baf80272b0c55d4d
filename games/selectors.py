"""Reads for pages. Table contexts come from ``engine.view(state, seat)`` and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from games import tables
from games.engines import get_engine
from games.models import Match, Move, Seat


@dataclass(frozen=True)
class MatchListing:
    match: Match
    seat: Seat | None
    your_turn: bool
    names: list[str]


def _names(match: Match) -> list[str]:
    taken = {s.index: s.display_name for s in match.seats.all()}
    return [taken.get(i, "(open seat)") for i in range(match.num_players)]


def _with_seats(qs: QuerySet[Match]) -> QuerySet[Match]:
    return qs.select_related("created_by").prefetch_related("seats__user")


def lobby_open_matches(*, user: AbstractBaseUser) -> list[MatchListing]:
    """Waiting matches with a free seat that ``user`` does not already sit at, oldest first."""
    qs = _with_seats(
        Match.objects.filter(status=Match.Status.WAITING).exclude(seats__user=user)
    ).order_by("created_at")
    return [MatchListing(m, None, False, _names(m)) for m in qs]


def user_matches(*, user: AbstractBaseUser, limit: int | None = None) -> list[MatchListing]:
    """``user``'s matches (seated, or created to watch): the ones awaiting their move first,
    then in play, waiting, finished."""
    mine = Match.objects.filter(Q(seats__user=user) | Q(created_by=user)).distinct()
    qs = _with_seats(mine).order_by("-updated_at")
    if limit is not None:
        qs = qs[:limit]
    listings = []
    for m in qs:
        seat = next((s for s in m.seats.all() if s.user_id == user.pk), None)
        seated = seat is not None and seat.index in m.awaiting
        your_turn = m.status == Match.Status.ACTIVE and seated
        listings.append(MatchListing(m, seat, your_turn, _names(m)))
    rank = {Match.Status.ACTIVE: 1, Match.Status.WAITING: 2, Match.Status.FINISHED: 3}
    listings.sort(key=lambda item: 0 if item.your_turn else rank[item.match.status])
    return listings


def seat_for_user(*, match: Match, user: AbstractBaseUser) -> Seat | None:
    if not user.is_authenticated:
        return None
    return match.seats.filter(user=user).select_related("user").first()


def match_table_context(*, match: Match, seat: Seat | None) -> dict[str, Any]:
    """Everything the ``#table`` partial renders, for ``seat`` (``None``: a spectator)."""
    seats = list(match.seats.select_related("user").order_by("index"))
    names = [s.display_name for s in seats]
    names += ["(open seat)" for _ in range(len(names), match.num_players)]
    context: dict[str, Any] = {
        "match": match,
        "seat": seat,
        "seats": seats,
        "names": names,
        "free_seats": match.num_players - len(seats),
        "table": None,
        "deadline_at": None,
    }
    people = {s.index for s in seats if s.bot_level is None}
    if match.status == Match.Status.ACTIVE and people.intersection(match.awaiting):
        context["deadline_at"] = match.deadline_at
    if match.state is None:
        return context
    engine = get_engine(match.game)
    view = engine.view(engine.load(match.state), None if seat is None else seat.index)
    notes = {
        entry.event_index: tables.auto_note(entry.auto, names[entry.seat])
        for entry in Move.objects.filter(match=match)
        .exclude(auto="")
        .only("auto", "seat", "event_index")
        if entry.event_index is not None and entry.seat is not None
    }
    context["table"] = tables.build(match.game, view=view, names=names, notes=notes)
    return context
