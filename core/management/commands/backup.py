"""``python manage.py backup``: a consistent copy of the site's database, taken while it runs.

One timestamped file in ``--output-dir`` (by default ``$PARLOUR_DATA_DIR/backups``), whichever
database ``DATABASE_URL`` names (docs/operations.md says how to restore and check each):

- PostgreSQL: ``pg_dump -Fc`` (custom format, for ``pg_restore``), ``parlour-<UTC time>.dump``.
  pg_dump reads one snapshot taken when it starts: everything committed before then is in it,
  nothing committed later is, and the site keeps writing meanwhile.
- SQLite (the embedded default): SQLite's online backup API, ``parlour-<UTC time>.sqlite3``,
  copied in one step inside one read transaction. In WAL mode that reader blocks no writer (the
  web process and the worker go on moving) and sees the database as it was when it began. The
  copy is switched out of WAL into a single self-contained file and its integrity checked.

The file is written under a ``.partial`` name and renamed when complete, so a file with the
final name is always a whole backup. Prints the file's path (the only line on standard output).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from psycopg.conninfo import make_conninfo


def pg_dump_binary() -> str | None:
    """``pg_dump`` from PATH, else the newest of Debian's versioned ones (a newer pg_dump
    reads an older server; an older one refuses a newer server)."""
    found = shutil.which("pg_dump")
    if found:
        return found
    for directory in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (directory / "pg_dump").exists():
            return str(directory / "pg_dump")
    return None


# Connection options of DATABASE_URL's query string that libpq (so pg_dump) reads as well.
LIBPQ_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "options")


def postgres_conninfo(database: dict[str, Any]) -> str:
    """The libpq connection string of a ``DATABASES`` entry, its password left out (pg_dump
    gets it in ``PGPASSWORD``, never on a command line others can read)."""
    params = {
        "dbname": database.get("NAME"),
        "host": database.get("HOST"),
        "port": database.get("PORT"),
        "user": database.get("USER"),
    }
    options = database.get("OPTIONS") or {}
    params |= {key: options[key] for key in LIBPQ_OPTIONS if key in options}
    return make_conninfo("", **{key: str(value) for key, value in params.items() if value})


def postgres_dump(database: dict[str, Any], target: Path, pg_dump: str | None = None) -> None:
    """``pg_dump -Fc`` of ``database`` (a ``DATABASES`` entry) into ``target``."""
    binary = pg_dump or pg_dump_binary()
    if binary is None:
        raise CommandError("pg_dump is not installed (Debian: apt-get install postgresql-client).")
    argv = [binary, "--format=custom", "--file", str(target)]
    argv += ["--dbname", postgres_conninfo(database)]
    env = {**os.environ}
    if database.get("PASSWORD"):
        env["PGPASSWORD"] = str(database["PASSWORD"])
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise CommandError(f"pg_dump failed ({done.returncode}): {done.stderr.strip()}")


def sqlite_copy(source: str, target: Path) -> None:
    """SQLite's online backup of the file ``source`` into ``target``: one step, one snapshot,
    then a single-file journal mode and an integrity check on the copy."""
    timeout = float(settings.DATABASES["default"].get("OPTIONS", {}).get("timeout", 20))
    try:
        # mode=rw: a missing file is an error, not a new empty database backed up as if whole.
        reader = sqlite3.connect(
            f"{Path(source).resolve().as_uri()}?mode=rw", uri=True, timeout=timeout
        )
    except sqlite3.Error as exc:
        raise CommandError(f"Cannot open the database {source}: {exc}") from None
    copy = sqlite3.connect(target)
    try:
        reader.backup(copy)  # pages=-1: the whole file inside one read transaction
        copy.execute("PRAGMA journal_mode=DELETE")
        verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.Error as exc:
        raise CommandError(f"The backup of {source} failed: {exc}") from None
    finally:
        copy.close()
        reader.close()
    if verdict != "ok":
        raise CommandError(f"The copy fails SQLite's integrity check: {verdict}")


def backup_write(directory: Path, *, alias: str = "default", now: datetime | None = None) -> Path:
    """Back the database ``alias`` up into a new timestamped file in ``directory``; its path."""
    database = connections[alias].settings_dict
    vendor = connections[alias].vendor
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S.%fZ")
    if vendor == "postgresql":
        final = directory / f"parlour-{stamp}.dump"
    elif vendor == "sqlite":
        final = directory / f"parlour-{stamp}.sqlite3"
    else:
        raise CommandError(f"No backup for a {vendor} database: PostgreSQL or SQLite only.")
    directory.mkdir(parents=True, exist_ok=True)
    partial = final.with_name(final.name + ".partial")
    try:
        if vendor == "postgresql":
            postgres_dump(database, partial)
        else:
            sqlite_copy(str(database["NAME"]), partial)
        os.replace(partial, final)
    finally:
        partial.unlink(missing_ok=True)
    return final


class Command(BaseCommand):
    help = (
        "Back the database up while the site runs: pg_dump -Fc for PostgreSQL, SQLite's online"
        " backup for the embedded default. Writes one timestamped file and prints its path."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output-dir",
            default=None,
            help="where to write the file (default: $PARLOUR_DATA_DIR/backups)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        directory = Path(options["output_dir"] or settings.DATA_DIR / "backups")
        try:
            written = backup_write(directory)
        except OSError as exc:
            raise CommandError(f"Cannot write the backup in {directory}: {exc}") from None
        self.stdout.write(str(written))
