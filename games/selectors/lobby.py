"""Lists of matches: the open tables of the lobby and a person's own matches.

Both are plain queries over indexed columns (``status``, ``Seat.user``, ``Seat.awaited_since``)
that never load a snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Invitation, Match, Seat
from games.selectors.facts import MatchFacts, SeatFacts, match_facts, seat_facts
from games.selectors.history import SeatResult, seat_result


@dataclass(frozen=True)
class MatchListing:
    """A row of a list of matches. ``seat``: the listed person's seat, if any; ``result``:
    their result once the match is over, from the seats already read; ``None`` before that."""

    match: MatchFacts
    seat: int | None
    your_turn: bool
    seats: list[SeatFacts]
    result: SeatResult | None = None
    # A forming match's seats held for the people invited: seat index to the invited
    # person's id and name (docs/invitations.md), shown as held, never as open.
    held: dict[int, tuple[int, str]] = dataclass_field(default_factory=dict)
    created_by_id: int | None = None


def _listing(m: Match, seat: Seat | None = None, your_turn: bool = False) -> MatchListing:
    seats = list(m.seats.all())
    result = None
    if m.status == Match.Status.FINISHED:
        result = seat_result(match=m, seat=seat, seats=seats)
    index = None if seat is None else seat.index
    held = {i.seat_index: (i.user_id, i.user.get_username()) for i in getattr(m, "held", [])}
    return MatchListing(
        match_facts(m), index, your_turn, seat_facts(seats), result, held, m.created_by_id
    )


def _live_held() -> QuerySet[Invitation]:
    return Invitation.objects.filter(
        status=Invitation.Status.PENDING,
        expires_at__gt=timezone.now(),
        match__status=Match.Status.WAITING,
    )


def _listed(qs: QuerySet[Match]) -> QuerySet[Match]:
    # The holidays ride along with the users (the lists' "on holiday" notes): no query more.
    people = Seat.objects.select_related("user", "user__holiday").order_by("index")
    seats = Prefetch("seats", queryset=people)
    # The seats held for the people invited (one query more, for the whole list).
    held = Prefetch("invitations", queryset=_live_held().select_related("user"), to_attr="held")
    return (
        qs.defer("state", "start_events").select_related("created_by").prefetch_related(seats, held)
    )


def lobby_open_matches(*, user: AbstractBaseUser) -> list[MatchListing]:
    """Public waiting matches with a free seat that ``user`` does not sit at, oldest first
    (a private match is joined through its invite link only). A seat held for a person
    invited is not free: a match whose free seats are all held is left out, but to the person
    one is held for (Join takes it, as an accept)."""
    taken = Seat.objects.filter(match=OuterRef("pk")).values("match").annotate(n=Count("pk"))
    held = _live_held().filter(match=OuterRef("pk")).values("match").annotate(n=Count("pk"))
    qs = _listed(
        Match.objects.filter(public=True, status=Match.Status.WAITING)
        .exclude(seats__user=user)
        .annotate(
            taken=Coalesce(Subquery(taken.values("n")), 0),
            held_count=Coalesce(Subquery(held.values("n")), 0),
            mine=Exists(_live_held().filter(match=OuterRef("pk"), user=user)),
        )
        .filter(Q(taken__lt=F("num_players") - F("held_count")) | Q(mine=True))
    ).order_by("created_at")
    return [_listing(m) for m in qs]


# The lobby shows the liveliest public matches to watch, not every one.
WATCHABLE_LENGTH = 20


def lobby_watchable_matches(*, user: AbstractBaseUser) -> list[MatchListing]:
    """Public matches in play that ``user`` does not sit at, most recently moved first."""
    qs = _listed(
        Match.objects.filter(public=True, status=Match.Status.ACTIVE).exclude(seats__user=user)
    ).order_by("-updated_at")[:WATCHABLE_LENGTH]
    return [_listing(m) for m in qs]


# "Your matches" in the lobby, a page at a time.
LOBBY_PAGE_LENGTH = 20


def _user_matches_query(user: AbstractBaseUser) -> QuerySet[Match]:
    """``user``'s matches (seated, or created to watch): the ones awaiting their move first,
    then in play, waiting, finished; most recently changed first within each."""
    awaited = Seat.objects.filter(match=OuterRef("pk"), user=user, awaited_since__isnull=False)
    mine = Match.objects.filter(
        Q(pk__in=Seat.objects.filter(user=user).values("match_id")) | Q(created_by=user)
    ).annotate(
        your_turn=Exists(awaited),
        group=Case(
            When(status=Match.Status.ACTIVE, then=Value(1)),
            When(status=Match.Status.WAITING, then=Value(2)),
            default=Value(3),
            output_field=IntegerField(),
        ),
    )
    return _listed(mine).order_by("-your_turn", "group", "-updated_at", "-pk")


def _user_listing(m: Match, user: AbstractBaseUser) -> MatchListing:
    seat = next((s for s in m.seats.all() if s.user_id == user.pk), None)
    return _listing(m, seat, m.your_turn and m.status == Match.Status.ACTIVE)


def user_matches(*, user: AbstractBaseUser, limit: int | None = None) -> list[MatchListing]:
    """``user``'s matches in the lobby's order (``_user_matches_query``), the first ``limit``."""
    qs = _user_matches_query(user)
    if limit is not None:
        qs = qs[:limit]
    return [_user_listing(m, user) for m in qs]


def user_matches_page(
    *, user: AbstractBaseUser, page: int, per_page: int = LOBBY_PAGE_LENGTH
) -> Page:
    """One page of ``user``'s matches in the lobby's order, as ``MatchListing``\\ s (Django's
    paginator: a number past the end gives the last page)."""
    result = Paginator(_user_matches_query(user), per_page).get_page(page)
    result.object_list = [_user_listing(m, user) for m in result.object_list]
    return result
