"""Gulliver's Travels in words: card faces, move labels, event lines and the table.

Word classes come from ``games.engines.gulliver_words``; what may come next comes from the view's
``playable`` and ``prependable`` (the engine's grammar decides it), never from a rule here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from games.engines import gulliver_words

from .common import (
    CardSlot,
    GameBuilder,
    and_join,
    attach,
    badge,
    first_slot,
    generic_event_line,
    plural,
    seat_name,
    table_common,
)

if TYPE_CHECKING:
    from games.logs import LogEntry

CARD_TEMPLATE = "games/_card_gulliver.html"

# How each word class (gulliver_words.CLASS_OF) is printed on a card face: the words of the
# rules page (docs/rules/gulliver.md), so a player meets one vocabulary.
POS_LABELS = {
    "SingularNoun": "name",
    "PluralNoun": "plural noun",
    "And": "joining word",
    "Is": "to be",
    "Are": "to be",
    "With": "joining word",
    "Verb": "verb",
    "Participle": "-ing word",
    "Adjective": "adjective",
    "Adverb": "adverb",
}

ROUND_END_REASONS = {
    "trick": "the last trick was taken",
    "no_cards": "nobody could go on",
    "all_passed": "everyone had to pass",
}


def face(code: str) -> dict[str, Any]:
    """What ``_card_gulliver.html`` prints for one card, as finished strings."""
    word_class = gulliver_words.CLASS_OF[code]
    pos_label = POS_LABELS.get(word_class, word_class.lower())
    return {
        "code": code,
        "template": CARD_TEMPLATE,
        "css": f"card gv pos-{word_class.lower()}",
        "word": code,
        "pos_label": pos_label,
        "aria_label": f"{code}, {pos_label}",
    }


def quote(code: Any) -> str:
    return "a card" if code is None else f"\u2018{code}\u2019"


def move_label(move: dict[str, Any], view: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """(short label beside the card, the whole move in words)."""
    kind = move.get("type")
    word = quote(move.get("card"))
    if kind == "play":
        return "Play", f"Play {word}"
    if kind == "prepend":
        return "Put in front", f"Put {word} in front of the sentence"
    if kind == "draw":
        return "Draw from the stack", "Draw from the stack"
    if kind == "pass":
        return "Pass", "Pass"
    if kind == "challenge":
        last = view.get("last_play") or {}
        text = f"Challenge {seat_name(names, last.get('seat'))}\u2019s {quote(last.get('card'))}"
        return text, text
    if kind == "vote":
        text = "Vote: it stands" if move.get("accept") else "Vote: take it back"
        return text, text
    return json.dumps(move), json.dumps(move)


def _hand(view: dict[str, Any], names: list[str]) -> tuple[list[CardSlot], list[Any]]:
    """The hand with its moves, highlighting every card that may come next, and the bar moves."""
    hand = [CardSlot(face(code)) for code in view.get("hand") or []]
    may_come_next = set()
    if not view.get("over"):
        may_come_next = set(view.get("playable") or []) | set(view.get("prependable") or [])

    def slot_of(move: dict[str, Any]) -> int | None:
        if move.get("type") in {"play", "prepend"}:
            return first_slot(hand, move.get("card"))
        return None

    bar = attach(
        list(view.get("legal_moves") or []),
        hand,
        slot_of,
        lambda move: move_label(move, view, names),
    )
    for slot in hand:
        slot.highlight = slot.highlight or slot.face["code"] in may_come_next
    return hand, bar


def _challenge(challenge: dict[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        "card": challenge.get("card"),
        "player_name": seat_name(names, challenge.get("seat")),
        "challenger_name": seat_name(names, challenge.get("challenger")),
        "votes": [
            {
                "name": names[i],
                "text": "not yet" if v is None else ("it stands" if v else "take it back"),
            }
            for i, v in enumerate(challenge.get("votes") or [])
        ],
    }


def _round_result(view: dict[str, Any], names: list[str], log: Sequence[LogEntry]) -> str:
    """The latest round's end in words. It is among the events of the step that ended the
    round: the view's own when the state came straight from that step (a replay frame), else
    the newest logged entry's, since a state read back from storage carries no events."""
    newest_first = chain(
        reversed(view.get("events") or []), *(reversed(entry.events) for entry in reversed(log))
    )
    return next(
        (event_line(event, names) for event in newest_first if event.get("type") == "round_end"),
        "",
    )


def table(view: dict[str, Any], names: list[str], log: Sequence[LogEntry]) -> dict[str, Any]:
    """The Gulliver table for one view: scores, the sentence, any challenge and the hand."""
    result = table_common(view, names)
    result["hand"], result["bar_moves"] = _hand(view, names)
    result["sentence"] = [face(code) for code in view.get("sentence") or []]
    result["prepended"] = bool(view.get("prepended"))
    result["stack_count"] = view.get("stack_count", 0)
    result["round"] = view.get("round")
    result["target"] = view.get("target")
    result["dealer_name"] = seat_name(names, view.get("dealer"))
    scores = view.get("scores") or [{"plus": 0, "minus": 0, "standing": 0} for _ in names]
    tricks = view.get("tricks") or [0 for _ in names]
    final_hands = view.get("hands")
    for player in result["players"]:
        i = player["index"]
        player["score"] = scores[i]
        player["tricks"] = tricks[i]
        player["is_dealer"] = i == view.get("dealer")
        if player["is_dealer"]:
            player["badges"] = [badge("dealer"), *player["badges"]]
        player["final_hand"] = (
            [face(code) for code in final_hands[i]] if final_hands is not None else None
        )
    if view.get("challenge"):
        result["challenge"] = _challenge(view["challenge"], names)
    result["round_over"] = bool(view.get("round_over")) and not view.get("over")
    if result["round_over"] or view.get("over"):
        result["round_result"] = _round_result(view, names, log)
    if view.get("over"):
        result["ranking"] = sorted(
            result["players"], key=lambda p: (-p["score"]["standing"], p["index"])
        )
    return result


def _deal_line(event: dict[str, Any], names: list[str], who: str) -> str:
    counts = event.get("hand_counts") or []
    each = f"{counts[0]} cards each" if counts and len(set(counts)) == 1 else "cards dealt"
    return (
        f"Round {event.get('round')}: {seat_name(names, event.get('dealer'))} deals, {each}, "
        f"{plural(int(event.get('stack_count') or 0), 'card')} in the centre stack."
    )


def _play_line(event: dict[str, Any], names: list[str], who: str) -> str:
    done = " (the sentence could end here)" if event.get("complete") else ""
    return f"{who} played {quote(event.get('card'))}{done}."


def _draw_line(event: dict[str, Any], names: list[str], who: str) -> str:
    card = event.get("card")
    if card is None:
        return f"{who} drew from the stack."
    return f"{who} drew {quote(card)} from the stack."


def _challenge_line(event: dict[str, Any], names: list[str], who: str) -> str:
    target = seat_name(names, event.get("target"))
    return f"{who} challenged {target}\u2019s {quote(event.get('card'))}."


def _challenge_result_line(event: dict[str, Any], names: list[str], who: str) -> str:
    verdict = "stands" if event.get("stands") else f"goes back to {who}"
    return (
        f"{quote(event.get('card'))} {verdict} "
        f"({event.get('for')} for, {event.get('against')} against)."
    )


def _round_end_line(event: dict[str, Any], names: list[str], who: str) -> str:
    held = event.get("held") or []
    scores = event.get("scores") or []
    reason = ROUND_END_REASONS.get(str(event.get("reason")), "")
    parts = [
        f"{names[i]} held {held[i]}, now {scores[i]}"
        for i in range(min(len(names), len(held), len(scores)))
    ]
    head = f"Round {event.get('round')} is over" + (f" ({reason})" if reason else "")
    return f"{head}: " + "; ".join(parts) + "."


def _end_line(event: dict[str, Any], names: list[str], who: str) -> str:
    winners = [names[i] for i in event.get("winners") or []]
    if event.get("draw"):
        return f"The match is over: a shared win for {and_join(winners)}."
    return f"The match is over: {and_join(winners)} wins."


_LINES = {
    "deal": _deal_line,
    "play": _play_line,
    "prepend": lambda event, names, who: (
        f"{who} put {quote(event.get('card'))} in front of the sentence."
    ),
    "trick": lambda event, names, who: (
        f"{who} took the trick: \u201c{' '.join(event.get('cards') or [])}\u201d."
    ),
    "out": lambda event, names, who: f"{who} has played their last card.",
    "draw": _draw_line,
    "pass": lambda event, names, who: f"{who} passed.",
    "challenge": _challenge_line,
    "vote": lambda event, names, who: (
        f"{who} voted: {'it stands' if event.get('accept') else 'take it back'}."
    ),
    "challenge_result": _challenge_result_line,
    "round_end": _round_end_line,
    "end": _end_line,
}


def event_line(event: dict[str, Any], names: list[str]) -> str:
    """One log line in words, from an event as the viewing seat received it."""
    line_of = _LINES.get(str(event.get("type")))
    if line_of is None:
        return generic_event_line(event, names)
    return line_of(event, names, seat_name(names, event.get("seat")))


BUILDER = GameBuilder(
    table=table,
    event_line=event_line,
    board_template="games/_gulliver.html",
    face=face,
    move_label=move_label,
)
