"""``python -m games.verify_record FILE``: check a Parlour match record without the site.

The command line of the record verifier (docs/records.md): it reads the record from a file, or
standard input for ``-``, checks it with the pure ``games.engines.records.record_verify_text``
and prints each check. Standard library and the engines only: someone holding a downloaded
record and a checkout needs no Django settings, database or broker to run it.
``python manage.py verify_record FILE`` runs the same check as a Django command.

Exit status: 0 when the record holds, 1 at the first mismatch, 2 when it cannot be read or
checked.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from games.engines.records import record_verify_text

PROG = "python -m games.verify_record"


def record_read(path: str) -> str | bytes:
    """A record's text from ``path``, or standard input for ``-``; ``OSError`` if unreadable."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def main(argv: Sequence[str] | None = None) -> int:
    """Check the record named on the command line, print each check, and return the exit
    status (0 holds, 1 mismatch, 2 unreadable or uncheckable)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Check a Parlour match record (docs/records.md) by replaying it.",
    )
    parser.add_argument("file", help="the record's JSON file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        text = record_read(args.file)
    except OSError as exc:
        print(f"REFUSED  Cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    report = record_verify_text(text)
    for line in report.lines():
        print(line)
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
