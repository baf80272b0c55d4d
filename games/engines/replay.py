"""Replaying a match's log and checking its hash chain (``docs/engine-contract.md``, Hashes).

Pure like the engines: a match is its engine, table size, seed, options and log of entries,
each entry a ``(seat, move)`` pair; Gulliver's deal of the next round is the seatless entry
``(None, NEXT_ROUND)``.

The chain links one entry to the next. With ``s_k`` the state after entry ``k``::

    h_0 = engine.state_hash(engine.new_game(num_players, seed, options))
    h_k = chain_hash(h_{k-1}, seat_k, move_k, engine.state_hash(s_k))

where ``chain_hash(previous, seat, move, state_hash)`` is the lowercase SHA-256 hex digest of
the UTF-8 bytes of::

    previous + "\\n" + canonical_json([seat, move]) + "\\n" + state_hash

``canonical_json`` being ``games.engines.base.canonical_json`` (sorted keys, no spaces,
``ensure_ascii`` off) and both hashes inside lowercase hex. A seatless entry's seat is
``null``: ``[null,{"type":"next_round"}]``. The last link thus pins the deal, every entry in
order and every state along the way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .base import Engine, IllegalMove, canonical_json, reason
from .resignation import is_resignation

NEXT_ROUND: dict = {"type": "next_round"}
# The reasons ``step`` gives besides the engine's own (docs/engine-contract.md, "Reasons").
REASON_CODES = frozenset({"resign_over", "seatless_entry"})
Entry = tuple[int | None, dict]


def step(engine: Engine, state: Any, seat: int | None, move: dict) -> Any:
    """The state after one entry: ``apply``, or ``next_round`` for ``(None, NEXT_ROUND)``, or
    the same position for a seat's resignation (``games.engines.resignation.RESIGN``: the
    engine never sees it; the state is loaded afresh, so it carries no step's events).
    Raises ``IllegalMove`` for an entry the engine refuses (a seatless entry other than
    ``NEXT_ROUND`` included, and a resignation once the game is over)."""
    if is_resignation(seat, move):
        if engine.is_over(state):
            raise IllegalMove(reason("resign_over"))
        return engine.load(engine.dump(state))
    if seat is None:
        if move != NEXT_ROUND:
            raise IllegalMove(reason("seatless_entry", given=move))
        return engine.next_round(state)
    return engine.apply(state, seat, move)


def frames(
    engine: Engine,
    num_players: int,
    seed: int | str,
    options: dict | None,
    entries: Iterable[Entry],
) -> Iterator[Any]:
    """The state after each entry, in order (not the starting state)."""
    state = engine.new_game(num_players, seed, options)
    for seat, move in entries:
        state = step(engine, state, seat, move)
        yield state


def chain_hash(previous: str, seat: int | None, move: dict, state_hash: str) -> str:
    """One link of the chain: see the module docstring for the exact bytes."""
    text = previous + "\n" + canonical_json([seat, move]) + "\n" + state_hash
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def start_hash(engine: Engine, num_players: int, seed: int | str, options: dict | None) -> str:
    """``h_0``: the hash of the new game's state, which the chain starts from."""
    return engine.state_hash(engine.new_game(num_players, seed, options))


def _links(
    engine: Engine,
    num_players: int,
    seed: int | str,
    options: dict | None,
    entries: Iterable[Entry],
    previous: str | None,
) -> Iterator[str]:
    state = engine.new_game(num_players, seed, options)
    link = engine.state_hash(state) if previous is None else previous
    for seat, move in entries:
        state = step(engine, state, seat, move)
        link = chain_hash(link, seat, move, engine.state_hash(state))
        yield link


def hashes(
    engine: Engine,
    num_players: int,
    seed: int | str,
    options: dict | None,
    entries: Iterable[Entry],
) -> Iterator[str]:
    """The chain hash after each entry, ``h_1`` onwards. Raises ``IllegalMove`` on reaching an
    entry the engine refuses."""
    return _links(engine, num_players, seed, options, entries, None)


def verify(
    engine: Engine,
    num_players: int,
    seed: int | str,
    options: dict | None,
    entries: Sequence[Entry],
    expected_hashes: Sequence[str],
    start_hash: str | None = None,
) -> int | None:
    """The 1-based ply of the first entry whose recomputed link differs from
    ``expected_hashes`` (or that the engine refuses); when all agree but the two lists differ in
    length, the ply after the shorter. ``None`` when the record holds.

    ``start_hash`` is the link to chain from, by default this engine's own ``h_0``.
    """
    links = _links(engine, num_players, seed, options, entries, start_hash)
    for ply, expected in enumerate(expected_hashes[: len(entries)], start=1):
        try:
            link = next(links)
        except IllegalMove:
            return ply
        if link != expected:
            return ply
    if len(entries) != len(expected_hashes):
        return min(len(entries), len(expected_hashes)) + 1
    return None
