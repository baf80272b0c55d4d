"""The ladder, read as data (docs/competitions.md, "Ladder"): a game's places, its open
challenges, what stands between the reader and the people within reach, the history of places.
Every read is a fixed number of statements, however many people are on the ladder."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.models import ChallengeSetting
from accounts.selectors.relations import blocked_ids
from competitions.models import Ladder, LadderChallenge, LadderEvent, LadderNotice, LadderRung
from games.engines import get_engine
from games.models import Invitation, Match

State = LadderChallenge.State
# How many of the ladder's latest changes its page shows (the history page has them all).
RECENT_EVENTS = 10
HISTORY_PAGE = 50
# A ladder notice stays this long unless its ladder page is opened (as finished matches do).
NOTICE_DAYS = 14


def open_q(now: datetime | None = None) -> Q:
    """A challenge still open: not settled, withdrawn or void, and its match either in play or
    waiting with the challenged person's invitation pending and not lapsed (a decline, a
    lapse or a cancel closes it without a write here)."""
    pending = Invitation.objects.filter(
        match_id=OuterRef("match_id"),
        status=Invitation.Status.PENDING,
        expires_at__gt=now or timezone.now(),
    )
    return Q(state=State.OPEN) & (
        Q(match__status=Match.Status.ACTIVE)
        | (Q(match__status=Match.Status.WAITING) & Exists(pending))
    )


def cooldown() -> timedelta:
    return timedelta(days=float(settings.PARLOUR_LADDER_COOLDOWN_DAYS))


def ladder_get(game: str) -> Ladder | None:
    return Ladder.objects.filter(game=game).first()


@dataclass(frozen=True)
class RungData:
    place: int
    user_id: int
    username: str
    joined_at: datetime


@dataclass(frozen=True)
class ChallengeData:
    id: int
    challenger_id: int
    challenger_name: str
    challenged_id: int
    challenged_name: str
    challenger_place: int  # when it was made
    challenged_place: int
    match_id: int
    begun: bool  # accepted: the match is in play
    invitation_id: int | None  # the challenged person's pending invitation, while waiting
    expires_at: datetime | None
    created_at: datetime


@dataclass(frozen=True)
class EventData:
    kind: str
    user_id: int
    username: str
    other_id: int | None
    other_name: str | None
    from_place: int | None
    to_place: int | None
    match_id: int | None
    at: datetime


@dataclass(frozen=True)
class LadderData:
    """One game's ladder as its page shows it to one reader."""

    game: str
    rungs: list[RungData]
    challenges: list[ChallengeData]  # open ones, oldest first
    open_counts: dict[int, int]  # person -> open challenges, made and received
    viewer_id: int
    viewer_place: int | None
    cooling_ids: set[int]  # people the reader challenged within the cooldown
    refused_ids: set[int]  # people within reach a block or their choice keeps from the reader
    events: list[EventData]  # the latest changes, newest first
    reach: int
    most_open: int
    cooldown_days: float


def ladder_data(*, game: str, viewer_id: int) -> LadderData:
    """The ladder page's data: seven statements whatever the ladder's size."""
    ladder = ladder_get(game)
    rungs = _rungs(ladder)
    challenges = _open_challenges(ladder)
    counts: dict[int, int] = {}
    for c in challenges:
        counts[c.challenger_id] = counts.get(c.challenger_id, 0) + 1
        counts[c.challenged_id] = counts.get(c.challenged_id, 0) + 1
    place = next((r.place for r in rungs if r.user_id == viewer_id), None)
    reach = settings.PARLOUR_LADDER_REACH
    within = [r.user_id for r in rungs if place is not None and place - reach <= r.place < place]
    return LadderData(
        game=game,
        rungs=rungs,
        challenges=challenges,
        open_counts=counts,
        viewer_id=viewer_id,
        viewer_place=place,
        cooling_ids=challenged_recently(ladder, viewer_id),
        refused_ids=(blocked_ids(viewer_id) & set(within)) | _closed_to_challenges(within),
        events=_events(ladder, limit=RECENT_EVENTS),
        reach=reach,
        most_open=settings.PARLOUR_LADDER_OPEN,
        cooldown_days=float(settings.PARLOUR_LADDER_COOLDOWN_DAYS),
    )


def ladder_history(*, game: str, user_id: int | None = None) -> list[EventData]:
    """The ladder's changes of places, newest first (one person's when ``user_id`` is given:
    those they made or that named them as the challenged), at most ``HISTORY_PAGE``."""
    return _events(ladder_get(game), limit=HISTORY_PAGE, user_id=user_id)


def challenged_recently(ladder: Ladder | None, challenger_id: int) -> set[int]:
    """Whom the person challenged on this ladder within the cooldown (one query)."""
    if ladder is None:
        return set()
    since = timezone.now() - cooldown()
    return set(
        LadderChallenge.objects.filter(
            ladder=ladder, challenger_id=challenger_id, created_at__gt=since
        ).values_list("challenged_id", flat=True)
    )


def open_count(ladder: Ladder, user_id: int) -> int:
    """The person's open challenges on this ladder, made and received (one query)."""
    return (
        LadderChallenge.objects.filter(ladder=ladder)
        .filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
        .filter(open_q())
        .count()
    )


def open_between(ladder: Ladder, a_id: int, b_id: int) -> bool:
    return (
        LadderChallenge.objects.filter(ladder=ladder)
        .filter(
            Q(challenger_id=a_id, challenged_id=b_id) | Q(challenger_id=b_id, challenged_id=a_id)
        )
        .filter(open_q())
        .exists()
    )


def open_challenges_of(ladder: Ladder, user_id: int) -> list[LadderChallenge]:
    """The person's open challenges on this ladder, made and received, as rows (to close)."""
    return list(
        LadderChallenge.objects.filter(ladder=ladder, state=State.OPEN)
        .filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
        .select_related("match")
    )


def _rungs(ladder: Ladder | None) -> list[RungData]:
    if ladder is None:
        return []
    rows = (
        LadderRung.objects.filter(ladder=ladder)
        .order_by("position")
        .values_list("position", "user_id", "user__username", "joined_at")
    )
    return [RungData(*row) for row in rows]


def _open_challenges(ladder: Ladder | None) -> list[ChallengeData]:
    if ladder is None:
        return []
    now = timezone.now()
    rows = (
        LadderChallenge.objects.filter(ladder=ladder)
        .filter(open_q(now))
        .select_related("challenger", "challenged", "match")
        .order_by("created_at", "pk")
    )
    found = list(rows)
    invitations = {
        i.match_id: i
        for i in Invitation.objects.filter(
            match_id__in=[c.match_id for c in found if c.match.status == Match.Status.WAITING],
            status=Invitation.Status.PENDING,
        )
    }
    return [
        ChallengeData(
            id=c.pk,
            challenger_id=c.challenger_id,
            challenger_name=c.challenger.get_username(),
            challenged_id=c.challenged_id,
            challenged_name=c.challenged.get_username(),
            challenger_place=c.challenger_place,
            challenged_place=c.challenged_place,
            match_id=c.match_id,
            begun=c.match.status == Match.Status.ACTIVE,
            invitation_id=invitations[c.match_id].pk if c.match_id in invitations else None,
            expires_at=invitations[c.match_id].expires_at if c.match_id in invitations else None,
            created_at=c.created_at,
        )
        for c in found
    ]


def _closed_to_challenges(user_ids: list[int]) -> set[int]:
    """Those of ``user_ids`` who no longer take challenges from anyone (one query; none for
    none). The ladder's entry asked for "anyone"; a person may have changed it since."""
    if not user_ids:
        return set()
    return set(
        ChallengeSetting.objects.filter(user_id__in=user_ids)
        .exclude(who=ChallengeSetting.Who.ANYONE)
        .values_list("user_id", flat=True)
    )


def _events(ladder: Ladder | None, *, limit: int, user_id: int | None = None) -> list[EventData]:
    if ladder is None:
        return []
    rows = LadderEvent.objects.filter(ladder=ladder)
    if user_id is not None:
        rows = rows.filter(Q(user_id=user_id) | Q(other_id=user_id))
    rows = rows.select_related("user", "other", "challenge").order_by("-at", "-pk")[:limit]
    return [_event_data(e) for e in rows]


def _event_data(e: LadderEvent) -> EventData:
    return EventData(
        kind=e.kind,
        user_id=e.user_id,
        username=e.user.get_username(),
        other_id=e.other_id,
        other_name=e.other.get_username() if e.other else None,
        from_place=e.from_place,
        to_place=e.to_place,
        match_id=e.challenge.match_id if e.challenge else None,
        at=e.at,
    )


@dataclass(frozen=True)
class LadderNoticeItem:
    """A climb that moved the reader, for the notices page."""

    game: str
    title: str  # the game's title, from its engine
    event: EventData


def _notices_q(user_id: int) -> Q:
    since = timezone.now() - timedelta(days=NOTICE_DAYS)
    return Q(user_id=user_id, seen_at__isnull=True, event__at__gte=since)


def ladder_notices(user_id: int) -> list[LadderNoticeItem]:
    """The person's unseen ladder notices, newest first (one query, however many)."""
    rows = (
        LadderNotice.objects.filter(_notices_q(user_id))
        .select_related("event__ladder", "event__user", "event__other", "event__challenge")
        .order_by("-event__at", "-pk")
    )
    return [
        LadderNoticeItem(
            game=n.event.ladder.game,
            title=get_engine(n.event.ladder.game).title,
            event=_event_data(n.event),
        )
        for n in rows
    ]


def ladder_notices_rows(user_id: int) -> QuerySet[LadderNotice]:
    """The rows ``ladder_notices`` lists, for the badge's count (read with the other kinds')."""
    return LadderNotice.objects.filter(_notices_q(user_id))


def ladder_export(user_id: int) -> dict[str, Any]:
    """The person's ladders for their "your data" file: their places, the challenges they made
    or received, the changes that name them (three queries). Public facts of matches only."""
    places = LadderRung.objects.filter(user_id=user_id).order_by("ladder__game")
    challenges = (
        LadderChallenge.objects.filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
        .select_related("ladder", "challenger", "challenged")
        .order_by("created_at", "pk")
    )
    events = LadderEvent.objects.filter(Q(user_id=user_id) | Q(other_id=user_id)).select_related(
        "ladder", "user", "other"
    )
    return {
        "places": [
            {"game": r.ladder.game, "place": r.position, "joined_at": r.joined_at.isoformat()}
            for r in places.select_related("ladder")
        ],
        "challenges": [
            {
                "game": c.ladder.game,
                "challenger": c.challenger.get_username(),
                "challenged": c.challenged.get_username(),
                "places_then": [c.challenger_place, c.challenged_place],
                "match": c.match_id,
                "state": c.state,
                "made_at": c.created_at.isoformat(),
            }
            for c in challenges
        ],
        "changes": [
            {
                "game": e.ladder.game,
                "kind": e.kind,
                "who": e.user.get_username(),
                "against": e.other.get_username() if e.other else None,
                "from_place": e.from_place,
                "to_place": e.to_place,
                "at": e.at.isoformat(),
            }
            for e in events.order_by("at", "pk")
        ],
    }
