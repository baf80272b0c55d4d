"""``refused(pattern)``: a move the engine refuses, its reason worded as a player reads it.

The engines answer a refusal with a language-free reason (``IllegalMove.reason``,
docs/engine-contract.md "Reasons"); the site words it (``games.presentation.reasons``). These
tests read the British English words, as a player would."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from games.engines import IllegalMove
from games.presentation.reasons import reason_words


@contextmanager
def refused(pattern: str) -> Iterator[None]:
    """Expect ``IllegalMove`` whose reason, worded, matches the regex ``pattern``."""
    with pytest.raises(IllegalMove) as caught:
        yield
    words = reason_words(caught.value.reason)
    assert re.search(pattern, words), f"{pattern!r} not in {words!r}"
