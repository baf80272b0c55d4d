"""The Faraway Tree in words: card faces, move labels, event lines and the table.

Card facts come from ``games.engines.faraway_cards``; who a penalty would hit comes from the
view's ``penalty_victims`` (the engine decides it, docs/rulings.md), never from a rule here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import faraway_cards

from .common import (
    CardSlot,
    GameBuilder,
    and_join,
    attach,
    cards_text,
    first_slot,
    generic_event_line,
    more_turns_text,
    seat_name,
    table_common,
    turns_text,
)

if TYPE_CHECKING:
    from games.logs import LogEntry

CARD_TEMPLATE = "games/_card_faraway.html"
UNDERLINED_CSS = "corner underlined"
# How each digit reads turned half round (2, 3, 4, 5 and 7 read as no digit).
_TURNED_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def corner_css(number: int) -> str:
    """The class of a card corner printing ``number``: underlined when the number turned upside
    down reads as another one (a 6 and a 9), as printed cards mark them."""
    digits = str(number)
    turned = "".join(_TURNED_DIGITS.get(d, "?") for d in reversed(digits))
    ambiguous = "?" not in turned and turned != digits and not turned.startswith("0")
    return UNDERLINED_CSS if ambiguous else "corner"


def face(code: str) -> dict[str, Any]:
    """What ``_card_faraway.html`` prints for one card, as finished strings."""
    story = faraway_cards.STORY_BY_CODE.get(code)
    if story is not None:
        return {
            "code": code,
            "template": CARD_TEMPLATE,
            "css": f"card fw fw-story fw-n{story.number}",
            "corner_css": corner_css(story.number),
            "name": story.name,
            "flavour": story.flavour,
            "aria_label": f"{story.number} {story.name}",
        }
    penalty = faraway_cards.PENALTY_BY_CODE[code]
    turns = turns_text(penalty.turns_missed)
    return {
        "code": code,
        "template": CARD_TEMPLATE,
        "css": f"card fw fw-penalty fw-n{penalty.number}",
        "corner_css": corner_css(penalty.number),
        "name": _("Miss %(turns)s") % {"turns": turns},
        "flavour": penalty.flavour,
        "aria_label": _("Penalty %(code)s: on a %(number)s, miss %(turns)s")
        % {"code": code, "number": penalty.number, "turns": turns},
    }


def card_name(code: str | None) -> str:
    """A card by its printed name (the Faraway Tree's names stay as printed), or "a card"."""
    if code is None:
        return _("a card")
    return faraway_cards.card_name(code)


def move_label(move: dict[str, Any], view: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """(short label beside the card, the whole move in words)."""
    kind = move.get("type")
    card = card_name(move.get("card"))
    if kind == "draw" and move.get("source") == "pack":
        text = _("Draw two from the pack") if move.get("count") == 2 else _("Draw from the pack")
        return text, text
    if kind == "draw":
        cards = [card_name(view["discards"][p]) for p in move.get("positions", [])]
        return _("Take"), _("Take %(cards)s from the discards") % {"cards": and_join(cards)}
    if kind == "play":
        return _("Lay it"), _("Lay %(card)s") % {"card": card}
    if kind == "penalty":
        victim = (view.get("penalty_victims") or {}).get(move.get("card"))
        if victim is None:
            return _("Penalty"), _("Play %(card)s") % {"card": card}
        on = {"card": card, "name": seat_name(names, victim)}
        return _("Penalty on %(name)s") % on, _("Play %(card)s on %(name)s") % on
    if kind == "discard":
        return _("Discard"), _("Discard %(card)s") % {"card": card}
    return json.dumps(move), json.dumps(move)


def _hand_slot(hand: list[CardSlot], move: dict[str, Any]) -> int | None:
    if move.get("type") in {"play", "penalty", "discard"}:
        return first_slot(hand, move.get("card"))
    return None


def _penalty_badge(penalty: dict[str, Any] | None) -> dict[str, Any] | None:
    if penalty is None:
        return None
    left = more_turns_text(penalty["turns_left"])
    text = _("%(card)s: misses %(turns)s") % {"card": penalty["card"], "turns": left}
    return {"code": penalty["card"], "text": text}


def table(view: dict[str, Any], names: list[str], log: Sequence[LogEntry]) -> dict[str, Any]:
    """The Faraway table for one view: the hand and the discards carry their moves, the rest
    of the legal moves go to the bar. Every fact it shows is in the view, so ``log`` is unused."""
    result = table_common(view, names)
    hand = [CardSlot(face(code)) for code in view.get("hand") or []]
    discards = [CardSlot(face(code)) for code in view.get("discards") or []]

    def label(move: dict[str, Any]) -> tuple[str, str]:
        return move_label(move, view, names)

    legal = list(view.get("legal_moves") or [])
    discard_draws = [
        m for m in legal if m.get("type") == "draw" and len(m.get("positions") or []) == 1
    ]
    rest = [m for m in legal if m not in discard_draws]
    attach(discard_draws, discards, lambda m: m["positions"][0], label, where="discard")
    result["bar_moves"] = attach(rest, hand, lambda m: _hand_slot(hand, m), label)
    # A click on the pack draws from it when the bar offers that draw (static/js/why_not.js).
    result["pack_move"] = next(
        (b.json for b in result["bar_moves"] if b.move.get("source") == "pack"), None
    )
    result["hand"] = hand
    result["discards"] = discards
    result["discard_count"] = view.get("discard_count", 0)
    result["pack_count"] = view.get("pack_count", 0)
    rows = view.get("rows") or [[] for _ in names]
    penalties = view.get("penalties") or [None for _ in names]
    final_hands = view.get("hands")
    for player in result["players"]:
        i = player["index"]
        player["row"] = [face(code) for code in rows[i]]
        player["penalty"] = _penalty_badge(penalties[i])
        player["final_hand"] = (
            [face(code) for code in final_hands[i]] if final_hands is not None else None
        )
    return result


def _deal_line(event: dict[str, Any], names: list[str], who: str) -> str:
    dealer = seat_name(names, event.get("dealer"))
    return _("%(dealer)s dealt %(count)d cards to each player.") % {
        "dealer": dealer,
        "count": faraway_cards.HAND_SIZE,
    }


def _hand_line(event: dict[str, Any], names: list[str], who: str) -> str:
    cards = event.get("cards")
    if cards is None:
        return ""  # another seat's deal: nothing public to say beyond the deal itself
    return _("%(name)s was dealt %(cards)s.") % {
        "name": who,
        "cards": ", ".join(card_name(c) for c in cards),
    }


def _draw_line(event: dict[str, Any], names: list[str], who: str) -> str:
    cards = event.get("cards")
    if event.get("source") == "pack":
        if cards is None:
            if event.get("count", 1) == 2:
                return _("%(name)s drew two cards from the pack.") % {"name": who}
            return _("%(name)s drew from the pack.") % {"name": who}
        shown = and_join([card_name(c) for c in cards])
        return _("%(name)s drew %(cards)s from the pack.") % {"name": who, "cards": shown}
    shown = and_join([card_name(c) for c in cards or []]) or card_name(None)
    return _("%(name)s drew %(cards)s from the discards.") % {"name": who, "cards": shown}


def _penalty_line(event: dict[str, Any], names: list[str], who: str) -> str:
    victim = seat_name(names, event.get("victim"))
    story = faraway_cards.STORY_BY_CODE.get(str(event.get("on")))
    on = story.name.removeprefix("The ") if story else str(event.get("on"))  # i18n: data
    turns = turns_text(int(event.get("turns") or 0))
    return _("%(name)s played %(card)s on %(victim)s's %(on)s: %(victim)s misses %(turns)s.") % {
        "name": who,
        "card": event.get("card"),
        "victim": victim,
        "on": on,
        "turns": turns,
    }


def _reshuffle_line(event: dict[str, Any], names: list[str], who: str) -> str:
    return _("Reshuffled: %(cards)s; %(card)s turned up.") % {
        "cards": cards_text(int(event.get("count") or 0)),
        "card": card_name(event.get("up")),
    }


def _miss_line(event: dict[str, Any], names: list[str], who: str) -> str:
    left = int(event.get("turns_left") or 0)
    facts = {"name": who, "card": event.get("card"), "turns": more_turns_text(left)}
    if left:
        return _("%(name)s missed a turn (%(card)s, %(turns)s to miss).") % facts
    return _("%(name)s missed a turn (%(card)s).") % facts


def _turn_cap_line(event: dict[str, Any], names: list[str], who: str) -> str:
    count = int(event.get("turns") or 0)
    return ngettext(
        "%(count)d turn played without a winner: the match is a draw.",
        "%(count)d turns played without a winner: the match is a draw.",
        count,
    ) % {"count": count}


_LINES = {
    "deal": _deal_line,
    "hand": _hand_line,
    "turn_up": lambda event, names, who: (
        _("%(card)s was turned up to start the discards.") % {"card": card_name(event.get("card"))}
    ),
    "draw": _draw_line,
    "play": lambda event, names, who: (
        _("%(name)s laid %(card)s.") % {"name": who, "card": card_name(event.get("card"))}
    ),
    "win": lambda event, names, who: (
        _("%(name)s reached the Land of Birthdays and wins!") % {"name": who}
    ),
    "penalty": _penalty_line,
    "discard": lambda event, names, who: (
        _("%(name)s discarded %(card)s.") % {"name": who, "card": card_name(event.get("card"))}
    ),
    "reshuffle": _reshuffle_line,
    "miss": _miss_line,
    "aside": lambda event, names, who: (
        _("%(name)s has served %(card)s; it is put aside.")
        % {"name": who, "card": event.get("card")}
    ),
    "no_draw": lambda event, names, who: (
        _("%(name)s could not draw: there was no card to be had.") % {"name": who}
    ),
    "turn_cap": _turn_cap_line,
}


def event_line(event: dict[str, Any], names: list[str]) -> str:
    """One log line in words, from an event as the viewing seat received it ("" when the event
    has nothing to tell this seat)."""
    line_of = _LINES.get(str(event.get("type")))
    if line_of is None:
        return generic_event_line(event, names)
    return line_of(event, names, seat_name(names, event.get("seat")))


BUILDER = GameBuilder(
    table=table,
    event_line=event_line,
    board_template="games/_faraway.html",
    face=face,
    move_label=move_label,
)
