"""The seats invitations hold at a match being formed (docs/invitations.md): read and marked by
``games.services.matches`` when a seat is taken, by ``games.services.invitations`` otherwise.

A pending invitation whose time has passed holds nothing: it counts as expired the moment it
lapses, whether or not beat's sweep has marked it yet.
"""

from __future__ import annotations

from django.utils import timezone

from games.models import Invitation

PENDING = Invitation.Status.PENDING


def invitations_reserved(*, match_id: int) -> dict[int, int]:
    """Seat index to the invited person, for the match's live pending invitations (one query)."""
    rows = Invitation.objects.filter(
        match_id=match_id, status=PENDING, expires_at__gt=timezone.now()
    ).values_list("seat_index", "user_id")
    return dict(rows)


def invitation_mark_accepted(*, match_id: int, user_id: int) -> int:
    """Mark the person's live pending invitation to the match accepted (inside the seat's
    transaction); how many were marked."""
    now = timezone.now()
    return Invitation.objects.filter(
        match_id=match_id, user_id=user_id, status=PENDING, expires_at__gt=now
    ).update(status=Invitation.Status.ACCEPTED, answered_at=now)
