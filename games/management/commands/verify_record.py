"""``python manage.py verify_record FILE``: check a match record by replaying it (docs/records.md).

The work is the pure ``games.engines.records.record_verify``, which needs only the engines, so
``python -m games.verify_record FILE`` does the same without the site.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engines.records import record_verify_text
from games.verify_record import record_read


class Command(BaseCommand):
    help = (
        "Check a match record (record.json): the seed commitment, every entry replayed from the"
        " seed with its hashes, and the outcome. Exits 1 at the first mismatch, 2 for a record"
        " that cannot be read or checked."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record's JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = record_read(path)
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror or exc}", returncode=2) from None
        report = record_verify_text(text)
        *checks, verdict = report.lines()
        for line in checks:
            self.stdout.write(line)
        if not report.ok:
            raise CommandError(verdict, returncode=report.exit_code)
        self.stdout.write(self.style.SUCCESS(verdict))
