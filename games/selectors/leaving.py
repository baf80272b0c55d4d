"""What a person may do to leave a match, as data (docs/leaving.md): resign it, cancel it or
leave it, and what resigning would do. Read from the rows a page has already: no query."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engines.resignation import ends_match, resigned_order
from games.models import Match, Seat


@dataclass(frozen=True)
class LeaveOptions:
    """``may_resign``: a seated person who has not resigned, at a match in play;
    ``resign_ends``: their resignation would end the match now (at most one seat, or no
    person, left playing); ``may_cancel``: the creator of a waiting match; ``may_leave``: a
    seated person other than the creator at a waiting match (or the creator of a Play now table
    others sit at: docs/quick-match.md). ``resigned``: while the match is
    in play, the seats that resigned, in order; ``playing``: the seats still playing once the
    viewer resigned."""

    may_resign: bool = False
    resign_ends: bool = False
    may_cancel: bool = False
    may_leave: bool = False
    cancelled: bool = False
    resigned: tuple[int, ...] = ()
    playing: tuple[int, ...] = ()


def leave_options(*, match: Match, seats: Sequence[Seat], user_id: int | None) -> LeaveOptions:
    """What the person ``user_id`` (``None``: nobody signed in) may do to leave ``match``
    (``seats``: its seats, already read)."""
    resigned = tuple(resigned_order({s.index: s.resigned_ply for s in seats}))
    seat = next((s for s in seats if user_id is not None and s.user_id == user_id), None)
    creator = user_id is not None and match.created_by_id == user_id
    waiting = match.status == Match.Status.WAITING
    if match.status == Match.Status.CANCELLED:
        return LeaveOptions(cancelled=True)
    if waiting:
        # Play now's table is left to the others seated at it, not called off under them.
        handed_on = match.quick and any(s.user_id not in (None, user_id) for s in seats)
        hands = creator and seat is not None and handed_on
        return LeaveOptions(
            may_cancel=creator and not hands, may_leave=seat is not None and (hands or not creator)
        )
    if match.status != Match.Status.ACTIVE:
        return LeaveOptions()  # over: the log and the result tell who resigned
    if seat is None or seat.resigned_ply is not None:
        return LeaveOptions(resigned=resigned)
    after = [*resigned, seat.index]
    people = {s.index for s in seats if s.user_id is not None}
    return LeaveOptions(
        may_resign=True,
        resign_ends=ends_match(num_players=match.num_players, resigned=after, people=people),
        resigned=resigned,
        playing=tuple(i for i in range(match.num_players) if i not in after),
    )
