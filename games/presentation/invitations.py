"""Words for invitations (docs/invitations.md): one line a notice or a seat at a forming table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines import GAME_TITLES

if TYPE_CHECKING:
    from games.selectors.invitations import InvitationItem

STATUS_WORDS = {
    "pending": gettext_lazy("invited, not answered yet"),
    "accepted": gettext_lazy("accepted"),
    "declined": gettext_lazy("declined"),
    "expired": gettext_lazy("did not answer in time"),
    # Ended by a block between the two (``withdrawn``; or declined, before blocks withdrew,
    # while one stands): not "declined", which would name a decision the person may not have
    # made, and no word of a block (docs/accounts.md: a refusal does not tell who blocked whom).
    "withdrawn": gettext_lazy("can no longer be accepted"),
}
# A seat's name while a pending invitation holds it, to those who may not see who is invited.
HELD_FOR_SOMEONE = gettext_lazy("held for an invited player")


def held_for(name: str) -> str:
    """A held seat's name to the match's members: "held for bea (invited)"."""
    return _("held for %(name)s (invited)") % {"name": name}


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
    seat = _("seat %(seat)s of %(count)s") % {
        "seat": item.seat_index + 1,
        "count": item.num_players,
    }
    for_me = item.user_id == reader_id and item.status == "pending"
    rematch = item.kind == "rematch" and item.rematch_of_id is not None
    status = "withdrawn" if item.status == "declined" and item.blocked else item.status
    if for_me and rematch:
        # The match rematched, by its number (the notice links to it); the new table after.
        text = _(
            "%(inviter)s offers a rematch of %(game)s #%(old)s (%(seat)s at the new table"
            " #%(new)s)."
        ) % {
            "inviter": item.inviter_name,
            "game": title,
            "old": item.rematch_of_id,
            "seat": seat,
            "new": item.match_id,
        }
    elif for_me:
        text = _("%(inviter)s challenges you to %(game)s (#%(match)s, %(seat)s).") % {
            "inviter": item.inviter_name,
            "game": title,
            "match": item.match_id,
            "seat": seat,
        }
    else:
        asked = (
            _("rematch offer of #%(old)s") % {"old": item.rematch_of_id}
            if rematch
            else _("challenge")
        )
        who = item.user_name if named else _("An invited player")
        text = _("%(who)s, %(seat)s: %(status)s (%(asked)s, %(game)s #%(match)s).") % {
            "who": who,
            "seat": seat,
            "status": STATUS_WORDS[status],
            "asked": asked,
            "game": title,
            "match": item.match_id,
        }
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
