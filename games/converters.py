"""The site's URL converters: a path parameter that can never name a row is refused by the
resolver (a 404) before any view or query runs.

``match_id``: digits within the range of the key column (a 64-bit integer). Past it no match
can exist, and SQLite cannot even bind the number: the table's poll and the move answered
``/matches/<2**70>/`` with a 500 (``OverflowError``), found by tests/integration/test_fuzz.py.
"""

from __future__ import annotations

from django.urls import register_converter


class MatchIdConverter:
    regex = "[0-9]{1,19}"
    largest = 2**63 - 1

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > self.largest:
            raise ValueError(f"{value} is past every match id")  # the resolver's 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(MatchIdConverter, "match_id")
