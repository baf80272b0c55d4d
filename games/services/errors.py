"""The one error family of the service layer: a refusal a player can read, with its status."""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _


class Rejected(Exception):
    """A request the rules or the match's state refuse; nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        # A lazy message (a module's constant) is worded now, in the language of the request.
        message = str(message)
        super().__init__(message)
        self.message = message
        self.status = status


class MoveRejected(Rejected):
    """A move that was not played: stale version (409), not your turn (409), illegal (422)."""


class StaleVersion(MoveRejected):
    """The match moved on (or ended) since the version the caller saw: a late or repeated
    request. Tasks swallow exactly this; people get the table as it now stands."""


class JoinRejected(Rejected):
    """A seat that could not be taken."""


class OnHoliday(Rejected):
    """A deadline's move for a person who is on holiday in a match that allows holidays: not
    played (docs/accounts.md, "Holidays"). ``until`` is when the holiday ends."""

    def __init__(self, until: datetime.datetime) -> None:
        super().__init__(_("That player is on holiday: their deadline waits."), status=409)
        self.until = until
