"""``manage.py backup`` and ``manage.py verify_matches`` on the test database (docs/operations.md).

The backup is read by another connection (SQLite's backup API, or pg_dump as another process),
so these tests commit their writes (``transaction=True``). The PostgreSQL ones need pg_dump and
pg_restore and a database at ``DATABASE_URL``: skipped without, failed under REQUIRE_SERVICES=1.
The whole cycle while the site runs is ``tests/faults/test_backup_restore.py``.
"""

from __future__ import annotations

import io
import os
import random
import sqlite3
import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from psycopg.conninfo import conninfo_to_dict

from core.management.commands.backup import postgres_conninfo, sqlite_copy
from games.models import Match, Move, Seat
from games.services import match_create
from tests import factories
from tests.stack.processes import pg_binary

pytestmark = pytest.mark.django_db(transaction=True)


def _matches() -> tuple[Match, Match, Match]:
    """A finished match, one half played, and one waiting for a second player."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    finished = factories.play_random(
        factories.match_make(players=[ann, bea], seed=11), random.Random(1)
    )
    running = factories.play_random(
        factories.match_make(game="gulliver", players=[ann, bea], seed=12),
        random.Random(2),
        plies=9,
    )
    waiting = match_create(game="faraway", num_players=2, created_by=ann, seed=13)
    assert finished.status == Match.Status.FINISHED and running.status == Match.Status.ACTIVE
    return finished, running, waiting


def _verify() -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("verify_matches", verbosity=2, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _verify_fails() -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("verify_matches", stdout=io.StringIO(), stderr=err)
    assert refused.value.returncode == 1
    return err.getvalue() + str(refused.value)


def _backup(tmp_path: Path) -> Path:
    out = io.StringIO()
    call_command("backup", output_dir=str(tmp_path / "backups"), stdout=out)
    written = Path(out.getvalue().strip())
    assert written.parent == tmp_path / "backups" and written.exists()
    assert not list(written.parent.glob("*.partial"))
    return written


def _chains() -> list[tuple[int, int, str]]:
    return list(
        Move.objects.order_by("match_id", "ply").values_list("match_id", "ply", "chain_hash")
    )


# -- verify_matches ------------------------------------------------------------------------------


def test_every_match_holds_finished_running_and_waiting():
    finished, running, waiting = _matches()
    out, err = _verify()
    assert err == ""
    for match in (finished, running, waiting):
        assert f"ok    match {match.pk} ({match.game}, {match.status}," in out
    entries = Move.objects.count()
    assert f"All 3 match(es) hold: {entries} entries replayed." in out


def test_a_changed_hash_is_named_with_its_match_and_entry():
    finished, running, _ = _matches()
    Move.objects.filter(match=running, ply=4).update(chain_hash="0" * 64)
    found = _verify_fails()
    assert f"match {running.pk} (gulliver, active, 9 entries): entry 4 does not replay" in found
    assert f"match {finished.pk}" not in found
    assert "1 of 3 match(es) do not hold" in found


def test_a_lost_move_is_found():
    _, running, _ = _matches()
    Move.objects.filter(match=running, ply=5).delete()
    found = _verify_fails()
    assert f"match {running.pk}" in found and "(missing ply 5)" in found


def test_a_log_cut_short_with_its_match_row_still_ahead_is_found():
    """A restore that kept the match row but not its newest moves."""
    _, running, _ = _matches()
    Move.objects.filter(match=running, ply=9).delete()
    assert "at ply 9 but its log holds 8 entries" in _verify_fails()


def test_a_state_snapshot_that_is_not_where_the_log_leads_is_found():
    _, running, _ = _matches()
    other = Match.objects.exclude(pk=running.pk).get(status=Match.Status.FINISHED)
    Match.objects.filter(pk=running.pk).update(state=other.state)
    assert "the state snapshot is not where the log leads" in _verify_fails()


def test_a_changed_seed_breaks_the_commitment():
    _, running, _ = _matches()
    Match.objects.filter(pk=running.pk).update(seed=running.seed + 1)
    assert f"match {running.pk} (gulliver, active, 9 entries): the seed commitment" in (
        _verify_fails()
    )


def test_a_finished_match_is_checked_as_its_record_by_the_verifier():
    """What only the record holds (the stored standings) is checked too."""
    finished, _, _ = _matches()
    Seat.objects.filter(match=finished, index=0).update(score=999)
    found = _verify_fails()
    assert f"match {finished.pk} (faraway, finished," in found
    assert "its record does not verify: Outcome: seat 0's standing differs" in found


def test_no_match_at_all_holds():
    out, _ = _verify()
    assert "All 0 match(es) hold: 0 entries replayed." in out


# -- backup on SQLite ----------------------------------------------------------------------------


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backup")
def test_the_sqlite_backup_is_a_whole_single_file_copy(tmp_path):
    _matches()
    written = _backup(tmp_path)
    assert written.name.startswith("parlour-") and written.suffix == ".sqlite3"
    assert not Path(f"{written}-wal").exists()
    copy = sqlite3.connect(written)
    try:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = copy.execute(
            "SELECT match_id, ply, chain_hash FROM games_move ORDER BY match_id, ply"
        ).fetchall()
        heads = copy.execute(
            "SELECT id, head_hash, version FROM games_match ORDER BY id"
        ).fetchall()
    finally:
        copy.close()
    assert rows == _chains() and len(rows) > 9
    assert heads == list(Match.objects.order_by("pk").values_list("pk", "head_hash", "version"))


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backup")
def test_two_backups_in_a_row_are_two_files(tmp_path):
    first, second = _backup(tmp_path), _backup(tmp_path)
    assert first != second and first.exists() and second.exists()


def test_an_output_dir_that_cannot_be_made_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(CommandError, match="Cannot write the backup in"):
        call_command("backup", output_dir=str(blocker / "backups"), stdout=io.StringIO())


# -- backup on PostgreSQL ------------------------------------------------------------------------


@pytest.fixture
def restored_database():
    """A fresh, empty database beside the test database; dropped afterwards."""
    import psycopg

    settings_dict = connection.settings_dict
    name = f"{settings_dict['NAME']}_restored"
    params = {
        "host": settings_dict.get("HOST") or None,
        "port": settings_dict.get("PORT") or None,
        "user": settings_dict.get("USER") or None,
        "password": settings_dict.get("PASSWORD") or None,
    }
    params = {k: v for k, v in params.items() if v}
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name, params
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.services("postgres")
def test_the_postgres_dump_restores_into_a_fresh_database(tmp_path, restored_database):
    import psycopg

    _matches()
    written = _backup(tmp_path)
    assert written.suffix == ".dump" and written.read_bytes()[:5] == b"PGDMP"  # custom format
    name, params = restored_database
    pg_restore = pg_binary("pg_restore")
    assert pg_restore, "pg_restore is not installed"
    argv = [pg_restore, "--clean", "--if-exists", "--no-owner", "--dbname", name, str(written)]
    for option, key in (("--host", "host"), ("--port", "port"), ("--username", "user")):
        if key in params:
            argv += [option, str(params[key])]
    env = {"PGPASSWORD": params["password"]} if "password" in params else {}
    done = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    with psycopg.connect(dbname=name, **params) as restored:
        rows = restored.execute(
            "SELECT match_id, ply, chain_hash FROM games_move ORDER BY match_id, ply"
        ).fetchall()
        migrations = restored.execute("SELECT count(*) FROM django_migrations").fetchone()[0]
    assert rows == _chains() and len(rows) > 9
    from django.db.migrations.recorder import MigrationRecorder

    assert migrations == MigrationRecorder.Migration.objects.count()


def test_a_missing_sqlite_file_is_an_error_not_an_empty_backup(tmp_path):
    missing = tmp_path / "gone.sqlite3"
    with pytest.raises(CommandError, match="Cannot open the database"):
        sqlite_copy(str(missing), tmp_path / "copy.sqlite3")
    assert not missing.exists()


def test_pg_dump_connects_as_the_site_does_without_the_password_on_its_command_line():
    conninfo = postgres_conninfo(
        {
            "NAME": "parlour",
            "HOST": "db.example.org",
            "PORT": 5433,
            "USER": "site",
            "PASSWORD": "s3cret",
            "OPTIONS": {"sslmode": "require", "pool": True},
        }
    )
    assert conninfo_to_dict(conninfo) == {
        "dbname": "parlour",
        "host": "db.example.org",
        "port": "5433",
        "user": "site",
        "sslmode": "require",
    }
