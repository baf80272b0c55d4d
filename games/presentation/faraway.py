"""The Faraway Tree in words: card faces, move labels, event lines and the table.

Card facts come from ``games.engines.faraway_cards``; who a penalty would hit comes from the
view's ``penalty_victims`` (the engine decides it, docs/rulings.md), never from a rule here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.engines import faraway_cards

from .common import (
    CardSlot,
    GameBuilder,
    attach,
    first_slot,
    generic_event_line,
    plural,
    seat_name,
    table_common,
)

if TYPE_CHECKING:
    from games.logs import LogEntry

CARD_TEMPLATE = "games/_card_faraway.html"
# How each digit reads turned half round (2, 3, 4, 5 and 7 read as no digit).
_TURNED_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def corner_css(number: int) -> str:
    """The class of a card corner printing ``number``: underlined when the number turned upside
    down reads as another one (a 6 and a 9), as printed cards mark them."""
    digits = str(number)
    turned = "".join(_TURNED_DIGITS.get(d, "?") for d in reversed(digits))
    ambiguous = "?" not in turned and turned != digits and not turned.startswith("0")
    return "corner underlined" if ambiguous else "corner"


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
    turns = plural(penalty.turns_missed, "turn")
    return {
        "code": code,
        "template": CARD_TEMPLATE,
        "css": f"card fw fw-penalty fw-n{penalty.number}",
        "corner_css": corner_css(penalty.number),
        "name": f"Miss {turns}",
        "flavour": penalty.flavour,
        "aria_label": f"Penalty {code}: on a {penalty.number}, miss {turns}",
    }


def card_name(code: str | None) -> str:
    if code is None:
        return "a card"
    return faraway_cards.card_name(code)


def move_label(move: dict[str, Any], view: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """(short label beside the card, the whole move in words)."""
    kind = move.get("type")
    card = card_name(move.get("card"))
    if kind == "draw" and move.get("source") == "pack":
        text = "Draw two from the pack" if move.get("count") == 2 else "Draw from the pack"
        return text, text
    if kind == "draw":
        cards = [card_name(view["discards"][p]) for p in move.get("positions", [])]
        return "Take", f"Take {' and '.join(cards)} from the discards"
    if kind == "play":
        return "Lay it", f"Lay {card}"
    if kind == "penalty":
        victim = (view.get("penalty_victims") or {}).get(move.get("card"))
        on = "" if victim is None else f" on {seat_name(names, victim)}"
        return f"Penalty{on}", f"Play {card}{on}"
    if kind == "discard":
        return "Discard", f"Discard {card}"
    return json.dumps(move), json.dumps(move)


def _hand_slot(hand: list[CardSlot], move: dict[str, Any]) -> int | None:
    if move.get("type") in {"play", "penalty", "discard"}:
        return first_slot(hand, move.get("card"))
    return None


def _penalty_badge(penalty: dict[str, Any] | None) -> dict[str, Any] | None:
    if penalty is None:
        return None
    left = plural(penalty["turns_left"], "more turn")
    return {"code": penalty["card"], "text": f"{penalty['card']}: misses {left}"}


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
    return f"{dealer} dealt {faraway_cards.HAND_SIZE} cards to each player."


def _hand_line(event: dict[str, Any], names: list[str], who: str) -> str:
    cards = event.get("cards")
    if cards is None:
        return ""  # another seat's deal: nothing public to say beyond the deal itself
    return f"{who} was dealt " + ", ".join(card_name(c) for c in cards) + "."


def _draw_line(event: dict[str, Any], names: list[str], who: str) -> str:
    cards = event.get("cards")
    if event.get("source") == "pack":
        if cards is None:
            count = event.get("count", 1)
            return f"{who} drew {'two cards ' if count == 2 else ''}from the pack."
        return f"{who} drew {' and '.join(card_name(c) for c in cards)} from the pack."
    shown = " and ".join(card_name(c) for c in cards or [])
    return f"{who} drew {shown or 'a card'} from the discards."


def _penalty_line(event: dict[str, Any], names: list[str], who: str) -> str:
    victim = seat_name(names, event.get("victim"))
    story = faraway_cards.STORY_BY_CODE.get(str(event.get("on")))
    on = story.name.removeprefix("The ") if story else str(event.get("on"))
    turns = plural(int(event.get("turns") or 0), "turn")
    return f"{who} played {event.get('card')} on {victim}'s {on}: {victim} misses {turns}."


def _reshuffle_line(event: dict[str, Any], names: list[str], who: str) -> str:
    return (
        f"Reshuffled: {plural(int(event.get('count') or 0), 'card')}; "
        f"{card_name(event.get('up'))} turned up."
    )


def _miss_line(event: dict[str, Any], names: list[str], who: str) -> str:
    left = int(event.get("turns_left") or 0)
    more = f", {plural(left, 'more turn')} to miss" if left else ""
    return f"{who} missed a turn ({event.get('card')}{more})."


_LINES = {
    "deal": _deal_line,
    "hand": _hand_line,
    "turn_up": lambda event, names, who: (
        f"{card_name(event.get('card'))} was turned up to start the discards."
    ),
    "draw": _draw_line,
    "play": lambda event, names, who: f"{who} laid {card_name(event.get('card'))}.",
    "win": lambda event, names, who: f"{who} reached the Land of Birthdays and wins!",
    "penalty": _penalty_line,
    "discard": lambda event, names, who: f"{who} discarded {card_name(event.get('card'))}.",
    "reshuffle": _reshuffle_line,
    "miss": _miss_line,
    "aside": lambda event, names, who: f"{who} has served {event.get('card')}; it is put aside.",
    "no_draw": lambda event, names, who: f"{who} could not draw: there was no card to be had.",
    "turn_cap": lambda event, names, who: (
        f"{event.get('turns')} turns played without a winner: the match is a draw."
    ),
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
