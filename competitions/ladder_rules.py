"""The ladder's rules as pure functions (docs/competitions.md, "Ladder"): who may join, who may
challenge whom, and what a result does to the places. No Django, no query: the services apply
them under the ladder's lock, the page asks them for each row's Challenge button or reason.

The words are English, marked for the catalogues with a local ``gettext_noop`` (no framework
here); whoever shows them words them in the reader's language: ``challenge_refusal`` takes the
caller's ``gettext``, and the services hand the entry gates' words to ``gettext`` themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def gettext_noop(words: str) -> str:
    """Marks ``words`` for the catalogues (makemessages knows the name); they stay as written."""
    return words


# Why a person may not join (the entry gates), in words for them.
JOIN_NO_EMAIL = gettext_noop(
    "Confirm your e-mail address first (your account page): the ladder's challenges are "
    "mailed as well as listed on your notices."
)
JOIN_NOT_OPEN = gettext_noop(
    "On a ladder anyone below you within reach may challenge you: set who may challenge you "
    "to anyone first (your account page, Challenges)."
)

# Why a challenge may not be made, in words for the challenger.
NOT_ON_LADDER = gettext_noop("Join the ladder to challenge.")
NOT_ABOVE = gettext_noop("You may only challenge someone above you.")
OUT_OF_REACH = gettext_noop("More than %(reach)s places above you.")
ALREADY_OPEN = gettext_noop("A challenge between you is open already.")
YOUR_LIMIT = gettext_noop("You have %(most)s open challenges already, the most at once.")
THEIR_LIMIT = gettext_noop("%(name)s has %(most)s open challenges already, the most at once.")
COOLING = gettext_noop("You challenged %(name)s less than %(days)s days ago.")
NOT_TAKEN = gettext_noop("%(name)s does not take challenges from you.")
NOT_THERE = gettext_noop("%(name)s is not on this ladder.")


@dataclass(frozen=True)
class ChallengeFacts:
    """What the rule needs about a challenger and a target, read beforehand."""

    challenger_place: int | None  # None: not on the ladder
    target_place: int | None  # None: not on the ladder
    target_name: str
    challenger_open: int  # open challenges, made and received
    target_open: int
    open_between: bool  # an open challenge between the two, either way
    cooling: bool  # the challenger challenged the target within the cooldown
    refused: bool  # a block between them, or the target takes no challenge from them


def challenge_refusal(
    facts: ChallengeFacts,
    *,
    reach: int,
    most_open: int,
    cooldown_days: float,
    words: Callable[[str], str] = gettext_noop,
) -> str | None:
    """Why the challenge may not be made, in words (``words``: the caller's ``gettext``, English
    without one); ``None`` when it may. Checked in this order, so the reason given is the one
    that would still stand after the others were lifted last."""
    name = facts.target_name
    if facts.challenger_place is None:
        return words(NOT_ON_LADDER)
    if facts.target_place is None:
        return words(NOT_THERE) % {"name": name}
    if facts.target_place >= facts.challenger_place:
        return words(NOT_ABOVE)
    if facts.challenger_place - facts.target_place > reach:
        return words(OUT_OF_REACH) % {"reach": reach}
    if facts.refused:
        return words(NOT_TAKEN) % {"name": name}
    if facts.open_between:
        return words(ALREADY_OPEN)
    if facts.cooling:
        return words(COOLING) % {"name": name, "days": f"{cooldown_days:g}"}
    if facts.challenger_open >= most_open:
        return words(YOUR_LIMIT) % {"most": most_open}
    if facts.target_open >= most_open:
        return words(THEIR_LIMIT) % {"name": name, "most": most_open}
    return None


@dataclass(frozen=True)
class Shift:
    """What a result does to the places: rows ``first``..``last`` move down one and the
    challenger goes from ``last + 1`` to ``first``. ``None`` from ``result_shift``: nothing."""

    first: int
    last: int


def result_shift(
    *, challenger_won: bool, challenger_place: int, challenged_place: int
) -> Shift | None:
    """The common ladder rule: a challenger who wins takes the challenged person's place, and
    everyone from that place down to the challenger's old one moves down one (not a straight
    swap, which would drop the people between below the loser). A draw or a loss moves nobody,
    and so does a win by someone already above (the places changed meanwhile)."""
    if not challenger_won or challenged_place >= challenger_place:
        return None
    return Shift(first=challenged_place, last=challenger_place - 1)
