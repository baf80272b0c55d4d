"""The production mode passes Django's deployment checklist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_production_settings_pass_check_deploy(tmp_path):
    env = {
        **os.environ,
        "PARLOUR_PRODUCTION": "1",
        "SECRET_KEY": "a-long-random-production-secret-for-the-check-" + "x" * 40,
        "ALLOWED_HOSTS": "parlour.example.org",
        "PARLOUR_DATA_DIR": str(tmp_path),
    }
    # The test run's own conveniences are no part of a deployment.
    for name in ("DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {**os.environ, "PARLOUR_PRODUCTION": "1", "PARLOUR_DATA_DIR": str(tmp_path)}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
