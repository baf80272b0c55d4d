"""Invitations as data (docs/invitations.md): what awaits a person's answer, what became of the
invitations they sent, a forming match's invitations, and a finished match's rematch.

A pending invitation past its time reads as expired here, whether or not beat's sweep has
marked it yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.models import Block, Follow
from games.models import Invitation, Match, Seat

Status = Invitation.Status


@dataclass(frozen=True)
class InvitationItem:
    id: int
    match_id: int
    game: str
    kind: str
    status: str
    seat_index: int
    num_players: int
    user_id: int
    user_name: str
    inviter_id: int
    inviter_name: str
    expires_at: datetime
    # The finished match a rematch offer replays (its new table is ``match_id``).
    rematch_of_id: int | None = None
    # A block stands between the two now: an invitation declined before a block withdrew it
    # (``Status.WITHDRAWN``, since) is worded as ended, not as declined by the person.
    blocked: bool = False


@dataclass(frozen=True)
class RematchFacts:
    match_id: int
    status: str
    # Whether the reader holds a live invitation to it (only then is there a rematch to accept).
    invited: bool = False


def _notice_q(user_id: int) -> Q:
    """Invitations awaiting ``user_id``'s answer, and those they sent that were declined or
    lapsed while the match still waits (so the inviter is told, and fills the seat)."""
    now = timezone.now()
    awaiting = Q(user_id=user_id, status=Status.PENDING, expires_at__gt=now)
    answered = Q(invited_by_id=user_id, match__status=Match.Status.WAITING) & (
        Q(status__in=[Status.DECLINED, Status.EXPIRED, Status.WITHDRAWN])
        | Q(status=Status.PENDING, expires_at__lte=now)
    )
    return awaiting | answered


def _blocked() -> Exists:
    """Whether a block stands between an invitation's two people, either way."""
    return Exists(
        Block.objects.filter(
            Q(blocker_id=OuterRef("user_id"), blocked_id=OuterRef("invited_by_id"))
            | Q(blocker_id=OuterRef("invited_by_id"), blocked_id=OuterRef("user_id"))
        )
    )


def invitations_pending(user_id: int) -> list[InvitationItem]:
    """The person's notices of invitations (one query, however many)."""
    rows = (
        Invitation.objects.filter(_notice_q(user_id))
        .annotate(blocked=_blocked())
        .select_related("match", "user", "invited_by")
        .order_by("expires_at", "pk")
    )
    return [_item(row) for row in rows]


def invitations_pending_count(user_id: int) -> int:
    """How many ``invitations_pending`` lists (one query)."""
    return invitations_pending_rows(user_id).count()


def invitations_pending_rows(user_id: int) -> QuerySet[Invitation]:
    """The rows ``invitations_pending`` lists, for a count read with others (the badge)."""
    return Invitation.objects.filter(_notice_q(user_id))


def match_invitations(match_id: int) -> list[InvitationItem]:
    """A forming match's invitations, newest last (one query)."""
    rows = (
        Invitation.objects.filter(match_id=match_id)
        .annotate(blocked=_blocked())
        .select_related("match", "user", "invited_by")
        .order_by("created_at", "pk")
    )
    return [_item(row) for row in rows]


def invited_to(*, match_id: int, user_id: int) -> bool:
    """Whether the person holds a live invitation to the match (one query)."""
    return Invitation.objects.filter(
        match_id=match_id, user_id=user_id, status=Status.PENDING, expires_at__gt=timezone.now()
    ).exists()


def rematch_of(match_id: int, reader_id: int | None = None) -> RematchFacts | None:
    """The rematch offered from a finished match, if any, and whether ``reader_id`` holds a
    live invitation to it (one query)."""
    invited = Invitation.objects.filter(
        match_id=OuterRef("pk"),
        user_id=reader_id,
        status=Status.PENDING,
        expires_at__gt=timezone.now(),
    )
    row = (
        Match.objects.filter(rematch_of_id=match_id)
        .annotate(invited=Exists(invited))
        .values_list("pk", "status", "invited")
        .first()
    )
    return RematchFacts(match_id=row[0], status=row[1], invited=row[2]) if row else None


def _item(row: Invitation) -> InvitationItem:
    status = row.status
    if status == Status.PENDING and row.expires_at <= timezone.now():
        status = Status.EXPIRED
    return InvitationItem(
        id=row.pk,
        match_id=row.match_id,
        game=row.match.game,
        kind=row.kind,
        status=status,
        seat_index=row.seat_index,
        num_players=row.match.num_players,
        user_id=row.user_id,
        user_name=row.user.get_username(),
        inviter_id=row.invited_by_id,
        inviter_name=row.invited_by.get_username(),
        expires_at=row.expires_at,
        rematch_of_id=row.match.rematch_of_id,
        blocked=bool(getattr(row, "blocked", False)),
    )


@dataclass(frozen=True)
class HeldSeat:
    """A seat of a forming match held for the person invited to it, until they answer."""

    index: int
    user_id: int
    username: str


def held_seats(match_id: int) -> list[HeldSeat]:
    """The seats live pending invitations hold at a forming match, by index (one query)."""
    rows = (
        Invitation.objects.filter(
            match_id=match_id, status=Status.PENDING, expires_at__gt=timezone.now()
        )
        .order_by("seat_index")
        .values_list("seat_index", "user_id", "user__username")
    )
    return [HeldSeat(index, user, name) for index, user, name in rows]


def challenge_candidates(user_id: int) -> list[str]:
    """Names for the new-match form's challenge seats: the person's friends, then the people
    they have played with (one query each), without repeats, blocked people left out."""
    users = get_user_model().objects.filter(is_active=True).exclude(pk=user_id)
    blocked = Block.objects.filter(
        Q(blocker_id=user_id, blocked_id=OuterRef("pk"))
        | Q(blocked_id=user_id, blocker_id=OuterRef("pk"))
    )
    users = users.exclude(Exists(blocked))
    back = Follow.objects.filter(follower_id=OuterRef("pk"), followed_id=user_id)
    friends = list(
        users.filter(follows_in__follower_id=user_id)
        .filter(Exists(back))
        .order_by("username")
        .values_list("username", flat=True)[:CANDIDATES]
    )
    met = Seat.objects.filter(
        user_id=user_id,
        match__seats__user_id=OuterRef("pk"),
        match__status__in=[Match.Status.ACTIVE, Match.Status.FINISHED],
    )
    played = users.filter(Exists(met)).order_by("username").values_list("username", flat=True)
    named = set(friends)
    return friends + [n for n in played[:CANDIDATES] if n not in named]


CANDIDATES = 200  # a choice list, not a directory
