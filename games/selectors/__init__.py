"""Reads for pages, one module a page family: ``access`` (who may see a match), ``lobby``
(lists of matches), ``table`` (one match's table), ``history`` (a person's matches, statistics
and head-to-head), ``replay`` (a frame at any ply, the log in words), ``records`` (a match's
verifiable record). Tables, frames and records come from ``engine.view(state, seat)`` and the
logged events, redacted for that seat, and nothing else."""

from games.selectors.access import (
    match_poll_version,
    match_visible,
    match_visible_or_404,
    matches_visible_q,
)
from games.selectors.lobby import (
    MatchListing,
    lobby_open_matches,
    lobby_watchable_matches,
    user_matches,
    user_matches_page,
)
from games.selectors.table import (
    TableData,
    match_seats,
    match_table,
    match_with_seats,
    seat_of,
)

__all__ = [
    "MatchListing",
    "TableData",
    "lobby_open_matches",
    "lobby_watchable_matches",
    "match_poll_version",
    "match_seats",
    "match_table",
    "match_visible",
    "match_visible_or_404",
    "match_with_seats",
    "matches_visible_q",
    "seat_of",
    "user_matches",
    "user_matches_page",
]
