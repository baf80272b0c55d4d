"""Leaving a match in words (docs/leaving.md): the table's links to resign, cancel or leave, the
notes on who resigned, and each confirmation page's account of what will happen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    RESIGN: gettext_lazy("Resign\u2026"),
    CANCEL: gettext_lazy("Cancel this match\u2026"),
    LEAVE: gettext_lazy("Leave this table\u2026"),
}


def leave_words(options: LeaveOptions, names: list[str]) -> LeaveWords:
    """The table's part about leaving, for the viewer's ``options``."""
    allowed = {RESIGN: options.may_resign, CANCEL: options.may_cancel, LEAVE: options.may_leave}
    return LeaveWords(
        links=[
            LeaveLink(action, URL_NAMES[action], str(LINK_LABELS[action]))
            for action, ok in allowed.items()
            if ok
        ],
        resigned=[str(RESIGN_LINES[False]) % {"name": names[seat]} for seat in options.resigned],
        cancelled=options.cancelled,
    )


def _resign_lines(options: LeaveOptions, names: list[str]) -> list[str]:
    left = [names[seat] for seat in options.playing]
    lines = [_("You lose this match, ranked below everyone still playing.")]
    if options.resign_ends:
        if len(left) == 1:
            ends = _("Only %(names)s is left playing, so the match ends at once: %(names)s wins.")
        else:
            ends = _(
                "Only %(names)s are left, and no person among them, so the match ends at once:"
                " %(names)s share first place."
            )
        lines.append(ends % {"names": and_join(left)})
        lines.append(_("The result is recorded and rated like any finished match."))
    else:
        lines.append(
            _(
                "The others play on: from now on the greedy bot plays your seat, as it does"
                " when a turn deadline passes. The result is rated when the match ends."
            )
        )
    lines.append(_("You cannot take a resignation back."))
    return lines


REFUSALS = {
    RESIGN: gettext_lazy(
        "Only a seated person who has not resigned may resign, and only while the match is in play."
    ),
    CANCEL: gettext_lazy(
        "Only the person who created this match may cancel it, and only while it waits for players."
    ),
    LEAVE: gettext_lazy(
        "Only a seated person other than the creator may leave a match, and only while it"
        " waits for players; once it has begun, you may resign."
    ),
}


def confirm_words(action: str, options: LeaveOptions, names: list[str]) -> ConfirmWords:
    """The confirmation page of ``action`` (``RESIGN``, ``CANCEL`` or ``LEAVE``)."""
    if action == RESIGN:
        title, button = _("Resign this match?"), _("Yes, resign")
        allowed = options.may_resign
        lines = _resign_lines(options, names) if allowed else []
    elif action == CANCEL:
        title, button = _("Cancel this match?"), _("Yes, cancel the match")
        allowed = options.may_cancel
        lines = [
            _(
                "The match is called off before it begins. It stays in the lists of everyone"
                " seated at it, marked as cancelled, and the invite link says so."
            ),
            _("You cannot take this back; you may create a new match."),
        ]
    else:
        title, button = _("Leave this table?"), _("Yes, leave")
        allowed = options.may_leave
        lines = [
            _(
                "You give up your seat, and someone else may take it. You may sit down again"
                " with the invite link while a seat is free."
            )
        ]
    return ConfirmWords(
        action=action,
        url_name=URL_NAMES[action],
        title=title,
        lines=lines if allowed else [],
        button=button,
        allowed=allowed,
        refusal="" if allowed else str(REFUSALS[action]),
    )
