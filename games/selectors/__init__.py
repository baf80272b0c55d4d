"""Reads for pages, one module a page family: ``lobby`` (lists of matches), ``table`` (one
match's table). Table contexts come from ``engine.view(state, seat)`` and the logged events,
redacted for that seat, and nothing else."""

from games.selectors.lobby import MatchListing, lobby_open_matches, user_matches
from games.selectors.table import (
    match_seats,
    match_table_context,
    match_version,
    seat_for_user,
    seat_of,
)

__all__ = [
    "MatchListing",
    "lobby_open_matches",
    "match_seats",
    "match_table_context",
    "match_version",
    "seat_for_user",
    "seat_of",
    "user_matches",
]
