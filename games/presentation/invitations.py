"""Words for invitations (docs/invitations.md): one line a notice or a seat at a forming table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from games.engines import GAME_TITLES

if TYPE_CHECKING:
    from games.selectors.invitations import InvitationItem

STATUS_WORDS = {
    "pending": "invited, not answered yet",
    "accepted": "accepted",
    "declined": "declined",
    "expired": "did not answer in time",
}


@dataclass(frozen=True)
class InvitationLine:
    id: int
    match_id: int
    text: str
    for_me: bool  # the reader is the one invited: Accept / Decline / Block
    expires_at: datetime | None
    status: str


def invitation_lines(items: list[InvitationItem], reader_id: int) -> list[InvitationLine]:
    return [_line(item, reader_id) for item in items]


def _line(item: InvitationItem, reader_id: int) -> InvitationLine:
    title = GAME_TITLES.get(item.game, item.game)
    seat = f"seat {item.seat_index + 1} of {item.num_players}"
    for_me = item.user_id == reader_id and item.status == "pending"
    if for_me:
        what = "offers a rematch of" if item.kind == "rematch" else "challenges you to"
        text = f"{item.inviter_name} {what} {title} (#{item.match_id}, {seat})."
    else:
        asked = "rematch offer" if item.kind == "rematch" else "challenge"
        text = (
            f"{item.user_name}, {seat}: {STATUS_WORDS[item.status]} ({asked}, "
            f"{title} #{item.match_id})."
        )
    pending = item.status == "pending"
    return InvitationLine(
        id=item.id,
        match_id=item.match_id,
        text=text,
        for_me=for_me,
        expires_at=item.expires_at if pending else None,
        status=item.status,
    )
