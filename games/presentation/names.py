"""Who is who, in words, worded once for every page and mail: seat names, bot names and
ordinals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from django.utils.translation import get_language, gettext_lazy, override, pgettext
from django.utils.translation import gettext as _

from games.models import BotLevel

OPEN_SEAT = gettext_lazy("(open seat)")
ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
# Each level as a player's name: the one wording of a level, in the reader's language.
BOT_NAMES = {
    BotLevel.RANDOM: gettext_lazy("Random bot"),
    BotLevel.GREEDY: gettext_lazy("Greedy bot"),
    BotLevel.STRONG: gettext_lazy("Strong bot"),
}


class SeatLike(Protocol):
    index: int
    username: str | None
    bot_level: str | None


def bot_name(level: str) -> str:
    """A bot level as a player: "Greedy bot". The one wording of a level: the seats, the
    new-match form and the invitations' bot picker all say it so (``bot_level_choices``)."""
    return str(BOT_NAMES[BotLevel(level)])


def bot_level_choices() -> list[tuple[str, str]]:
    """Every bot level with its name, in the levels' order, for a form's or a picker's choices."""
    return [(level.value, bot_name(level.value)) for level in BotLevel]


def seat_name(seat: SeatLike) -> str:
    """A taken seat's name: the person's, or the bot's with its seat number, which keeps two
    bots of one level apart in the log ("Greedy bot 3")."""
    if seat.username is not None:
        return seat.username
    return _("%(bot)s %(seat)d") % {"bot": bot_name(seat.bot_level or ""), "seat": seat.index + 1}


def seat_names(num_players: int, seats: Iterable[SeatLike]) -> list[str]:
    """Every seat's name by index, "(open seat)" for one nobody has taken yet."""
    taken = {s.index: seat_name(s) for s in seats}
    return [taken.get(i, str(OPEN_SEAT)) for i in range(num_players)]


def record_seat_names(num_players: int, seats: Iterable[SeatLike]) -> list[str]:
    """The seat names a match record carries: in the site's own language whoever reads it, so
    a record (and its checks) is the same for every reader (records stay language-free)."""
    with override(None):
        return seat_names(num_players, seats)


def opponent_name(username: str | None, bot_level: str | None) -> str:
    """Someone met across tables: a person by name, a bot by its level ("Strong bot")."""
    return username if username is not None else bot_name(bot_level or "")


def ordinal(n: int) -> str:
    """A place as the reader's language writes it: ``1st``, ``2nd``, ``11th``, ``21st`` in
    English, ``1.`` in German, ``1er``, ``2e`` in French."""
    if (get_language() or "en").startswith("en"):
        suffix = "th" if 10 <= n % 100 <= 20 else ORDINAL_SUFFIXES.get(n % 10, "th")
        return f"{n}{suffix}"
    # Translators: a place, "1st" or "2nd"; %(n)d is the number.
    if n == 1:
        return pgettext("ordinal, first place", "%(n)dst") % {"n": n}
    return pgettext("ordinal, second place or later", "%(n)dth") % {"n": n}
