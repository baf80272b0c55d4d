"""What both games' tables share: move buttons, card slots, the players, the outcome in words
and the event log assembled from the logged moves.

Everything here works from a seat's ``engine.view`` (docs/engine-contract.md) and events already
redacted for that seat, so no function can word a card the viewer may not see.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.logs import EVENT_LOG_LENGTH

if TYPE_CHECKING:
    from games.logs import LogEntry

EventLine = Callable[[dict[str, Any], list[str]], str]


class LogLine(str):
    """A line of the table's log: the template asks each line ``line.said`` (a phrase, not an
    event: ``games.presentation.phrases.SaidLine``). Every line answers it, so the template's
    lookup never fails (a plain ``str`` made Django try three lookups and ``dir()`` per line,
    60 times a render).

    ``key`` names the line for the whole match, the same in every render for the same reader
    (a full table, a move's answer, a watcher's shared table), so the page announces each line
    once however often it is rendered, and a line the same words as another is still its own
    (static/js/announce.js, docs/accessibility.md). ``own``: the reader's own act (the first
    event of a move they chose, a phrase they said), which their press already answered."""

    said = False
    key = ""
    own = False

    @classmethod
    def keyed(cls, text: str, key: str, own: bool = False) -> LogLine:
        line = cls(text)
        line.key = key
        line.own = own
        return line


# (view, names, log): the log is there for the facts a view read back from storage lacks.
TableOf = Callable[[dict[str, Any], list[str], "Sequence[LogEntry]"], dict[str, Any]]


def move_json(move: dict[str, Any]) -> str:
    """A move as the form posts it: canonical JSON, so equal moves compare equal as text."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


@dataclass
class MoveButton:
    move: dict[str, Any]
    label: str  # short, shown beside the card it concerns
    aria_label: str = ""  # the whole move in words, for screen readers and the bar
    place: str = ""  # the card it hangs on, by place ("Card 2 of 5 in your hand"): its name says it
    command: str = ""  # what text mode types for it ("play 2", "draw"): ``name_commands``

    def __post_init__(self) -> None:
        self.aria_label = self.aria_label or self.label

    @property
    def name(self) -> str:
        """The button's accessible name: what it is (its card, by place) and what it does."""
        return f"{self.place}: {self.aria_label}" if self.place else self.aria_label

    @property
    def json(self) -> str:
        return move_json(self.move)


@dataclass
class CardSlot:
    face: dict[str, Any]
    moves: list[MoveButton] = field(default_factory=list)
    highlight: bool = False
    why: str = ""  # why a click on this card does nothing now (``explain_clicks``)
    why_id: str = ""  # the id of the words that say it, for ``aria-describedby``
    place: str = ""  # where it lies, by number ("Card 2 of 5 in your hand"): ``attach``
    number: int = 0  # its place counted from 1, as text mode and the digit keys name it

    @property
    def name(self) -> str:
        """The card's accessible name: where it lies and what it is."""
        label = self.face["aria_label"]
        return f"{self.place}: {label}" if self.place else label


# (move, view, names) -> (short label, the whole move in words)
MoveLabel = Callable[[dict[str, Any], dict[str, Any], list[str]], tuple[str, str]]


@dataclass(frozen=True)
class GameBuilder:
    """How one game is presented: its table from a view, its events and moves in words, a
    card's face from its code and the template that draws its board (each card face names the
    template that draws it)."""

    table: TableOf
    event_line: EventLine
    board_template: str
    face: Callable[[str], dict[str, Any]]
    move_label: MoveLabel


def seat_name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Someone")


def and_join(items: list[str]) -> str:
    """ "ann, bea and cal", in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(some)s and %(last)s") % {"some": ", ".join(items[:-1]), "last": items[-1]}


def turns_text(count: int) -> str:
    """ "1 turn", "2 turns"."""
    return ngettext("%(count)d turn", "%(count)d turns", count) % {"count": count}


def more_turns_text(count: int) -> str:
    """ "1 more turn", "2 more turns"."""
    return ngettext("%(count)d more turn", "%(count)d more turns", count) % {"count": count}


def cards_text(count: int) -> str:
    """ "1 card", "2 cards"."""
    return ngettext("%(count)d card", "%(count)d cards", count) % {"count": count}


def badge(text: str, css: str = "badge") -> dict[str, str]:
    return {"text": text, "css": css}


def players(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """One entry per seat with what both games show of it; each game adds its own facts."""
    seat = view.get("seat")
    awaiting = list(view.get("awaiting") or [])
    over = bool(view.get("over"))
    hand_counts = view.get("hand_counts") or [0] * len(names)
    result = []
    for index, name in enumerate(names):
        is_me = index == seat
        awaited = index in awaiting and not over
        result.append(
            {
                "index": index,
                "name": name,
                "label": _("%(name)s (you)") % {"name": name} if is_me else name,
                "css": " ".join(c for c, on in (("me", is_me), ("awaited", awaited)) if on),
                "badges": [badge(_("to move"), css="badge turn")] if awaited else [],
                "is_me": is_me,
                "awaited": awaited,
                "hand_count": hand_counts[index],
                "hand_words": hand_words(name, hand_counts[index], is_me),
            }
        )
    return result


def hand_words(name: str, count: int, is_me: bool) -> str:
    """A seat's hand as a screen reader hears it: its count, and for another seat's hand that
    its cards are face down (the only thing the page may say of them)."""
    if is_me:
        return _("Your hand: %(cards)s") % {"cards": cards_text(count)}
    return _("%(name)s’s hand: %(cards)s, face down") % {
        "name": name,
        "cards": cards_text(count),
    }


def table_common(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The keys every game's table has; the game's builder fills in hand and bar moves."""
    seat = view.get("seat")
    awaiting = list(view.get("awaiting") or [])
    over = bool(view.get("over"))
    return {
        "seat": seat,
        "players": players(view, names),
        "awaiting_names": [names[i] for i in awaiting],
        "your_turn": seat is not None and seat in awaiting and not over,
        "over": over,
        "outcome_text": outcome_text(view.get("outcome"), names) if over else "",
        "hand": [],
        "bar_moves": [],
        "events": [],
    }


def outcome_text(outcome: dict[str, Any] | None, names: list[str]) -> str:
    if not outcome:
        return _("The match is over.")
    winners = [names[i] for i in outcome.get("winners") or []]
    if outcome.get("draw") and winners:
        return _("A shared win: %(names)s.") % {"names": and_join(winners)}
    if outcome.get("draw") or not winners:
        return _("The match ended in a draw.")
    return _("%(names)s won.") % {"names": and_join(winners)}


# Where a row of cards lies, for the names of its cards and their text-mode commands
# (docs/accessibility.md, "Names"): the words of a card's place, and the word a command puts
# before its number (the hand's: the move's own type, "play 2"; the discards': "take discard 2").
# The commands are typed, so they stay the same in every language (docs/accessibility.md).
PLACES = {
    "hand": (gettext_lazy("Card %(n)d of %(count)d in your hand"), ""),
    "discard": (gettext_lazy("Discard %(n)d of %(count)d"), "take discard"),  # i18n: data
}


def attach(
    moves: list[dict[str, Any]],
    slots: list[CardSlot],
    slot_of: Callable[[dict[str, Any]], int | None],
    label_of: Callable[[dict[str, Any]], tuple[str, str]],
    where: str = "hand",
) -> list[MoveButton]:
    """Hang each legal move on the card slot it concerns; the rest go to the action bar.
    Every slot is named by its place in ``where`` (``PLACES``), and every move gets the command
    text mode types for it: a slot's move its type (or the place's word) and the slot's number,
    a bar move its type (``name_commands``)."""
    place, verb = PLACES[where]
    for n, slot in enumerate(slots, start=1):
        slot.place = str(place) % {"n": n, "count": len(slots)}
        slot.number = n
    bar: list[MoveButton] = []
    for move in moves:
        target = slot_of(move)
        button = MoveButton(move, *label_of(move))
        if target is None or not 0 <= target < len(slots):
            button.label = button.aria_label
            bar.append(button)
        else:
            slot = slots[target]
            button.place = slot.place
            button.command = f"{verb or move.get('type')} {slot.number}"
            slot.moves.append(button)
            slot.highlight = True
    name_commands(bar)
    return bar


def name_commands(bar: list[MoveButton]) -> None:
    """A bar move's command is the engine's name of its type ("draw", "pass"); where several
    share one (a vote's two answers), each adds its number among them ("vote 1", "vote 2")."""
    kinds = [str(button.move.get("type")) for button in bar]
    seen: dict[str, int] = {}
    for button, kind in zip(bar, kinds, strict=True):
        if kinds.count(kind) == 1:
            button.command = kind
        else:
            seen[kind] = seen.get(kind, 0) + 1
            button.command = f"{kind} {seen[kind]}"


def first_slot(slots: list[CardSlot], code: str | None) -> int | None:
    for i, slot in enumerate(slots):
        if slot.face["code"] == code:
            return i
    return None


AUTO_NOTES = {
    "deadline": gettext_lazy("The greedy bot played for %(name)s (turn deadline passed)."),
    "vote_closed": gettext_lazy(
        "%(name)s’s missing vote was counted as accepting (the vote closed)."
    ),
    "resigned": gettext_lazy("The greedy bot played for %(name)s (%(name)s resigned)."),
    "played_out": gettext_lazy("The greedy bot played for %(name)s (the table's time ran out)."),
}

# A resignation is the site's entry, not the engine's (docs/leaving.md): its one event is
# worded here for every game, and its entry needs no note beside it.
RESIGN_LINES = {
    False: gettext_lazy("%(name)s resigned; the greedy bot plays that seat."),
    True: gettext_lazy("%(name)s resigned, which ends the match."),
}


def resign_line(event: dict[str, Any], names: list[str]) -> str:
    line = RESIGN_LINES[bool(event.get("ends"))]
    return str(line) % {"name": seat_name(names, event.get("seat"))}


def auto_note(auto: str, name: str) -> str:
    return str(AUTO_NOTES[auto]) % {"name": name}


def event_lines(
    log: Sequence[LogEntry],
    names: list[str],
    line_of: EventLine,
    limit: int | None = EVENT_LOG_LENGTH,
    reader: int | None = None,
) -> list[str]:
    """The latest ``limit`` events of ``log`` (all of them for ``None``) in words, oldest first,
    each entry's auto note just after the line of its first event (so the newest-first log
    shows the note right above that move). An event with nothing to say to this viewer still
    counts.

    Each line is keyed by its entry's ply and its event's place counted from the entry's end
    (an entry cut short loses events from its start, so the count from the end stays); the
    first event of a move ``reader``'s seat chose is their ``own`` (``LogLine``)."""
    noted: list[tuple[dict[str, Any], str, str, bool]] = []  # (event, note after it, key, own)
    for entry in log:
        note = ""
        resigning = bool(entry.events) and entry.events[0].get("type") == "resign"
        if entry.auto and entry.seat is not None and not resigning:
            note = auto_note(entry.auto, seat_name(names, entry.seat))
        chosen = reader is not None and entry.seat == reader and not entry.auto
        last = len(entry.events) - 1
        # Every engine step emits at least one event, so the note always has a line to follow.
        noted.extend(
            (event, note if i == 0 else "", f"{entry.ply}.{last - i}", chosen and i == 0)
            for i, event in enumerate(entry.events)
        )
    lines: list[str] = []
    for event, note, key, own in noted if limit is None else noted[-limit:]:
        said = resign_line(event, names) if event.get("type") == "resign" else line_of(event, names)
        if said:
            lines.append(LogLine.keyed(said, key, own))
        if note:
            lines.append(LogLine.keyed(note, f"{key}n"))
    return lines


def generic_event_line(event: dict[str, Any], names: list[str]) -> str:
    """A fallback that still names the seat, for an event type a game module does not know yet."""
    who = seat_name(names, event.get("seat"))
    details = ", ".join(
        f"{k} {v}" for k, v in event.items() if k not in {"type", "seat"} and v is not None
    )
    return f"{who}: {event.get('type', '?')}" + (f" ({details})" if details else "")  # i18n: data


def explain_clicks(table: dict[str, Any], refusals: dict[str, str]) -> None:
    """Give every card and pile the seat may click but that offers no move now its reason,
    so a click answers in words (``static/js/why_not.js``): the engine's own refusal
    (``refusals``: the view's ``Engine.refusals``, put there by the table's selector, worded by
    ``games.presentation.reasons.refusals_words``), or when it is not the seat's turn, who is
    awaited. The hand's slots are keyed by card code, the discards' by ``discard:<i>``, the
    pack (a table with ``pack_count``) by ``pack``."""
    if table.get("seat") is None or table.get("over"):
        return
    if table.get("round_over"):
        general = _("This round is over; the next one is being dealt.")
    elif not table.get("your_turn"):
        awaited = table.get("awaiting_names") or []
        general = (
            _("It is not your turn: waiting for %(names)s.") % {"names": and_join(awaited)}
            if awaited
            else ""
        )
    else:
        general = ""
    keyed = [(f"hand-{i}", slot.face["code"], slot) for i, slot in enumerate(table["hand"])]
    keyed += [(f"discard-{i}", f"discard:{i}", s) for i, s in enumerate(table.get("discards", []))]
    for html_id, key, slot in keyed:
        if not slot.moves:
            slot.why = general or refusals.get(key, "")
            slot.why_id = f"why-{html_id}" if slot.why else ""
    if "pack_count" in table and table.get("pack_move") is None:
        table["pack_why"] = general or refusals.get("pack", "")
