"""Pure rule engines for Parlour's games; ``docs/engine-contract.md`` is the contract.

This module is the one registry of games: ``ENGINE_NAMES`` lists them, ``get_engine`` hands out
each one's engine and ``GAME_TITLES`` their display names.
"""

from __future__ import annotations

from .base import Engine, IllegalMove
from .faraway import ENGINE as _FARAWAY
from .gulliver import ENGINE as _GULLIVER

__all__ = ["ENGINE_NAMES", "GAME_TITLES", "Engine", "IllegalMove", "get_engine"]

_ENGINES: dict[str, Engine] = {engine.name: engine for engine in (_FARAWAY, _GULLIVER)}
ENGINE_NAMES: tuple[str, ...] = tuple(_ENGINES)
GAME_TITLES: dict[str, str] = {name: engine.title for name, engine in _ENGINES.items()}


def get_engine(name: str) -> Engine:
    """The engine for ``name`` ("faraway" or "gulliver"); ``KeyError`` for anything else."""
    try:
        return _ENGINES[name]
    except (KeyError, TypeError):
        raise KeyError(f"Unknown game {name!r}; choose one of {', '.join(ENGINE_NAMES)}.") from None
