"""The ladder's rules as pure functions (docs/competitions.md, "Ladder"): who may join, who may
challenge whom, and what a result does to the places. No Django, no query: the services apply
them under the ladder's lock, the page asks them for each row's Challenge button or reason.
"""

from __future__ import annotations

from dataclasses import dataclass

# Why a person may not join (the entry gates), in words for them.
JOIN_NO_EMAIL = (
    "Confirm your e-mail address first (your account page): the ladder's challenges are "
    "mailed as well as listed on your notices."
)
JOIN_NOT_OPEN = (
    "On a ladder anyone below you within reach may challenge you: set who may challenge you "
    "to anyone first (your account page, Challenges)."
)

# Why a challenge may not be made, in words for the challenger.
NOT_ON_LADDER = "Join the ladder to challenge."
NOT_ABOVE = "You may only challenge someone above you."
OUT_OF_REACH = "More than {reach} places above you."
ALREADY_OPEN = "A challenge between you is open already."
YOUR_LIMIT = "You have {most} open challenges already, the most at once."
THEIR_LIMIT = "{name} has {most} open challenges already, the most at once."
COOLING = "You challenged {name} less than {days} days ago."
NOT_TAKEN = "{name} does not take challenges from you."
NOT_THERE = "{name} is not on this ladder."


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
    facts: ChallengeFacts, *, reach: int, most_open: int, cooldown_days: float
) -> str | None:
    """Why the challenge may not be made, in words; ``None`` when it may. Checked in this order,
    so the reason given is the one that would still stand after the others were lifted last."""
    name = facts.target_name
    if facts.challenger_place is None:
        return NOT_ON_LADDER
    if facts.target_place is None:
        return NOT_THERE.format(name=name)
    if facts.target_place >= facts.challenger_place:
        return NOT_ABOVE
    if facts.challenger_place - facts.target_place > reach:
        return OUT_OF_REACH.format(reach=reach)
    if facts.refused:
        return NOT_TAKEN.format(name=name)
    if facts.open_between:
        return ALREADY_OPEN
    if facts.cooling:
        return COOLING.format(name=name, days=f"{cooldown_days:g}")
    if facts.challenger_open >= most_open:
        return YOUR_LIMIT.format(most=most_open)
    if facts.target_open >= most_open:
        return THEIR_LIMIT.format(name=name, most=most_open)
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
