"""Presentation of one seat's ``engine.view``: card faces, move labels and event lines.

Input is only what ``view(state, seat)`` returned plus the seats' names, so nothing here can
show a card that seat may not see. Card facts come from the engines' own card-data modules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.engines import faraway_cards, gulliver_words


@dataclass
class MoveButton:
    move: dict[str, Any]
    label: str  # short, shown beside the card it concerns
    aria_label: str = ""  # the whole move in words, for screen readers and the bar

    def __post_init__(self) -> None:
        self.aria_label = self.aria_label or self.label

    @property
    def json(self) -> str:
        return json.dumps(self.move, sort_keys=True, separators=(",", ":"))


@dataclass
class CardSlot:
    face: dict[str, Any] | None
    moves: list[MoveButton] = field(default_factory=list)
    highlight: bool = False


def move_json(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def build(
    game: str,
    *,
    view: dict[str, Any],
    names: list[str],
    notes: dict[int, str] | None = None,
) -> dict[str, Any]:
    """The table for one view; ``notes`` are site lines (e.g. a move the server made for a
    person) to show with the engine event at that index of ``view["events"]``."""
    builder = {"faraway": _faraway, "gulliver": _gulliver}[game]
    table = builder(view, names)
    line_of = {"faraway": faraway_event_line, "gulliver": gulliver_event_line}[game]
    table["events"] = _event_lines(view, names, line_of, notes or {})
    return table


def _common(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    seat = view.get("seat")
    awaiting = list(view.get("awaiting") or [])
    over = bool(view.get("over"))
    players = []
    for index, name in enumerate(names):
        players.append(
            {
                "index": index,
                "name": name,
                "is_me": index == seat,
                "awaited": index in awaiting and not over,
                "hand_count": (view.get("hand_counts") or [0] * len(names))[index],
            }
        )
    table: dict[str, Any] = {
        "seat": seat,
        "players": players,
        "awaiting_names": [names[i] for i in awaiting],
        "your_turn": seat is not None and seat in awaiting and not over,
        "over": over,
        "outcome_text": _outcome_text(view.get("outcome"), names) if over else "",
        "hand": [],
        "bar_moves": [],
        "events": [],
    }
    return table


# The table shows the latest events only: a long match has thousands, and every poll renders them.
EVENT_LOG_LENGTH = 60


def _event_lines(
    view: dict[str, Any], names: list[str], line_of: Any, notes: dict[int, str]
) -> list[str]:
    """The latest events in words, oldest first, each note just after the first event of the
    move it explains (so the newest-first log shows the note right above that move)."""
    events = list(view.get("events") or [])
    lines: list[str] = []
    for index in range(max(0, len(events) - EVENT_LOG_LENGTH), len(events)):
        line = line_of(events[index], names)
        if line:
            lines.append(line)
        if index in notes:
            lines.append(notes[index])
    return lines


AUTO_NOTES = {
    "deadline": "The greedy bot played for {name} (turn deadline passed).",
    "vote_closed": "{name}\u2019s missing vote was counted as accepting (the vote closed).",
}


def auto_note(auto: str, name: str) -> str:
    return AUTO_NOTES[auto].format(name=name)


def _outcome_text(outcome: dict[str, Any] | None, names: list[str]) -> str:
    if not outcome:
        return "The match is over."
    winners = [names[i] for i in outcome.get("winners") or []]
    if outcome.get("draw") and winners:
        return f"A shared win: {_and_join(winners)}."
    if outcome.get("draw") or not winners:
        return "The match ended in a draw."
    return f"{_and_join(winners)} won."


def _and_join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _attach(
    moves: list[dict[str, Any]],
    slots: list[CardSlot],
    slot_of: Any,
    label_of: Any,
) -> list[MoveButton]:
    """Hang each legal move on the card slot it concerns; the rest go to the action bar."""
    bar: list[MoveButton] = []
    for move in moves:
        target = slot_of(move)
        button = MoveButton(move, *label_of(move))
        if target is None or not 0 <= target < len(slots):
            button.label = button.aria_label
            bar.append(button)
        else:
            slots[target].moves.append(button)
            slots[target].highlight = True
    return bar


def _first_slot(slots: list[CardSlot], code: str | None) -> int | None:
    for i, slot in enumerate(slots):
        if slot.face is not None and slot.face["code"] == code:
            return i
    return None


# --- The Faraway Tree ---------------------------------------------------------------------------


def faraway_face(code: str | None) -> dict[str, Any] | None:
    if code is None:
        return None
    story = faraway_cards.STORY_BY_CODE.get(code)
    if story is not None:
        return {
            "code": code,
            "kind": "story",
            "number": story.number,
            "name": story.name,
            "flavour": story.flavour,
            "title": f"{story.number} {story.name}",
        }
    penalty = faraway_cards.PENALTY_BY_CODE[code]
    turns = "1 turn" if penalty.turns_missed == 1 else f"{penalty.turns_missed} turns"
    return {
        "code": code,
        "kind": "penalty",
        "number": penalty.number,
        "name": f"Miss {turns}",
        "flavour": penalty.flavour,
        "title": f"Penalty {code}: on a {penalty.number}, miss {turns}",
    }


def faraway_card_name(code: str | None) -> str:
    if code is None:
        return "a card"
    return faraway_cards.card_name(code)


def _faraway(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    table = _common(view, names)
    hand = [CardSlot(faraway_face(code)) for code in view.get("hand") or []]
    discards = [CardSlot(faraway_face(code)) for code in view.get("discards") or []]
    rows = view.get("rows") or [[] for _ in names]
    penalties = view.get("penalties") or [None for _ in names]

    def label(move: dict[str, Any]) -> tuple[str, str]:
        kind = move.get("type")
        card = faraway_card_name(move.get("card"))
        if kind == "draw" and move.get("source") == "pack":
            text = "Draw two from the pack" if move.get("count") == 2 else "Draw from the pack"
            return text, text
        if kind == "draw":
            cards = [faraway_card_name(view["discards"][p]) for p in move.get("positions", [])]
            return "Take", f"Take {' and '.join(cards)} from the discards"
        if kind == "play":
            return "Lay it", f"Lay {card}"
        if kind == "penalty":
            victim = _faraway_victim(view, move.get("card"))
            on = "" if victim is None else f" on {names[victim]}"
            return f"Penalty{on}", f"Play {card}{on}"
        if kind == "discard":
            return "Discard", f"Discard {card}"
        return json.dumps(move), json.dumps(move)

    def slot_of_hand(move: dict[str, Any]) -> int | None:
        if move.get("type") in {"play", "penalty", "discard"}:
            return _first_slot(hand, move.get("card"))
        return None

    legal = list(view.get("legal_moves") or [])
    discard_draws = [
        m for m in legal if m.get("type") == "draw" and len(m.get("positions") or []) == 1
    ]
    rest = [m for m in legal if m not in discard_draws]
    _attach(discard_draws, discards, lambda m: m["positions"][0], label)
    table["bar_moves"] = _attach(rest, hand, slot_of_hand, label)
    table["hand"] = hand
    table["discards"] = discards
    table["discard_count"] = view.get("discard_count", 0)
    table["pack_count"] = view.get("pack_count", 0)
    final_hands = view.get("hands")
    for player in table["players"]:
        i = player["index"]
        player["row"] = [faraway_face(code) for code in rows[i]]
        pen = penalties[i]
        player["penalty"] = (
            None
            if pen is None
            else {"face": faraway_face(pen["card"]), "turns_left": pen["turns_left"]}
        )
        player["final_hand"] = (
            [faraway_face(c) for c in final_hands[i]] if final_hands is not None else None
        )
    return table


def _faraway_victim(view: dict[str, Any], card: str | None) -> int | None:
    """Who a penalty would hit, from public facts: the nearest qualifying seat to the left."""
    penalty = faraway_cards.PENALTY_BY_CODE.get(card or "")
    seat = view.get("seat")
    rows = view.get("rows") or []
    if penalty is None or seat is None:
        return None
    n = len(rows)
    for step in range(1, n):
        other = (seat + step) % n
        row = rows[other]
        top = max((int(c) for c in row), default=0)
        if top == penalty.number and (view.get("penalties") or [None] * n)[other] is None:
            return other
    return None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "Someone"


def faraway_event_line(event: dict[str, Any], names: list[str]) -> str:
    """One log line in words, from an event as the viewing seat received it."""
    kind = event.get("type")
    who = _name(names, event.get("seat"))
    if kind == "deal":
        dealer = _name(names, event.get("dealer"))
        return f"{dealer} dealt {faraway_cards.HAND_SIZE} cards to each player."
    if kind == "hand":
        cards = event.get("cards")
        if cards is None:
            return ""  # another seat's deal: nothing public to say beyond the deal itself
        return f"{who} was dealt " + ", ".join(faraway_card_name(c) for c in cards) + "."
    if kind == "turn_up":
        return f"{faraway_card_name(event.get('card'))} was turned up to start the discards."
    if kind == "draw":
        cards = event.get("cards")
        if event.get("source") == "pack":
            if cards is None:
                count = event.get("count", 1)
                return f"{who} drew {'two cards ' if count == 2 else ''}from the pack."
            return f"{who} drew {' and '.join(faraway_card_name(c) for c in cards)} from the pack."
        shown = " and ".join(faraway_card_name(c) for c in cards or [])
        return f"{who} drew {shown or 'a card'} from the discards."
    if kind == "play":
        return f"{who} laid {faraway_card_name(event.get('card'))}."
    if kind == "win":
        return f"{who} reached the Land of Birthdays and wins!"
    if kind == "penalty":
        victim = _name(names, event.get("victim"))
        story = faraway_cards.STORY_BY_CODE.get(str(event.get("on")))
        on = story.name.removeprefix("The ") if story else str(event.get("on"))
        turns = _plural(int(event.get("turns") or 0), "turn")
        return f"{who} played {event.get('card')} on {victim}'s {on}: {victim} misses {turns}."
    if kind == "discard":
        return f"{who} discarded {faraway_card_name(event.get('card'))}."
    if kind == "reshuffle":
        return (
            f"Reshuffled: {_plural(int(event.get('count') or 0), 'card')}; "
            f"{faraway_card_name(event.get('up'))} turned up."
        )
    if kind == "miss":
        left = int(event.get("turns_left") or 0)
        more = f", {_plural(left, 'more turn')} to miss" if left else ""
        return f"{who} missed a turn ({event.get('card')}{more})."
    if kind == "aside":
        return f"{who} has served {event.get('card')}; it is put aside."
    if kind == "no_draw":
        return f"{who} could not draw: there was no card to be had."
    if kind == "turn_cap":
        return f"{event.get('turns')} turns played without a winner: the match is a draw."
    return _generic_event_line(event, names)


# --- Gulliver's Travels -------------------------------------------------------------------------

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


def gulliver_face(code: str | None) -> dict[str, Any] | None:
    if code is None:
        return None
    cls = gulliver_words.CLASS_OF[code]
    return {
        "code": code,
        "word": code,
        "pos": cls.lower(),
        "pos_label": POS_LABELS.get(cls, cls.lower()),
    }


def _quote(code: Any) -> str:
    return "a card" if code is None else f"\u2018{code}\u2019"


def _gulliver(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    table = _common(view, names)
    hand = [CardSlot(gulliver_face(code)) for code in view.get("hand") or []]
    may_come_next = set()
    if not view.get("over"):
        may_come_next = set(view.get("playable") or []) | set(view.get("prependable") or [])
    for slot in hand:
        slot.highlight = slot.face is not None and slot.face["code"] in may_come_next
    last = view.get("last_play") or {}

    def label(move: dict[str, Any]) -> tuple[str, str]:
        kind = move.get("type")
        word = _quote(move.get("card"))
        if kind == "play":
            return "Play", f"Play {word}"
        if kind == "prepend":
            return "Put in front", f"Put {word} in front of the sentence"
        if kind == "draw":
            return "Draw from the stack", "Draw from the stack"
        if kind == "pass":
            return "Pass", "Pass"
        if kind == "challenge":
            text = f"Challenge {_name(names, last.get('seat'))}\u2019s {_quote(last.get('card'))}"
            return text, text
        if kind == "vote":
            text = "Vote: it stands" if move.get("accept") else "Vote: take it back"
            return text, text
        return json.dumps(move), json.dumps(move)

    def slot_of(move: dict[str, Any]) -> int | None:
        if move.get("type") in {"play", "prepend"}:
            return _first_slot(hand, move.get("card"))
        return None

    table["bar_moves"] = _attach(list(view.get("legal_moves") or []), hand, slot_of, label)
    for slot in hand:
        slot.highlight = slot.highlight or bool(slot.moves)
    table["hand"] = hand
    table["sentence"] = [gulliver_face(c) for c in view.get("sentence") or []]
    table["prepended"] = bool(view.get("prepended"))
    table["stack_count"] = view.get("stack_count", 0)
    table["round"] = view.get("round")
    table["target"] = view.get("target")
    table["dealer_name"] = _name(names, view.get("dealer"))
    scores = view.get("scores") or [{"plus": 0, "minus": 0, "standing": 0} for _ in names]
    tricks = view.get("tricks") or [0 for _ in names]
    final_hands = view.get("hands")
    for player in table["players"]:
        i = player["index"]
        player["score"] = scores[i]
        player["tricks"] = tricks[i]
        player["is_dealer"] = i == view.get("dealer")
        player["final_hand"] = (
            [gulliver_face(c) for c in final_hands[i]] if final_hands is not None else None
        )
    challenge = view.get("challenge")
    if challenge:
        table["challenge"] = {
            "card": challenge.get("card"),
            "player_name": _name(names, challenge.get("seat")),
            "challenger_name": _name(names, challenge.get("challenger")),
            "votes": [
                {
                    "name": names[i],
                    "text": "not yet" if v is None else ("it stands" if v else "take it back"),
                }
                for i, v in enumerate(challenge.get("votes") or [])
            ],
        }
    table["round_over"] = bool(view.get("round_over")) and not view.get("over")
    if table["round_over"] or view.get("over"):
        table["round_result"] = next(
            (
                gulliver_event_line(e, names)
                for e in reversed(view.get("events") or [])
                if e.get("type") == "round_end"
            ),
            "",
        )
    if view.get("over"):
        table["ranking"] = sorted(
            table["players"], key=lambda p: (-p["score"]["standing"], p["index"])
        )
    return table


ROUND_END_REASONS = {
    "trick": "the last trick was taken",
    "no_cards": "nobody could go on",
    "all_passed": "everyone had to pass",
}


def gulliver_event_line(event: dict[str, Any], names: list[str]) -> str:
    """One log line in words, from an event as the viewing seat received it."""
    kind = event.get("type")
    who = _name(names, event.get("seat"))
    if kind == "deal":
        counts = event.get("hand_counts") or []
        each = f"{counts[0]} cards each" if counts and len(set(counts)) == 1 else "cards dealt"
        return (
            f"Round {event.get('round')}: {_name(names, event.get('dealer'))} deals, {each}, "
            f"{_plural(int(event.get('stack_count') or 0), 'card')} in the centre stack."
        )
    if kind == "play":
        done = " (the sentence could end here)" if event.get("complete") else ""
        return f"{who} played {_quote(event.get('card'))}{done}."
    if kind == "prepend":
        return f"{who} put {_quote(event.get('card'))} in front of the sentence."
    if kind == "trick":
        sentence = " ".join(event.get("cards") or [])
        return f"{who} took the trick: \u201c{sentence}\u201d."
    if kind == "out":
        return f"{who} has played their last card."
    if kind == "draw":
        card = event.get("card")
        if card is None:
            return f"{who} drew from the stack."
        return f"{who} drew {_quote(card)} from the stack."
    if kind == "pass":
        return f"{who} passed."
    if kind == "challenge":
        target = _name(names, event.get("target"))
        return f"{who} challenged {target}\u2019s {_quote(event.get('card'))}."
    if kind == "vote":
        return f"{who} voted: {'it stands' if event.get('accept') else 'take it back'}."
    if kind == "challenge_result":
        verdict = "stands" if event.get("stands") else f"goes back to {who}"
        return (
            f"{_quote(event.get('card'))} {verdict} "
            f"({event.get('for')} for, {event.get('against')} against)."
        )
    if kind == "round_end":
        held = event.get("held") or []
        scores = event.get("scores") or []
        reason = ROUND_END_REASONS.get(str(event.get("reason")), "")
        parts = [
            f"{names[i]} held {held[i]}, now {scores[i]}"
            for i in range(min(len(names), len(held), len(scores)))
        ]
        head = f"Round {event.get('round')} is over" + (f" ({reason})" if reason else "")
        return f"{head}: " + "; ".join(parts) + "."
    if kind == "end":
        winners = [names[i] for i in event.get("winners") or []]
        if event.get("draw"):
            return f"The match is over: a shared win for {_and_join(winners)}."
        return f"The match is over: {_and_join(winners)} wins."
    return _generic_event_line(event, names)


def _generic_event_line(event: dict[str, Any], names: list[str]) -> str:
    """A fallback that still names the seat, for an event type this module does not know yet."""
    who = _name(names, event.get("seat"))
    details = ", ".join(
        f"{k} {v}" for k, v in event.items() if k not in {"type", "seat"} and v is not None
    )
    return f"{who}: {event.get('type', '?')}" + (f" ({details})" if details else "")
