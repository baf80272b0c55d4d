"""Settings as a deployment sees them: the production checklist, the SQLite options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from games.push.vapid import KEY_FILE, key_pair_new, key_pair_stored
from tests.push_service import unb64url

ROOT = Path(__file__).resolve().parents[2]


# A VAPID pair as an operator sets it (docs/notifications.md, "Web push"); made once here.
VAPID_PRIVATE, VAPID_PUBLIC = key_pair_new()
PRODUCTION_VAPID = {
    "PARLOUR_VAPID_PRIVATE_KEY": VAPID_PRIVATE,
    "PARLOUR_VAPID_PUBLIC_KEY": VAPID_PUBLIC,
}


def _production_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a production deployment that sets everything it must."""
    return {
        **os.environ,
        "PARLOUR_PRODUCTION": "1",
        "SECRET_KEY": "a-long-random-production-secret-for-the-check-" + "x" * 40,
        "ALLOWED_HOSTS": "parlour.example.org",
        "PARLOUR_DATA_DIR": str(tmp_path),
        **PRODUCTION_VAPID,
    }


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy(tmp_path):
    env = _production_env(tmp_path)
    # The test run's own conveniences are no part of a deployment.
    for name in ("DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    result = _manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {**os.environ, "PARLOUR_PRODUCTION": "1", "PARLOUR_DATA_DIR": str(tmp_path)}
    env.pop("SECRET_KEY", None)
    result = _manage(env, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_without_vapid_keys(tmp_path):
    env = _production_env(tmp_path)
    env.pop("PARLOUR_VAPID_PRIVATE_KEY")  # the public key alone is not enough
    result = _manage(env, "check")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "PARLOUR_VAPID_PRIVATE_KEY and PARLOUR_VAPID_PUBLIC_KEY must be set" in result.stderr
    assert not (tmp_path / KEY_FILE).exists()  # production never makes a pair of its own


def test_the_embedded_default_makes_one_vapid_pair_and_keeps_it(tmp_path):
    """Generated once into the data directory, readable by its owner only, the same pair for
    every later process; a working P-256 pair (the public key is the private key's)."""
    first = key_pair_stored(tmp_path)
    assert key_pair_stored(tmp_path) == first
    assert (tmp_path / KEY_FILE).stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [KEY_FILE]  # nothing left aside
    script = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); from django.conf import settings as s;"
        "print(s.PARLOUR_VAPID_PRIVATE_KEY, s.PARLOUR_VAPID_PUBLIC_KEY)"
    )
    env = {**os.environ, "PARLOUR_DATA_DIR": str(tmp_path)}
    for name in ("PARLOUR_VAPID_PRIVATE_KEY", "PARLOUR_VAPID_PUBLIC_KEY", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert tuple(result.stdout.split()) == first
    private, public = first
    key = ec.derive_private_key(int.from_bytes(unb64url(private), "big"), ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert point == unb64url(public) and len(point) == 65


def _connection_facts(tmp_path: Path, **extra: str) -> list[str]:
    """What a fresh process's default connection reports: vendor, journal mode, busy timeout
    and transaction mode (``-`` where the vendor has no such thing)."""
    env = {**os.environ, "PARLOUR_DATA_DIR": str(tmp_path), **extra}
    for name in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE"):
        if name not in extra:
            env.pop(name, None)
    script = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); from django.db import connection as c; c.ensure_connection();"
        "cur = c.cursor();"
        "sqlite = c.vendor == 'sqlite';"
        "print(c.vendor);"
        "print(cur.execute('PRAGMA journal_mode').fetchone()[0] if sqlite else '-');"
        "print(cur.execute('PRAGMA busy_timeout').fetchone()[0] if sqlite else '-');"
        "print(c.transaction_mode if sqlite else '-')"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_the_embedded_sqlite_holds_a_writer_beside_another(tmp_path):
    # WAL lets the web process read while the worker writes; a writer waits up to 20 s for the
    # lock, which IMMEDIATE transactions take at BEGIN.
    assert _connection_facts(tmp_path) == ["sqlite", "wal", "20000", "IMMEDIATE"]


@pytest.mark.services("postgres")
def test_postgresql_gets_none_of_the_sqlite_options(tmp_path):
    url = os.environ["DATABASE_URL"]
    assert _connection_facts(tmp_path, DATABASE_URL=url) == ["postgresql", "-", "-", "-"]


def _debug_in_a_fresh_process(tmp_path: Path, **extra: str) -> str:
    env = {**os.environ, "PARLOUR_DATA_DIR": str(tmp_path), **extra}
    for name in ("DEBUG", "PARLOUR_DEBUG", "PARLOUR_PRODUCTION", "DJANGO_SETTINGS_MODULE"):
        if name not in extra:
            env.pop(name, None)
    script = (
        "import django; from django.conf import settings; django.setup(); print(settings.DEBUG)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-1]


def test_debug_is_off_by_default_and_on_for_a_developer_who_asks(tmp_path):
    """The embedded default (``make run``) shows the site's own error pages; Django's debug
    pages are one variable away (README, docs/hardening.md)."""
    assert _debug_in_a_fresh_process(tmp_path) == "False"
    assert _debug_in_a_fresh_process(tmp_path, PARLOUR_DEBUG="1") == "True"
    assert _debug_in_a_fresh_process(tmp_path, DEBUG="1") == "True"
    assert _debug_in_a_fresh_process(tmp_path, PARLOUR_DEBUG="0", DEBUG="1") == "False"
