"""The site's VAPID key pair (RFC 8292): what signs every web push, so push services know it is
this site's (docs/notifications.md, "Web push").

Production sets ``PARLOUR_VAPID_PRIVATE_KEY`` and ``PARLOUR_VAPID_PUBLIC_KEY`` (settings refuse
to start without them). The embedded default (``make run``, tests) has no keys to set: the first
process to start generates a pair into the data directory, and every later process, the worker
and beat included, reads the same file, so browsers keep the subscriptions they made with it.

Both keys are base64url without padding, the form browsers and ``pywebpush`` take: the private
key is its 32-byte secret, the public key its 65-byte uncompressed point (``applicationServerKey``).
Imported by ``config/settings/push.py`` before Django is set up: nothing here imports Django (nor
does ``games/__init__.py`` or ``games/push/__init__.py``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

KEY_FILE = "vapid.json"


def b64url(raw: bytes) -> str:
    """``raw`` in base64url, without the ``=`` padding."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def key_pair_new() -> tuple[str, str]:
    """A fresh P-256 pair: ``(private, public)``, each base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    secret = key.private_numbers().private_value.to_bytes(32, "big")
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(secret), b64url(point)


def key_pair_stored(data_dir: Path) -> tuple[str, str]:
    """The pair kept in ``data_dir``, generated and written the first time.

    The file appears whole or not at all (written aside, then linked into place, which fails if
    another process got there first), so two processes starting together agree on one pair.
    Readable by its owner only: the private key signs pushes as this site.
    """
    path = data_dir / KEY_FILE
    if not path.exists():
        private, public = key_pair_new()
        fd, aside = tempfile.mkstemp(dir=data_dir, prefix=".vapid-")
        try:
            with os.fdopen(fd, "w") as handle:  # mkstemp made it 0600
                json.dump({"private": private, "public": public}, handle)
            with contextlib.suppress(FileExistsError):  # another process wrote it first: theirs
                os.link(aside, path)
        finally:
            os.unlink(aside)
    stored = json.loads(path.read_text())
    return stored["private"], stored["public"]
