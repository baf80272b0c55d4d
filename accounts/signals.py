"""What ``accounts`` tells the capabilities above it (docs/accounts.md, "Friends and blocks",
"Closing and deleting" and "Your data").

``accounts`` is the person and imports no games module but ``games.queue``: what a person's
block, deletion or export means for matches is ``games``' to say, by listening here
(``games.apps`` connects the receivers).

- ``person_blocked``: sent inside the blocking transaction with ``blocker_id`` and
  ``blocked_id`` (pending challenges and rematch offers between the two are declined).
- ``account_closing``: sent inside the closing transaction with ``user_id`` (a closed account
  leaves the competitions' ladders; games keeps its matches, as a closure may be undone).
- ``account_leaving``: sent with ``user`` before an account is deleted, outside any
  transaction, and again when a deletion cut short is finished: the person leaves every match
  still going, one transaction each.
- ``account_deleting``: sent inside the deletion's transaction, after the user row is
  anonymised, with ``user_id``, ``old_name`` and ``new_name``: the rows about the person's
  play go or are renamed.
- ``export_sections``: sent with ``user_id`` while a data export is written; each receiver
  returns a dict of the file's top-level sections it contributes.
"""

from __future__ import annotations

from django.dispatch import Signal

person_blocked = Signal()
account_closing = Signal()
account_leaving = Signal()
account_deleting = Signal()
export_sections = Signal()
