"""A person's matches and figures: the history list, its filter counts and the profile's
statistics (docs/history.md), as values: ``games.presentation.results`` words them.

Every read is a fixed number of queries over the result columns of ``Seat`` (``result``,
``score``, ``rank``) and the columns of ``Match``: none loads a snapshot (``state`` and
``start_events`` are always deferred) and none loops over matches, so a person with 500 matches
costs what a person with 5 does. Lists are Django ``Page``\\ s.

Privacy: on one's own history and profile every figure covers all of one's matches; on someone
else's profile only the matches the viewer may see (``matches_visible_q``), so a private match
of others never shows, not even as a count.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import (
    Avg,
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
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.engines import get_engine, registered
from games.filters import IN_PLAY, HistoryFilters, opponent_value
from games.models import Invitation, Match, RatingChange, Result, Seat
from games.selectors.access import matches_visible_q
from games.selectors.facts import MatchFacts, SeatFacts, match_facts, seat_facts

PAGE_SIZE = 20
HEAD_TO_HEAD_PAGE_SIZE = 20
FORM_LENGTH = 10

Status = Match.Status


@dataclass(frozen=True)
class SeatResult:
    """What a seat's result is made of: the match's status, the seat's result and rank, and
    whether another seat shares that rank (``games.presentation.results`` words it)."""

    status: str
    result: str | None
    rank: int | None
    tied: bool
    num_players: int


def seat_result(*, match: Match, seat: Seat | None, seats: Iterable[Seat]) -> SeatResult:
    """``seat``'s result in ``match`` (``seats``: all the match's seats, already read)."""
    if seat is None:
        return SeatResult(match.status, None, None, False, match.num_players)
    tied = seat.rank is not None and any(
        s.rank == seat.rank and s.index != seat.index for s in seats
    )
    return SeatResult(match.status, seat.result, seat.rank, tied, match.num_players)


# --- The history list ----------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    """One match of a history list, from the listed person's seat."""

    match: MatchFacts
    seat: int
    opponents: list[SeatFacts]
    open_seats: int  # free for anyone: neither taken nor held for a person invited
    result: SeatResult
    moves: int  # the players' moves: the log's entries less the server's deals (``moves_made``)
    rounds: int | None  # rounds dealt, for games of several rounds
    rating_delta: int | None  # the rating change once the match is rated (docs/ratings.md)
    held_seats: int = 0  # a forming match's seats held for the people invited


def _day_start(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


def _filtered(qs: QuerySet[Seat], filters: HistoryFilters) -> QuerySet[Seat]:
    """``qs`` (the listed person's seats) narrowed by ``filters``; every filter combines."""
    if filters.game:
        qs = qs.filter(match__game=filters.game)
    if filters.result == IN_PLAY:
        qs = qs.filter(match__status=Status.ACTIVE)
    elif filters.result:
        qs = qs.filter(result=filters.result)
    if filters.status:
        qs = qs.filter(match__status=filters.status)
    if filters.opponent:
        kind, _, value = filters.opponent.partition(":")
        others = Seat.objects.filter(match_id=OuterRef("match_id")).exclude(pk=OuterRef("pk"))
        if kind == "user":
            others = others.filter(user__username=value)
        else:
            others = others.filter(bot_level=value)
        qs = qs.filter(Exists(others))
    # Bounds on the creation time rather than on its date, so the column is compared as is.
    if filters.date_from:
        qs = qs.filter(match__created_at__gte=_day_start(filters.date_from))
    if filters.date_to:
        qs = qs.filter(match__created_at__lt=_day_start(filters.date_to + datetime.timedelta(1)))
    return qs


def _seats_of(user: AbstractBaseUser, viewer: AbstractBaseUser | None) -> QuerySet[Seat]:
    """``user``'s seats, only at matches ``viewer`` may see when the viewer is someone else."""
    qs = Seat.objects.filter(user_id=user.pk)
    if viewer is not None and viewer.pk != user.pk:
        qs = qs.filter(matches_visible_q(viewer, via="match"))
    return qs


def _rating_delta() -> Subquery:
    """The listed seat's rating change in its match (NULL when not rated), as a subquery of
    the page's one query, so rows need no query of their own."""
    change = RatingChange.objects.filter(match_id=OuterRef("match_id"), seat=OuterRef("index"))
    return Subquery(
        change.annotate(delta=F("ordinal_after") - F("ordinal_before")).values("delta")[:1],
        output_field=IntegerField(),
    )


def _held_seats() -> Coalesce:
    """How many seats of the listed seat's match live pending invitations hold (0 but while it
    forms), as a subquery of the page's one query: a held seat is no open seat."""
    held = (
        Invitation.objects.filter(
            match_id=OuterRef("match_id"),
            match__status=Status.WAITING,
            status=Invitation.Status.PENDING,
            expires_at__gt=timezone.now(),
        )
        .values("match_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(held, output_field=IntegerField()), 0)


def _row(seat: Seat) -> HistoryRow:
    match = seat.match
    seats = list(match.seats.all())
    several = get_engine(match.game).has_rounds
    dealt = match.status in (Status.ACTIVE, Status.FINISHED)  # not waiting, nor cancelled
    facts = match_facts(match)
    return HistoryRow(
        match=facts,
        seat=seat.index,
        opponents=[s for s in seat_facts(seats) if s.index != seat.index],
        open_seats=match.num_players - len(seats) - getattr(seat, "held_seats", 0),
        result=seat_result(match=match, seat=seat, seats=seats),
        moves=facts.moves,
        rounds=match.rounds if several and dealt else None,
        rating_delta=getattr(seat, "rating_delta", None),
        held_seats=getattr(seat, "held_seats", 0),
    )


def match_history(
    *,
    user: AbstractBaseUser,
    filters: HistoryFilters,
    viewer: AbstractBaseUser | None = None,
    per_page: int = PAGE_SIZE,
) -> Page:
    """One page of ``user``'s matches, newest first, as ``HistoryRow``\\ s.

    Three queries whatever the number of matches: the count, the page of ``user``'s seats
    joined to their matches (snapshots deferred) and the page's seats with their users.
    ``viewer`` other than ``user`` (a profile) sees only the matches they may see.
    """
    qs = (
        _filtered(_seats_of(user, viewer), filters)
        .select_related("match")
        .defer("match__state", "match__start_events")
        .annotate(rating_delta=_rating_delta(), held_seats=_held_seats())
        .order_by("-match__created_at", "-match_id")
    )
    page = Paginator(qs, per_page).get_page(filters.page)
    own = list(page.object_list)
    table = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    prefetch_related_objects([s.match for s in own], table)
    page.object_list = [_row(s) for s in own]
    return page


def history_counts(*, user: AbstractBaseUser) -> dict[str, dict[str, int]]:
    """How many of ``user``'s matches each filter value would list on its own, per field
    (``{"game": {...}, "result": {...}, "status": {...}}``, plus ``{"all": {"all": n}}``):
    one aggregate query with a conditional ``Count`` per value."""
    counts = {
        "game": {e.name: Q(match__game=e.name) for e in registered()},
        "result": {r: Q(result=r) for r in Result.values}
        | {IN_PLAY: Q(match__status=Status.ACTIVE)},
        "status": {s: Q(match__status=s) for s in Status.values},
    }
    aggregates = {
        f"{field}_{value}": Count("pk", filter=condition)
        for field, values in counts.items()
        for value, condition in values.items()
    }
    totals = Seat.objects.filter(user_id=user.pk).aggregate(all=Count("pk"), **aggregates)
    figures = {
        field: {value: totals[f"{field}_{value}"] for value in values}
        for field, values in counts.items()
    }
    figures["all"] = {"all": totals["all"]}
    return figures


def history_opponents(*, user: AbstractBaseUser) -> list[tuple[str, str | None, str | None, int]]:
    """Everyone ``user`` has sat with, as ``(filter value, username, bot level, matches
    together)``: people by name, then bot levels. One aggregate query."""
    rows = (
        Seat.objects.filter(match__seats__user_id=user.pk)
        .exclude(user_id=user.pk)
        .values("user__username", "bot_level")
        .annotate(together=Count("match_id", distinct=True))
        .order_by(F("bot_level").asc(nulls_first=True), "user__username")
    )
    return [
        (
            opponent_value(username=r["user__username"], bot_level=r["bot_level"]),
            r["user__username"],
            r["bot_level"],
            r["together"],
        )
        for r in rows
    ]


# --- The profile's figures -----------------------------------------------------------------


@dataclass(frozen=True)
class GameStats:
    """One game's finished matches of a person."""

    game: str
    title: str  # the game's title, from its engine
    score_help: str  # what a score counts, from its engine
    played: int
    won: int
    lost: int
    drawn: int
    average_score: float | None

    @property
    def win_rate(self) -> int | None:
        """Matches won per hundred played, rounded (``None`` before the first)."""
        return round(100 * self.won / self.played) if self.played else None


@dataclass(frozen=True)
class FormResult:
    """One finished result of the recent form, newest first."""

    match_id: int
    title: str  # the game's title
    result: SeatResult


@dataclass(frozen=True)
class HeadToHead:
    """The profile owner against one opponent, over the finished matches they shared.

    Two people in a match: ``won`` when the owner's rank is better (lower) than theirs,
    ``lost`` when worse, ``drawn`` when equal; in a match of two this is the result itself.
    A bot level is one opponent, met once per bot seat of that level.
    """

    username: str | None
    bot_level: str | None
    played: int
    won: int
    lost: int
    drawn: int
    is_viewer: bool = False


@dataclass(frozen=True)
class UserStats:
    games: list[GameStats]
    form: list[FormResult]
    head_to_head: Page  # of HeadToHead, the viewer's own row first


def _rounded(average: float | None) -> float | None:
    # AVG of an integer column may come back as a Decimal (PostgreSQL) or a float (SQLite).
    return None if average is None else round(float(average), 1)


def _game_stats(seats: QuerySet[Seat]) -> list[GameStats]:
    rows = (
        seats.filter(match__status=Status.FINISHED)
        .values("match__game")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(result=Result.WON)),
            lost=Count("pk", filter=Q(result=Result.LOST)),
            drawn=Count("pk", filter=Q(result=Result.DRAWN)),
            average_score=Avg("score"),
        )
        .order_by("match__game")
    )
    return [
        GameStats(
            game=r["match__game"],
            title=get_engine(r["match__game"]).title,
            score_help=get_engine(r["match__game"]).score_help,
            played=r["played"],
            won=r["won"],
            lost=r["lost"],
            drawn=r["drawn"],
            average_score=_rounded(r["average_score"]),
        )
        for r in rows
    ]


def _recent_form(seats: QuerySet[Seat]) -> list[FormResult]:
    shared = Seat.objects.filter(match_id=OuterRef("match_id"), rank=OuterRef("rank")).exclude(
        pk=OuterRef("pk")
    )
    rows = (
        seats.filter(match__status=Status.FINISHED, result__isnull=False)
        .annotate(tied=Exists(shared))
        .order_by(F("match__finished_at").desc(nulls_last=True), "-match_id")
        .values("match_id", "match__game", "match__num_players", "result", "rank", "tied")[
            :FORM_LENGTH
        ]
    )
    return [
        FormResult(
            r["match_id"],
            get_engine(r["match__game"]).title,
            SeatResult(Status.FINISHED, r["result"], r["rank"], r["tied"], r["match__num_players"]),
        )
        for r in rows
    ]


def _head_to_head(
    owner: AbstractBaseUser, viewer: AbstractBaseUser, page: int, per_page: int
) -> Page:
    """The owner's record against each opponent: one grouped query over the pairs (owner's
    seat, other seat) of finished matches, a self-join of ``Seat`` on the match.

    The rows are the other seats; ``filter(match__seats__user=owner)`` joins the owner's seat
    of the same match, and the conditional counts compare the two ranks through that same join
    (an annotation after a filter reuses the filter's join of a multi-valued relation).
    """
    mine = F("match__seats__rank")
    pairs = Seat.objects.filter(
        match__status=Status.FINISHED,
        match__seats__user_id=owner.pk,
        rank__isnull=False,
    ).exclude(user_id=owner.pk)
    if viewer.pk != owner.pk:
        pairs = pairs.filter(matches_visible_q(viewer, via="match"))
    rows = (
        pairs.values("user_id", "user__username", "bot_level")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(rank__gt=mine)),
            lost=Count("pk", filter=Q(rank__lt=mine)),
            drawn=Count("pk", filter=Q(rank=mine)),
            first=Case(
                When(user_id=viewer.pk, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            ),
        )
        .order_by(
            "first",
            F("bot_level").asc(nulls_first=True),
            "-played",
            "user__username",
        )
    )
    result = Paginator(rows, per_page).get_page(page)
    others_profile = viewer.pk != owner.pk
    result.object_list = [
        HeadToHead(
            username=r["user__username"],
            bot_level=r["bot_level"],
            played=r["played"],
            won=r["won"],
            lost=r["lost"],
            drawn=r["drawn"],
            is_viewer=others_profile and r["user_id"] == viewer.pk,
        )
        for r in result.object_list
    ]
    return result


def user_stats(
    *,
    owner: AbstractBaseUser,
    viewer: AbstractBaseUser,
    head_to_head_page: int = 1,
    per_page: int = HEAD_TO_HEAD_PAGE_SIZE,
) -> UserStats:
    """A profile's figures: per game, the recent form and the head-to-head records.

    Four queries whatever the number of matches (the head-to-head is paginated: its count and
    its page). On someone else's profile every figure covers only matches ``viewer`` may see.
    """
    seats = _seats_of(owner, viewer)
    return UserStats(
        games=_game_stats(seats),
        form=_recent_form(seats),
        head_to_head=_head_to_head(owner, viewer, head_to_head_page, per_page),
    )
