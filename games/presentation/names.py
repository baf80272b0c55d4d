"""Who is who, in words, worded once for every page and mail: seat names, bot names,
possessives and ordinals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from games.models import BotLevel

OPEN_SEAT = "(open seat)"
ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


class SeatLike(Protocol):
    index: int
    username: str | None
    bot_level: str | None


def bot_name(level: str) -> str:
    """A bot level as a player: "Greedy bot". The one wording of a level: the seats, the
    new-match form and the invitations' bot picker all say it so (``bot_level_choices``)."""
    return f"{BotLevel(level).label} bot"


def bot_level_choices() -> list[tuple[str, str]]:
    """Every bot level with its name, in the levels' order, for a form's or a picker's choices."""
    return [(level.value, bot_name(level.value)) for level in BotLevel]


def seat_name(seat: SeatLike) -> str:
    """A taken seat's name: the person's, or the bot's with its seat number, which keeps two
    bots of one level apart in the log ("Greedy bot 3")."""
    if seat.username is not None:
        return seat.username
    return f"{bot_name(seat.bot_level or '')} {seat.index + 1}"


def seat_names(num_players: int, seats: Iterable[SeatLike]) -> list[str]:
    """Every seat's name by index, "(open seat)" for one nobody has taken yet."""
    taken = {s.index: seat_name(s) for s in seats}
    return [taken.get(i, OPEN_SEAT) for i in range(num_players)]


def opponent_name(username: str | None, bot_level: str | None) -> str:
    """Someone met across tables: a person by name, a bot by its level ("Strong bot")."""
    return username if username is not None else bot_name(bot_level or "")


def possessive(name: str) -> str:
    return f"{name}\u2019s"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``12th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else ORDINAL_SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"
