"""What ``games`` tells the capabilities above it (``competitions``), which it never imports.

- ``match_finished``: sent by the one finish (``games.services._store.match_finish``) inside
  the finishing transaction, the match row locked, after each seat's result is stored, with
  ``match`` and ``seats``. A receiver writes in that transaction (the ladder settles its
  challenge: docs/competitions.md, "Ladder"), so the finish and what it means commit together.
"""

from __future__ import annotations

from django.dispatch import Signal

match_finished = Signal()
