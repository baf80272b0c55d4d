"""The name a deleted account goes by: "deleted player N", N its row id.

The row id is stable, unique and says nothing of the old name. No one can take the shape: a
space is not allowed in a username (Django's username validator, on registration and in the
admin), and ``name_refusal`` also refuses look-alikes such as "deleted_player_7" on
registration (and on any rename form that calls it), so a living player never passes for a
deleted one.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy

DELETED_PREFIX = "deleted player"
_LOOKALIKE = re.compile(r"^\s*deleted[\s._@+-]*player", re.IGNORECASE)
REFUSAL = gettext_lazy("Names beginning with “deleted player” are kept for deleted accounts.")


def deleted_name(user_id: int) -> str:
    """The name every page, record and export shows for the deleted account ``user_id``."""
    return f"{DELETED_PREFIX} {user_id}"


def name_refusal(name: str) -> str | None:
    """Why ``name`` may not be chosen by a living account (``None``: it may)."""
    return str(REFUSAL) if _LOOKALIKE.match(name or "") else None
