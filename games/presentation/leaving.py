"""Leaving a match in words (docs/leaving.md): the table's links to resign, cancel or leave, the
notes on who resigned, and each confirmation page's account of what will happen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.presentation.common import RESIGN_LINES, and_join

if TYPE_CHECKING:
    from games.selectors.leaving import LeaveOptions

# The actions, each with the URL name of its confirmation page and form.
RESIGN, CANCEL, LEAVE = "resign", "cancel", "leave"
URL_NAMES = {RESIGN: "match_resign", CANCEL: "match_cancel", LEAVE: "match_leave"}


@dataclass(frozen=True)
class LeaveLink:
    """A link on the table to an action's confirmation page."""

    action: str
    url_name: str
    label: str


@dataclass(frozen=True)
class LeaveWords:
    """What the table says about leaving: the links the viewer may follow, a line for each
    resignation so far, and whether the match was cancelled."""

    links: list[LeaveLink] = field(default_factory=list)
    resigned: list[str] = field(default_factory=list)
    cancelled: bool = False


@dataclass(frozen=True)
class ConfirmWords:
    """An action's confirmation page: its title, what will happen (a paragraph a line), the
    button, and ``allowed`` false (with ``refusal`` saying why) when the viewer may not."""

    action: str
    url_name: str
    title: str
    lines: list[str]
    button: str
    allowed: bool
    refusal: str = ""


LINK_LABELS = {
    RESIGN: "Resign\u2026",
    CANCEL: "Cancel this match\u2026",
    LEAVE: "Leave this table\u2026",
}


def leave_words(options: LeaveOptions, names: list[str]) -> LeaveWords:
    """The table's part about leaving, for the viewer's ``options``."""
    allowed = {RESIGN: options.may_resign, CANCEL: options.may_cancel, LEAVE: options.may_leave}
    return LeaveWords(
        links=[
            LeaveLink(action, URL_NAMES[action], LINK_LABELS[action])
            for action, ok in allowed.items()
            if ok
        ],
        resigned=[str(RESIGN_LINES[False]) % {"name": names[seat]} for seat in options.resigned],
        cancelled=options.cancelled,
    )


def _resign_lines(options: LeaveOptions, names: list[str]) -> list[str]:
    left = [names[seat] for seat in options.playing]
    lines = ["You lose this match, ranked below everyone still playing."]
    if options.resign_ends:
        ending = f"{left[0]} wins" if len(left) == 1 else f"{and_join(left)} share first place"
        who = "is left playing" if len(left) == 1 else "are left, and no person among them"
        lines.append(f"Only {and_join(left)} {who}, so the match ends at once: {ending}.")
        lines.append("The result is recorded and rated like any finished match.")
    else:
        lines.append(
            "The others play on: from now on the greedy bot plays your seat, as it does when "
            "a turn deadline passes. The result is rated when the match ends."
        )
    lines.append("You cannot take a resignation back.")
    return lines


REFUSALS = {
    RESIGN: "Only a seated person who has not resigned may resign, and only while the match "
    "is in play.",
    CANCEL: "Only the person who created this match may cancel it, and only while it waits "
    "for players.",
    LEAVE: "Only a seated person other than the creator may leave a match, and only while it "
    "waits for players; once it has begun, you may resign.",
}


def confirm_words(action: str, options: LeaveOptions, names: list[str]) -> ConfirmWords:
    """The confirmation page of ``action`` (``RESIGN``, ``CANCEL`` or ``LEAVE``)."""
    if action == RESIGN:
        title, button = "Resign this match?", "Yes, resign"
        allowed = options.may_resign
        lines = _resign_lines(options, names) if allowed else []
    elif action == CANCEL:
        title, button = "Cancel this match?", "Yes, cancel the match"
        allowed = options.may_cancel
        lines = [
            "The match is called off before it begins. It stays in the lists of everyone "
            "seated at it, marked as cancelled, and the invite link says so.",
            "You cannot take this back; you may create a new match.",
        ]
    else:
        title, button = "Leave this table?", "Yes, leave"
        allowed = options.may_leave
        lines = [
            "You give up your seat, and someone else may take it. You may sit down again "
            "with the invite link while a seat is free."
        ]
    return ConfirmWords(
        action=action,
        url_name=URL_NAMES[action],
        title=title,
        lines=lines if allowed else [],
        button=button,
        allowed=allowed,
        refusal="" if allowed else REFUSALS[action],
    )
