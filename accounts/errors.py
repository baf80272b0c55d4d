"""The one refusal of ``accounts``' services (docs/accounts.md): a follow, block, challenge
choice, export or push subscription that may not be, changing nothing."""

from __future__ import annotations


class AccountRefused(Exception):
    """What was asked may not be: ``message`` says why, to the person; ``status`` is the HTTP
    status a view answers with."""

    def __init__(self, message: str, status: int = 409) -> None:
        # A lazy message (a module's constant) is worded now, in the language of the request.
        message = str(message)
        super().__init__(message)
        self.message = message
        self.status = status
