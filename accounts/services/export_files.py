"""Where "your data" files live: ``DATA_DIR / "exports"``, each under a random name."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings


def exports_dir() -> Path:
    """The directory of the export files (made on first use)."""
    path = Path(settings.DATA_DIR) / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def export_file_name() -> str:
    """A new file's name: random, so it says nothing about whose it is."""
    return f"{secrets.token_hex(16)}.json"


def export_path(file_name: str) -> Path:
    return exports_dir() / Path(file_name).name


def export_files_delete(file_names: Iterable[str]) -> None:
    """Remove the files (a missing one is fine: a sweep may have gone first)."""
    for name in file_names:
        if name:
            export_path(name).unlink(missing_ok=True)
