"""Pure rule engines for Parlour's games; ``docs/engine-contract.md`` is the contract.

This module is the one registry of games: ``registered()`` lists their engines in order,
``get_engine`` hands out each one by name. ``ENGINE_NAMES`` and ``GAME_TITLES`` are the games
shipped with the site (the model's choices are made from them); a test may ``register`` one
more engine to prove that every page asks the registry rather than naming a game.
"""

from __future__ import annotations

from .base import Engine, IllegalMove
from .faraway import ENGINE as _FARAWAY
from .gulliver import ENGINE as _GULLIVER

__all__ = [
    "ENGINE_NAMES",
    "GAME_TITLES",
    "Engine",
    "IllegalMove",
    "get_engine",
    "register",
    "registered",
    "unregister",
]

_ENGINES: dict[str, Engine] = {engine.name: engine for engine in (_FARAWAY, _GULLIVER)}
ENGINE_NAMES: tuple[str, ...] = tuple(_ENGINES)
GAME_TITLES: dict[str, str] = {name: engine.title for name, engine in _ENGINES.items()}


def get_engine(name: str) -> Engine:
    """The engine for ``name`` ("faraway" or "gulliver"); ``KeyError`` for anything else."""
    try:
        return _ENGINES[name]
    except (KeyError, TypeError):
        names = ", ".join(_ENGINES)
        raise KeyError(f"Unknown game {name!r}; choose one of {names}.") from None


def registered() -> list[Engine]:
    """Every registered engine, in the order the site lists the games."""
    return list(_ENGINES.values())


def register(engine: Engine) -> None:
    """Add ``engine`` to the registry (a test's extra game); its name must be new."""
    if engine.name in _ENGINES:
        raise ValueError(f"A game named {engine.name!r} is registered already.")
    _ENGINES[engine.name] = engine


def unregister(name: str) -> None:
    """Take a game ``register`` added out of the registry again; the shipped games stay."""
    if name in ENGINE_NAMES:
        raise ValueError(f"{name!r} ships with the site and cannot be unregistered.")
    _ENGINES.pop(name, None)
