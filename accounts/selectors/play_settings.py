"""How the table behaves for a person, read (docs/accounts.md, "Play settings"): whether moves
ask to be confirmed and whether their move takes them to the next table waiting for them. No
row means the defaults."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import PlaySettings

Confirm = PlaySettings.Confirm


@dataclass(frozen=True)
class PlayChoices:
    """The person's play settings as data (the defaults when they never chose)."""

    confirm_moves: str = Confirm.AUTO  # auto: on a touch screen (a coarse pointer) only
    next_table_at_once: bool = False
    keyboard_shortcuts: bool = False  # off until asked for (WCAG 2.1.4; docs/accessibility.md)
    text_mode: bool = False

    @property
    def confirm_label(self) -> str:
        return Confirm(self.confirm_moves).label


def play_choices(user_id: int) -> PlayChoices:
    """``user_id``'s play settings (one query; no row: the defaults)."""
    found = (
        PlaySettings.objects.filter(user_id=user_id)
        .values_list("confirm_moves", "next_table_at_once", "keyboard_shortcuts", "text_mode")
        .first()
    )
    if found is None:
        return PlayChoices()
    return PlayChoices(*found)
