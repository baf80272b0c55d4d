"""Pure rule engines for Parlour's games; see ``shared/ENGINE_API.md`` for the contract."""

from __future__ import annotations

from importlib import import_module

from .base import Engine, IllegalMove

__all__ = ["ENGINE_NAMES", "Engine", "IllegalMove", "get_engine"]

ENGINE_NAMES = ("faraway", "gulliver")
_cache: dict[str, Engine] = {}


def get_engine(name: str) -> Engine:
    """The engine for ``name`` ("faraway" or "gulliver"); ``KeyError`` for anything else."""
    if name not in ENGINE_NAMES:
        raise KeyError(f"Unknown game {name!r}; choose one of {', '.join(ENGINE_NAMES)}.")
    engine = _cache.get(name)
    if engine is None:
        engine = import_module(f"{__name__}.{name}").ENGINE
        _cache[name] = engine
    return engine
