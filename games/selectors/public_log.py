"""A match's public move log, as the bots read it (``games.bots.History``).

Every move payload is public: a draw names where it came from, never the card it brought, so
the log may go to any seat's bot. Gulliver's seatless ``next_round`` steps are in it too (the
bots' inference starts afresh at each round).
"""

from __future__ import annotations

from games.bots import History
from games.engines.resignation import is_resignation
from games.models import Match, Move


def public_history(match: Match, *, before_ply: int | None = None) -> History:
    """``(seat, payload)`` of the match's moves in order, those before ``before_ply`` only if
    it is given (ply ``before_ply`` is the move about to be judged)."""
    moves = Move.objects.filter(match_id=match.pk)
    if before_ply is not None:
        moves = moves.filter(ply__lt=before_ply)
    rows = moves.order_by("ply").values_list("seat", "payload")
    # A resignation is no move of the game: the bots never see one (docs/leaving.md).
    return [(seat, payload) for seat, payload in rows if not is_resignation(seat, payload)]
