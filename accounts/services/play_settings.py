"""How the table behaves for a person, written (docs/accounts.md, "Play settings")."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.errors import AccountRefused
from accounts.models import PlaySettings


def play_settings_save(
    *,
    user_id: int,
    confirm_moves: str,
    next_table_at_once: bool,
    keyboard_shortcuts: bool = False,
    text_mode: bool = False,
) -> None:
    """Store the person's play settings (one row, made on the first save). A value that is not
    one of the choices is refused and changes nothing."""
    if confirm_moves not in PlaySettings.Confirm.values:
        raise AccountRefused(_("Choose when moves are confirmed from the offered answers."), 400)
    PlaySettings.objects.update_or_create(
        user_id=user_id,
        defaults={
            "confirm_moves": confirm_moves,
            "next_table_at_once": bool(next_table_at_once),
            "keyboard_shortcuts": bool(keyboard_shortcuts),
            "text_mode": bool(text_mode),
        },
    )
