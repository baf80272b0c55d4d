"""Gulliver's Travels in words: card faces, move labels, event lines and the table.

Word classes come from ``games.engines.gulliver_words``; what may come next comes from the view's
``playable`` and ``prependable`` (the engine's grammar decides it), never from a rule here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engines import gulliver_words
from games.presentation.gulliver_glosses import gloss

from .common import (
    CardSlot,
    GameBuilder,
    and_join,
    attach,
    badge,
    cards_text,
    first_slot,
    generic_event_line,
    seat_name,
    table_common,
)

if TYPE_CHECKING:
    from games.logs import LogEntry

CARD_TEMPLATE = "games/_card_gulliver.html"

# How each word class (gulliver_words.CLASS_OF) is printed on a card face: the words of the
# rules page (docs/rules/gulliver.md), so a player meets one vocabulary.
POS_LABELS = {
    "SingularNoun": pgettext_lazy("word class", "name"),
    "PluralNoun": pgettext_lazy("word class", "plural noun"),
    "And": pgettext_lazy("word class", "joining word"),
    "Is": pgettext_lazy("word class", "to be"),
    "Are": pgettext_lazy("word class", "to be"),
    "With": pgettext_lazy("word class", "joining word"),
    "Verb": pgettext_lazy("word class", "verb"),
    "Participle": pgettext_lazy("word class", "-ing word"),
    "Adjective": pgettext_lazy("word class", "adjective"),
    "Adverb": pgettext_lazy("word class", "adverb"),
}

ROUND_END_REASONS = {
    "trick": gettext_lazy("the last trick was taken"),
    "no_cards": gettext_lazy("nobody could go on"),
    "all_passed": gettext_lazy("everyone had to pass"),
}


def face(code: str) -> dict[str, Any]:
    """What ``_card_gulliver.html`` prints for one card, as finished strings."""
    word_class = gulliver_words.CLASS_OF[code]
    pos_label = str(POS_LABELS.get(word_class, word_class.lower()))
    # The word stays English (it must make an English sentence); its gloss is the reader's.
    meaning = gloss(code)
    return {
        "code": code,
        "template": CARD_TEMPLATE,
        "css": f"card gv pos-{word_class.lower()}",
        "word": code,
        "pos_label": pos_label,
        "gloss": meaning,
        "aria_label": f"{code}, {pos_label}" + (f" ({meaning})" if meaning else ""),
    }


def quote(code: Any) -> str:
    """A word card quoted, as the reader's language quotes ("a card" for one not shown)."""
    if code is None:
        return _("a card")
    return _("‘%(word)s’") % {"word": code}


def move_label(move: dict[str, Any], view: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """(short label beside the card, the whole move in words)."""
    kind = move.get("type")
    word = quote(move.get("card"))
    if kind == "play":
        return _("Play"), _("Play %(word)s") % {"word": word}
    if kind == "prepend":
        return _("Put in front"), _("Put %(word)s in front of the sentence") % {"word": word}
    if kind == "draw":
        return _("Draw from the stack"), _("Draw from the stack")
    if kind == "pass":
        return _("Pass"), _("Pass")
    if kind == "challenge":
        last = view.get("last_play") or {}
        text = _("Challenge %(name)s’s %(word)s") % {
            "name": seat_name(names, last.get("seat")),
            "word": quote(last.get("card")),
        }
        return text, text
    if kind == "vote":
        text = _("Vote: it stands") if move.get("accept") else _("Vote: take it back")
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
                "text": _("not yet") if v is None else (_("it stands") if v else _("take it back")),
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
    scores = view.get("scores") or [{"plus": 0, "minus": 0, "standing": 0} for _seat in names]
    tricks = view.get("tricks") or [0 for _seat in names]
    final_hands = view.get("hands")
    for player in result["players"]:
        i = player["index"]
        player["score"] = scores[i]
        player["tricks"] = tricks[i]
        player["is_dealer"] = i == view.get("dealer")
        if player["is_dealer"]:
            player["badges"] = [badge(_("dealer")), *player["badges"]]
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
    facts = {
        "round": event.get("round"),
        "dealer": seat_name(names, event.get("dealer")),
        "stack": cards_text(int(event.get("stack_count") or 0)),
        "each": counts[0] if counts else 0,
    }
    if counts and len(set(counts)) == 1:
        return (
            _(
                "Round %(round)s: %(dealer)s deals, %(each)s cards each, "
                "%(stack)s in the centre stack."
            )
            % facts
        )
    return _("Round %(round)s: %(dealer)s deals, cards dealt, %(stack)s in the centre stack.") % (
        facts
    )


def _play_line(event: dict[str, Any], names: list[str], who: str) -> str:
    facts = {"name": who, "word": quote(event.get("card"))}
    if event.get("complete"):
        return _("%(name)s played %(word)s (the sentence could end here).") % facts
    return _("%(name)s played %(word)s.") % facts


def _draw_line(event: dict[str, Any], names: list[str], who: str) -> str:
    card = event.get("card")
    if card is None:
        return _("%(name)s drew from the stack.") % {"name": who}
    return _("%(name)s drew %(word)s from the stack.") % {"name": who, "word": quote(card)}


def _challenge_line(event: dict[str, Any], names: list[str], who: str) -> str:
    return _("%(name)s challenged %(target)s’s %(word)s.") % {
        "name": who,
        "target": seat_name(names, event.get("target")),
        "word": quote(event.get("card")),
    }


def _challenge_result_line(event: dict[str, Any], names: list[str], who: str) -> str:
    facts = {
        "word": quote(event.get("card")),
        "name": who,
        "for": event.get("for"),
        "against": event.get("against"),
    }
    if event.get("stands"):
        return _("%(word)s stands (%(for)s for, %(against)s against).") % facts
    return _("%(word)s goes back to %(name)s (%(for)s for, %(against)s against).") % facts


def _round_end_line(event: dict[str, Any], names: list[str], who: str) -> str:
    held = event.get("held") or []
    scores = event.get("scores") or []
    reason = ROUND_END_REASONS.get(str(event.get("reason")), "")
    parts = [
        _("%(name)s held %(held)s, now %(score)s")
        % {"name": names[i], "held": held[i], "score": scores[i]}
        for i in range(min(len(names), len(held), len(scores)))
    ]
    facts = {"round": event.get("round"), "reason": reason, "scores": "; ".join(parts)}
    if reason:
        return _("Round %(round)s is over (%(reason)s): %(scores)s.") % facts
    return _("Round %(round)s is over: %(scores)s.") % facts


def _end_line(event: dict[str, Any], names: list[str], who: str) -> str:
    winners = {"names": and_join([names[i] for i in event.get("winners") or []])}
    if event.get("draw"):
        return _("The match is over: a shared win for %(names)s.") % winners
    return _("The match is over: %(names)s wins.") % winners


_LINES = {
    "deal": _deal_line,
    "play": _play_line,
    "prepend": lambda event, names, who: (
        _("%(name)s put %(word)s in front of the sentence.")
        % {"name": who, "word": quote(event.get("card"))}
    ),
    "trick": lambda event, names, who: (
        _("%(name)s took the trick: “%(sentence)s”.")
        % {"name": who, "sentence": " ".join(event.get("cards") or [])}
    ),
    "out": lambda event, names, who: _("%(name)s has played their last card.") % {"name": who},
    "draw": _draw_line,
    "pass": lambda event, names, who: _("%(name)s passed.") % {"name": who},
    "challenge": _challenge_line,
    "vote": lambda event, names, who: (
        (
            _("%(name)s voted: it stands.")
            if event.get("accept")
            else _("%(name)s voted: take it back.")
        )
        % {"name": who}
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
