"""What the competitions tell whoever wants to tell people about them (docs/competitions.md,
"Cups": the notices, mails and pushes of events are built on these). Each is sent after the
commit of the change it names, never inside it, so a receiver reads what was written.

- ``cup_started``: an occurrence of a cup started, with ``event_id`` and ``user_ids`` (the people
  seated: everyone whose first table or bye was just paired).
- ``cup_round_paired``: a round was paired, with ``event_id``, ``round`` (1 the first) and
  ``user_ids`` (everyone given a table or a bye in it).
- ``event_finished``: a league or a cup ended, with ``event_id`` and ``kind``.
"""

from __future__ import annotations

from django.dispatch import Signal

cup_started = Signal()
cup_round_paired = Signal()
event_finished = Signal()
