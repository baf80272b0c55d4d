"""The phrases a seated person may say at the table (docs/phrases.md): the six every game
shares, then the game's own (``Engine.table_phrases``). Keys are stored; words are shown. No
free text, ever."""

from __future__ import annotations

from games.engines import get_engine

COMMON_PHRASES: tuple[tuple[str, str], ...] = (
    ("good_luck", "Good luck"),
    ("well_played", "Well played"),
    ("thanks", "Thanks"),
    ("oops", "Oops"),
    ("your_turn", "Your turn!"),
    ("good_game", "Good game"),
)

# How often one person may speak at one table: at most this many phrases a minute.
PHRASES_PER_MINUTE = 3


def game_phrases(game: str) -> tuple[tuple[str, str], ...]:
    """Every phrase of ``game``'s table as (key, words), the common ones first."""
    return COMMON_PHRASES + tuple(get_engine(game).table_phrases)


def phrase_words(game: str, key: str) -> str:
    """The words of ``key`` at ``game``'s table ("" for a key not on its list)."""
    return dict(game_phrases(game)).get(key, "")
