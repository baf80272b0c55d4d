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
    # Ended by a block between the two (``withdrawn``; or declined, before blocks withdrew,
    # while one stands): not "declined", which would name a decision the person may not have
    # made, and no word of a block (docs/accounts.md: a refusal does not tell who blocked whom).
    "withdrawn": "can no longer be accepted",
}
# A seat's name while a pending invitation holds it, to those who may not see who is invited.
HELD_FOR_SOMEONE = "held for an invited player"


def held_for(name: str) -> str:
    """A held seat's name to the match's members: "held for bea (invited)"."""
    return f"held for {name} (invited)"


@dataclass(frozen=True)
class InvitationLine:
    id: int
    match_id: int
    text: str
    for_me: bool  # the reader is the one invited: Accept / Decline / Block
    expires_at: datetime | None
    status: str
    rematch_of_id: int | None = None  # a rematch offer: the finished match it replays
    title: str = ""  # the game's title


def invitation_lines(
    items: list[InvitationItem], reader_id: int, *, named: bool = True
) -> list[InvitationLine]:
    """The lines for ``reader_id``; ``named=False`` (a reader who is not a member of the
    forming match: neither its creator, seated nor invited) leaves the invited people's names
    out."""
    return [_line(item, reader_id, named) for item in items]


def _line(item: InvitationItem, reader_id: int, named: bool = True) -> InvitationLine:
    title = GAME_TITLES.get(item.game, item.game)
    seat = f"seat {item.seat_index + 1} of {item.num_players}"
    for_me = item.user_id == reader_id and item.status == "pending"
    rematch = item.kind == "rematch" and item.rematch_of_id is not None
    status = "withdrawn" if item.status == "declined" and item.blocked else item.status
    if for_me and rematch:
        # The match rematched, by its number (the notice links to it); the new table after.
        text = (
            f"{item.inviter_name} offers a rematch of {title} #{item.rematch_of_id} "
            f"({seat} at the new table #{item.match_id})."
        )
    elif for_me:
        text = f"{item.inviter_name} challenges you to {title} (#{item.match_id}, {seat})."
    else:
        asked = f"rematch offer of #{item.rematch_of_id}" if rematch else "challenge"
        who = item.user_name if named else "An invited player"
        text = f"{who}, {seat}: {STATUS_WORDS[status]} ({asked}, {title} #{item.match_id})."
    pending = item.status == "pending"
    return InvitationLine(
        id=item.id,
        match_id=item.match_id,
        text=text,
        for_me=for_me,
        expires_at=item.expires_at if pending else None,
        status=status,
        rematch_of_id=item.rematch_of_id if item.kind == "rematch" else None,
        title=title,
    )
