"""The competitions' rows, one module a competition (the ladder: ``competitions.models.ladder``)."""

from competitions.models.ladder import (
    Ladder,
    LadderChallenge,
    LadderEvent,
    LadderNotice,
    LadderRung,
)

__all__ = ["Ladder", "LadderChallenge", "LadderEvent", "LadderNotice", "LadderRung"]
