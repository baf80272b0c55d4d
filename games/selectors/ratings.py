"""Ratings for pages (docs/ratings.md): a finished table's changes, the leaderboard and a
profile's ratings with their charts' points, as numbers (``games.presentation.ratings`` words
and draws them). Each is a fixed number of queries.

A rating and its rated count are public figures (the leaderboard shows them to everyone signed
in). What ties a change to one match (a table's changes, a chart's points) shows only where
that match may be seen: the table is behind ``visible_match``, and a profile's chart keeps to
the matches its viewer may see.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, ExpressionWrapper, F, Q, QuerySet, Value
from django.utils import timezone

from games import skill
from games.engines import get_engine
from games.models import Match, Rating, RatingChange, RatingStatus
from games.selectors.access import matches_visible_q

LEADERBOARD_PAGE_SIZE = 50
LEADERBOARD_MIN_MATCHES = 5
LEADERBOARD_RECENT_DAYS = 90


@dataclass(frozen=True)
class SeatChange:
    """One seat's rating change on a finished table, and its rating after it."""

    seat: int
    delta: int
    ordinal: int
    matches: int  # rated matches after this one


def match_rating_changes(*, match: Match) -> dict[int, SeatChange]:
    """The rating changes of a rated match, by seat: one query, and none for a match that is
    not rated (the status is a column of the match)."""
    if match.rating_status != RatingStatus.RATED:
        return {}
    rows = RatingChange.objects.filter(match_id=match.pk).order_by("seat")
    return {
        r.seat: SeatChange(
            seat=r.seat, delta=r.delta, ordinal=r.ordinal_after, matches=r.matches_after
        )
        for r in rows.only("seat", "ordinal_before", "ordinal_after", "matches_after")
    }


def _conservative() -> F:
    return F("mu") - skill.ORDINAL_Z * F("sigma")


@dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard: a person or a bot level, in place by rating."""

    place: int
    username: str | None
    bot_level: str | None
    ordinal: int
    matches: int
    provisional: bool


def _listing_cutoff(now: datetime.datetime | None) -> datetime.datetime:
    """A listed person's newest rated match finished after this."""
    return (now or timezone.now()) - datetime.timedelta(days=LEADERBOARD_RECENT_DAYS)


def leaderboard_rows(*, game: str, now: datetime.datetime | None = None) -> QuerySet[Rating]:
    """The leaderboard's rows in order: people with at least 5 rated matches, one of them
    finished in the last 90 days, and every rated bot level, best conservative rating first."""
    people = Q(
        user__isnull=False,
        user__is_active=True,  # a deleted account's rating (docs/accounts.md)
        user__closure__isnull=True,  # nor a closed one's
        matches__gte=LEADERBOARD_MIN_MATCHES,
        last_played_at__gte=_listing_cutoff(now),
    )
    bots = Q(bot_level__isnull=False, matches__gt=0)
    return (
        Rating.objects.filter(people | bots, game=game)
        .select_related("user")
        .annotate(conservative=_conservative())
        .order_by("-conservative", "pk")
    )


def leaderboard(*, game: str, page: int = 1, now: datetime.datetime | None = None) -> Page:
    """One page (50 rows) of ``game``'s leaderboard as ``BoardRow``\\ s: two queries (the count
    and the page), whatever the page."""
    paginator = Paginator(leaderboard_rows(game=game, now=now), LEADERBOARD_PAGE_SIZE)
    result = paginator.get_page(page)
    start = result.start_index()
    result.object_list = [
        BoardRow(
            place=start + i,
            username=r.user.username if r.user_id else None,
            bot_level=r.bot_level,
            ordinal=skill.display_ordinal(r.mu, r.sigma),
            matches=r.matches,
            provisional=skill.is_provisional(r.matches),
        )
        for i, r in enumerate(result.object_list)
    ]
    return result


@dataclass(frozen=True)
class OwnStanding:
    """Where a person stands at a game's leaderboard when it does not list them.

    ``ordinal`` is ``None`` before their first rated match. ``matches_needed``: rated matches
    still to play to reach the listing's minimum; ``recent_needed``: they have enough, but none
    finished in the last 90 days, so one more rated match lists them again.
    """

    ordinal: int | None
    matches: int
    provisional: bool
    matches_needed: int
    recent_needed: bool


def leaderboard_own_standing(
    *, game: str, user: AbstractBaseUser, now: datetime.datetime | None = None
) -> OwnStanding | None:
    """``user``'s standing at ``game`` when the leaderboard does not list them, ``None`` when
    it does (by ``leaderboard_rows``'s rule): one query, whether or not they are rated."""
    rating = (
        Rating.objects.filter(game=game, user_id=user.pk)
        .only("mu", "sigma", "matches", "last_played_at")
        .first()
    )
    if rating is None:
        return OwnStanding(
            ordinal=None,
            matches=0,
            provisional=True,
            matches_needed=LEADERBOARD_MIN_MATCHES,
            recent_needed=False,
        )
    needed = max(0, LEADERBOARD_MIN_MATCHES - rating.matches)
    recent = rating.last_played_at is not None and rating.last_played_at >= _listing_cutoff(now)
    if not needed and recent:
        return None
    return OwnStanding(
        ordinal=skill.display_ordinal(rating.mu, rating.sigma),
        matches=rating.matches,
        provisional=skill.is_provisional(rating.matches),
        matches_needed=needed,
        recent_needed=not needed and not recent,
    )


@dataclass(frozen=True)
class ChartPoint:
    """The rating shown after one rated match, and when that match finished."""

    when: datetime.datetime
    ordinal: int


@dataclass(frozen=True)
class GameRating:
    """A person's rating at one game, for the profile, with its chart's points."""

    game: str
    title: str  # the game's title, from its engine
    ordinal: int
    matches: int
    provisional: bool
    deltas: list[int]  # the latest few changes, newest first
    points: list[ChartPoint]  # oldest first


RECENT_CHANGES = 5


def profile_ratings(
    *, user: AbstractBaseUser, viewer: AbstractBaseUser | None = None
) -> list[GameRating]:
    """``user``'s rating at each game they have been rated at, with its chart: one query,
    their rating changes oldest first with the rating rows joined (a person's rating row is
    written with their first change, so every row has one).

    The rating and its rated count are public figures (the leaderboard shows them). The
    chart's points and the latest changes, one per match, come only from the matches
    ``viewer`` may see when the viewer is someone else (``matches_visible_q``), so the
    profile never shows when a private match of others was played, nor how it went.
    """
    visible = (
        Value(True)
        if viewer is None or viewer.pk == user.pk
        else ExpressionWrapper(matches_visible_q(viewer, via="match"), BooleanField())
    )
    changes = (
        RatingChange.objects.filter(rating__user_id=user.pk)
        .annotate(visible=visible)
        .select_related("rating")
        .only(
            "ordinal_before",
            "ordinal_after",
            "rating__game",
            "rating__mu",
            "rating__sigma",
            "rating__matches",
            "match__finished_at",
        )
        .select_related("match")
        .order_by("rating__game", "match__finished_at", "match_id")
    )
    ratings: dict[str, Rating] = {}
    points: dict[str, list[ChartPoint]] = {}
    deltas: dict[str, list[int]] = {}
    for change in changes:
        game = change.rating.game
        ratings.setdefault(game, change.rating)
        points.setdefault(game, [])
        deltas.setdefault(game, [])
        if not change.visible:
            continue
        points[game].append(ChartPoint(when=change.match.finished_at, ordinal=change.ordinal_after))
        deltas[game].append(change.delta)
    return [
        GameRating(
            game=game,
            title=get_engine(game).title,
            ordinal=skill.display_ordinal(r.mu, r.sigma),
            matches=r.matches,
            provisional=skill.is_provisional(r.matches),
            deltas=list(reversed(deltas[game][-RECENT_CHANGES:])),
            points=points[game],
        )
        for game, r in ratings.items()
    ]
