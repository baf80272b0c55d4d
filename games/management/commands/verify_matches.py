"""``python manage.py verify_matches``: replay every match in this database against its hash
chain (``games.selectors.chain_checks`` says what is checked), after a restore above all.

Prints one line per match that fails (``-v 2``: per match), then a summary. Exit status 0 when
every match holds, 1 when any does not.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.presentation.chain_checks import checks_summary, match_check_line
from games.selectors.chain_checks import matches_checked


class Command(BaseCommand):
    help = (
        "Check every match in the database: its moves numbered without a gap, each replayed"
        " to its stored hash, the head hash, the state snapshot, the seed commitment, and a"
        " finished match's whole record as the stand-alone verifier checks it."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checked = failed = entries = 0
        for check in matches_checked():
            checked += 1
            entries += check.entries
            if not check.ok:
                failed += 1
                self.stderr.write(match_check_line(check))
            elif options["verbosity"] >= 2:
                self.stdout.write(match_check_line(check))
        summary = checks_summary(checked, failed, entries)
        if failed:
            raise CommandError(summary, returncode=1)
        self.stdout.write(self.style.SUCCESS(summary))
