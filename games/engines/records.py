"""Match records anyone can verify: the seed commitment and the keyed hashes (docs/records.md).

Pure like the engines: standard library only, so a record can be checked outside the site.

The byte layouts, exactly:

- ``salt`` is ``SALT_BYTES`` random bytes, written as lowercase hex.
- ``commitment = SHA-256(salt ‖ seed)``: the salt's raw bytes followed by the seed's decimal
  text in UTF-8 (``str(seed)``), as lowercase hex. Drawn when the match is created, shown from
  the first move; the seed and salt are revealed when the match ends.
- ``keyed_hash(salt, h) = HMAC-SHA256(key=salt, message=h)``: ``h`` being a chain hash
  (``games.engines.replay``) as its 64 ASCII hex characters, the result as lowercase hex. A
  running match shows only keyed hashes: a plain state hash with few hidden cards left could
  be tested against every possible hand, a keyed one cannot without the salt.
"""

from __future__ import annotations

import hashlib
import hmac

SALT_BYTES = 32


def seed_commitment(salt: str, seed: int | str) -> str:
    """``SHA-256(salt ‖ seed)`` as lowercase hex (layout in the module docstring)."""
    return hashlib.sha256(bytes.fromhex(salt) + str(seed).encode("utf-8")).hexdigest()


def keyed_hash(salt: str, chain_hash: str) -> str:
    """A chain hash keyed with the match's secret salt: ``HMAC-SHA256(salt, chain_hash)``."""
    return hmac.new(bytes.fromhex(salt), chain_hash.encode("ascii"), hashlib.sha256).hexdigest()
