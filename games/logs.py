"""One logged entry of a match as pages read it: who made it, its events already redacted for
the reader, and whether the server made it for them. Pure data, shared by the selectors that
read the log and the presentation that words it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LogEntry:  # one logged Move, oldest first
    seat: int | None
    events: list[dict]  # that move's events, ALREADY redacted for the viewer
    auto: str = ""  # Move.auto: "" chosen, "deadline", "vote_closed"
    ply: int = 0  # Move.ply (the deal's events: 0); table phrases said at this ply follow it


# The table shows the latest events only: a long match has thousands, and every poll renders
# them. The table's read takes this many newest entries, which holds at least as many events.
EVENT_LOG_LENGTH = 60
