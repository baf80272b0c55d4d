"""The Faraway Tree pack as data: every name, flavour line and penalty length lives here.

Codes follow docs/rulings.md: story cards are ``"1"``..``"9"``, penalties ``"P2"``..``"P8"``
(two P8s). The engine reads only this module for card facts, so a reprint with different
penalty lengths is a change of data, not of code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class StoryCard:
    code: str
    number: int
    name: str
    flavour: str


@dataclass(frozen=True)
class PenaltyCard:
    code: str
    number: int  # goes on an opponent whose highest story card bears this number
    turns_missed: int
    flavour: str


STORY_CARDS: tuple[StoryCard, ...] = (
    StoryCard("1", 1, "The Enchanted Wood", "The trees whisper wisha-wisha as you step in."),
    StoryCard("2", 2, "The Faraway Tree", "Its branches climb right up into the clouds."),
    StoryCard("3", 3, "The Angry Pixie", "Peep through his window and you will get wet."),
    StoryCard("4", 4, "Dame Washalot", "Her soapy water comes sloshing down the trunk."),
    StoryCard("5", 5, "Mr Watzisname", "He snores on his branch and cannot recall his name."),
    StoryCard("6", 6, "Silky", "The golden-haired elf shares her Pop Biscuits."),
    StoryCard("7", 7, "The Saucepan Man", "Clank, clatter, jingle: he never hears you right."),
    StoryCard("8", 8, "Moon-Face", "His round room has a slippery-slip all the way down."),
    StoryCard(
        "9", 9, "The Land of Birthdays", "Up the ladder through the cloud, where wishes come true."
    ),
)

PENALTY_CARDS: tuple[PenaltyCard, ...] = (
    PenaltyCard("P2", 2, 1, "Lost among the branches of the great tree."),
    PenaltyCard("P3", 3, 1, "Caught peeping in at the Angry Pixie."),
    PenaltyCard("P4", 4, 1, "Soaked by Dame Washalot's washing water."),
    PenaltyCard("P5", 5, 1, "Kept waiting while Mr Watzisname snores."),
    PenaltyCard("P6", 6, 2, "Too many Pop Biscuits at Silky's house."),
    PenaltyCard("P7", 7, 2, "Tangled up in the Saucepan Man's kettles."),
    PenaltyCard("P8", 8, 2, "Whooshed down the slippery-slip to the bottom."),
    PenaltyCard("P8", 8, 2, "Whooshed down the slippery-slip to the bottom."),
)

COPIES_OF_EACH_STORY_CARD = 4
HAND_SIZE = 6
WINNING_NUMBER = 9
TURN_CAP = 2000  # played turns before a match is called a draw (docs/rulings.md safety net)

STORY_BY_CODE: dict[str, StoryCard] = {c.code: c for c in STORY_CARDS}
PENALTY_BY_CODE: dict[str, PenaltyCard] = {c.code: c for c in PENALTY_CARDS}

# The pack in a fixed reference order; shuffles start from this so a seed means one order.
PACK: tuple[str, ...] = tuple(
    c.code for c in STORY_CARDS for _ in range(COPIES_OF_EACH_STORY_CARD)
) + tuple(c.code for c in PENALTY_CARDS)

# The same facts flattened into plain lookups, for the engine's hot path and the bots' rollouts
# (one dict lookup instead of a dataclass attribute, or of parsing a code). Read-only by
# convention: the engine and the bots share these very objects.
PACK_COUNTS: Counter[str] = Counter(PACK)  # code -> copies in the pack, in ``PACK`` order
STORY_CODES: tuple[str, ...] = tuple(c.code for c in STORY_CARDS)  # lowest first
STORY_NUMBER: dict[str, int] = {c.code: c.number for c in STORY_CARDS}
STORY_CODE: dict[int, str] = {c.number: c.code for c in STORY_CARDS}  # number -> code
PENALTY_NUMBER: dict[str, int] = {c.code: c.number for c in PENALTY_CARDS}
PENALTY_CODE: dict[int, str] = {c.number: c.code for c in PENALTY_CARDS}  # number -> code
PENALTY_TURNS: dict[str, int] = {c.code: c.turns_missed for c in PENALTY_CARDS}


def card_name(code: str) -> str:
    """A player-facing name: "3 The Angry Pixie" or "Penalty P3"."""
    if code in STORY_BY_CODE:
        return f"{code} {STORY_BY_CODE[code].name}"
    if code in PENALTY_BY_CODE:
        return f"Penalty {code}"
    raise KeyError(code)
