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

A record (``docs/records.md``, format ``FORMAT`` version ``FORMAT_VERSION``) is a JSON object:
``record_build`` writes one from a match's rows, ``record_verify`` checks one by replaying it
through the engines. Reading a file and the command line are not here (the engines do no I/O):
``python -m games.verify_record FILE`` runs the check without the site, and
``python manage.py verify_record FILE`` with it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import get_engine, replay
from .base import Engine, IllegalMove, canonical_json
from .resignation import ends_match, is_resignation, resigned_outcome, resigned_standings
from .results import Standing

SALT_BYTES = 32
FORMAT = "parlour-match-record"
FORMAT_VERSION = 2
# Version 2 added resignations (docs/leaving.md): an entry ``{"type": "resign"}``, and an
# outcome that ranks the resigners last. A version 1 record holds none and still verifies.
FORMAT_VERSIONS_READ = (1, 2)


def seed_commitment(salt: str, seed: int | str) -> str:
    """``SHA-256(salt ‖ seed)`` as lowercase hex (layout in the module docstring)."""
    return hashlib.sha256(bytes.fromhex(salt) + str(seed).encode("utf-8")).hexdigest()


def keyed_hash(salt: str, chain_hash: str) -> str:
    """A chain hash keyed with the match's secret salt: ``HMAC-SHA256(salt, chain_hash)``."""
    return hmac.new(bytes.fromhex(salt), chain_hash.encode("ascii"), hashlib.sha256).hexdigest()


# -- writing a record ------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordSeat:
    """One seat of a record: a person (``username`` set) or a bot (``bot_level`` set)."""

    index: int
    name: str
    bot_level: str | None = None
    username: str | None = None


@dataclass(frozen=True)
class RecordEntry:
    """One logged entry: ``seat`` ``None`` for the server's deal of the next round,
    ``chain_hash`` its link of the hash chain, ``time`` ISO 8601 UTC, ``auto`` why the server
    moved for the seat ("" for a move the seat chose)."""

    seat: int | None
    move: dict[str, Any]
    chain_hash: str
    time: str | None = None
    auto: str = ""


def record_build(
    *,
    engine: Engine,
    num_players: int,
    options: Mapping[str, Any],
    seats: Sequence[RecordSeat],
    entries: Sequence[RecordEntry],
    seed: int,
    salt: str,
    commitment: str,
    over: bool,
    outcome: Mapping[str, Any] | None = None,
    table: Sequence[Standing] | None = None,
    status: str | None = None,
    url: str | None = None,
    created_at: str | None = None,
    started_at: str | None = None,
    finished_at: str | None = None,
    viewer_seat: int | None = None,
) -> dict[str, Any]:
    """A match record in format ``FORMAT_VERSION`` (every field in ``docs/records.md``).

    ``over``: everything, seed, salt, start hash, each entry's ``hash`` and ``keyed_hash``,
    the ``outcome`` (the engine's) with each seat's standing from ``table``. Otherwise the
    version any seat may see while the match runs: no seed, salt or start hash, the options
    without ``engine.secret_options``, each entry's keyed hash only and ``outcome`` null.
    """
    result = None
    if over:
        if outcome is None or table is None:
            raise ValueError("A finished match's record needs its outcome and standings.")
        result = {
            "winners": list(outcome["winners"]),
            "draw": bool(outcome["draw"]),
            "scores": list(outcome["scores"]),
            "standings": [
                {"seat": seat, "result": s.result, "score": s.score, "rank": s.rank}
                for seat, s in enumerate(table)
            ],
        }
    shown_options = (
        dict(options)
        if over
        else {key: value for key, value in options.items() if key not in engine.secret_options}
    )
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": engine.name,
        "game_title": engine.title,
        "rules_version": engine.rules_version,
        "num_players": num_players,
        "options": shown_options,
        "status": status,
        "url": url,
        "created_at": created_at,
        "started_at": started_at,
        "finished_at": finished_at,
        "viewer_seat": viewer_seat,
        "seats": [
            {
                "index": seat.index,
                "name": seat.name,
                "kind": "person" if seat.bot_level is None else "bot",
                "bot_level": seat.bot_level,
                "username": seat.username,
            }
            for seat in seats
        ],
        "commitment": commitment,
        "seed": seed if over else None,
        "salt": salt if over else None,
        "start_hash": replay.start_hash(engine, num_players, seed, dict(options)) if over else None,
        "entries": [
            {
                "ply": ply,
                "seat": entry.seat,
                "move": entry.move,
                "time": entry.time,
                "auto": entry.auto,
                "hash": entry.chain_hash if over else None,
                "keyed_hash": keyed_hash(salt, entry.chain_hash),
            }
            for ply, entry in enumerate(entries, start=1)
        ],
        "outcome": result,
    }
    return record


# -- checking a record -----------------------------------------------------------------------


@dataclass
class VerifyReport:
    """What ``record_verify`` checked, line by line, and how it ended.

    ``ok`` when every check held. Otherwise ``problem`` says what differed (naming the entry,
    whose 1-based ``ply`` is set when an entry is at fault) and ``refused`` tells a record that
    cannot be checked (not a record, an unknown format or rules version, a running match's
    record without its seed) from one that was checked and does not hold.
    """

    checked: list[str] = field(default_factory=list)
    ok: bool = False
    problem: str | None = None
    ply: int | None = None
    refused: bool = False

    @property
    def exit_code(self) -> int:
        """0 when the record holds, 1 for a mismatch, 2 for a record that cannot be checked."""
        if self.ok:
            return 0
        return 2 if self.refused else 1

    def lines(self) -> list[str]:
        """The report as printed: each check that held, then the verdict."""
        out = [f"ok    {line}" for line in self.checked]
        if self.ok:
            out.append("The record holds: every check above passed.")
        elif self.refused:
            out.append(f"REFUSED  {self.problem}")
        else:
            out.append(f"FAIL  {self.problem}")
        return out


class _Stop(Exception):
    """The first check that fails, with the entry it names."""

    def __init__(self, problem: str, *, ply: int | None = None, refused: bool = False) -> None:
        super().__init__(problem)
        self.problem, self.ply, self.refused = problem, ply, refused


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(data: Mapping[str, Any], key: str, kinds: tuple[type, ...], where: str) -> Any:
    """``data[key]``, refused as malformed when it is missing or not of ``kinds``."""
    if key not in data:
        raise _Stop(f"Malformed record: {where} has no {key!r}.", refused=True)
    value = data[key]
    wrong_int = int in kinds and isinstance(value, bool) and bool not in kinds
    if not isinstance(value, kinds) or wrong_int:
        names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
        raise _Stop(
            f"Malformed record: {where}'s {key!r} should be {names}, not {value!r}.", refused=True
        )
    return value


def _entry_name(ply: int, seat: Any, move: Any) -> str:
    who = "server" if seat is None else f"seat {seat}"
    shown = canonical_json(move) if isinstance(move, dict) else repr(move)
    return f"entry {ply} ({who}, {shown})"


def record_verify(record: Any) -> VerifyReport:
    """Check a parsed record: its format and rules version, the seed commitment, every entry
    replayed from the seed through the engine with its hash and keyed hash, and the outcome.

    Stops at the first failure; never raises for a malformed record (see ``VerifyReport``).
    """
    report = VerifyReport()
    try:
        _verify(record, report.checked)
    except _Stop as stop:
        report.problem, report.ply, report.refused = stop.problem, stop.ply, stop.refused
        return report
    except Exception as exc:  # untrusted input: a clear refusal, never a traceback
        report.problem = f"Malformed record: {type(exc).__name__}: {exc}"
        report.refused = True
        return report
    report.ok = True
    return report


def record_verify_text(text: str | bytes) -> VerifyReport:
    """``record_verify`` on a record's JSON text; text that is not JSON is refused."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        report = VerifyReport(refused=True)
        report.problem = f"Not a record: the file is not JSON ({exc})."
        return report
    return record_verify(record)


def _verify(record: Any, checked: list[str]) -> None:
    if not isinstance(record, dict):
        raise _Stop("Not a record: a record is a JSON object.", refused=True)
    fmt = _field(record, "format", (str,), "the record")
    if fmt != FORMAT:
        raise _Stop(f"Not a record: the format is {fmt!r}, not {FORMAT!r}.", refused=True)
    version = _field(record, "format_version", (int,), "the record")
    if version not in FORMAT_VERSIONS_READ:
        raise _Stop(
            f"Format version {version} is not known to this verifier (it reads versions"
            f" {', '.join(map(str, FORMAT_VERSIONS_READ))}).",
            refused=True,
        )
    checked.append(f"format {FORMAT}, version {version}")

    game = _field(record, "game", (str,), "the record")
    try:
        engine = get_engine(game)
    except KeyError as exc:
        raise _Stop(str(exc.args[0]), refused=True) from None
    checked.append(f"game {game} ({engine.title})")

    rules = _field(record, "rules_version", (int,), "the record")
    if rules != engine.rules_version:
        raise _Stop(
            f"Recorded under rules version {rules} of {game}; this verifier plays version"
            f" {engine.rules_version}. Check it with a Parlour release that plays version"
            f" {rules} (docs/records.md, Rules versions).",
            refused=True,
        )
    checked.append(f"rules version {rules}, the one this verifier plays")

    num_players = _field(record, "num_players", (int,), "the record")
    seats = _field(record, "seats", (list,), "the record")
    people = set()
    for position, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise _Stop(f"Malformed record: seat {position} is not an object.", refused=True)
        index = _field(seat, "index", (int,), f"seat {position}")
        _field(seat, "name", (str,), f"seat {position}")
        kind = _field(seat, "kind", (str,), f"seat {position}")
        if index != position or kind not in ("person", "bot"):
            raise _Stop(f"Seat {position}: index {index!r}, kind {kind!r}.")
        if kind == "person":
            people.add(index)
    if len(seats) != num_players:
        raise _Stop(f"Player count {num_players} differs from the {len(seats)} seats listed.")
    checked.append(f"player count {num_players}, one seat each")

    seed = _field(record, "seed", (int, type(None)), "the record")
    salt = _field(record, "salt", (str, type(None)), "the record")
    if seed is None or salt is None:
        status = record.get("status")
        raise _Stop(
            f"This record has no seed and salt (status {status!r}): the record of a running"
            " match withholds them, so it cannot be replayed. Fetch it again once the match is"
            " over.",
            refused=True,
        )
    try:
        salt_bytes = bytes.fromhex(salt)
    except ValueError:
        salt_bytes = b""
    if len(salt_bytes) != SALT_BYTES or salt != salt.lower():
        raise _Stop(f"Salt {salt!r} is not {SALT_BYTES} bytes in lowercase hex.")
    checked.append("seed and salt revealed")

    commitment = _field(record, "commitment", (str,), "the record")
    expected = seed_commitment(salt, seed)
    if commitment != expected:
        raise _Stop(
            f"Commitment differs: SHA-256(salt || seed) is {expected}, the record says"
            f" {commitment}."
        )
    checked.append(f"commitment {commitment} = SHA-256(salt || seed)")

    options = _field(record, "options", (dict,), "the record")
    try:
        state = engine.new_game(num_players, seed, options)
    except Exception as exc:
        raise _Stop(f"The engine refuses the player count or options: {exc}") from None
    start = _field(record, "start_hash", (str,), "the record")
    if engine.state_hash(state) != start:
        raise _Stop(
            "Start hash differs: the deal from this seed, player count and options is not the"
            " recorded one."
        )
    checked.append(f"start hash: the deal from seed {seed} with options {canonical_json(options)}")

    entries = _field(record, "entries", (list,), "the record")
    link = start
    resigned: list[int] = []  # in the order they resigned
    ended = False  # by resignations (docs/leaving.md)
    for ply, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise _Stop(f"Malformed record: entry {ply} is not an object.", ply=ply, refused=True)
        where = f"entry {ply}"
        seat = _field(entry, "seat", (int, type(None)), where)
        move = _field(entry, "move", (dict,), where)
        recorded = _field(entry, "hash", (str,), where)
        keyed = _field(entry, "keyed_hash", (str,), where)
        name = _entry_name(ply, seat, move)
        if _field(entry, "ply", (int,), where) != ply:
            raise _Stop(f"{name}: numbered {entry['ply']}, not {ply}.", ply=ply)
        if seat is not None and not 0 <= seat < num_players:
            raise _Stop(f"{name}: there is no seat {seat} at a table of {num_players}.", ply=ply)
        if ended:
            raise _Stop(f"{name}: the resignations before it had already ended the match.", ply=ply)
        if is_resignation(seat, move):
            if version == 1:
                raise _Stop(f"{name}: format version 1 has no resignations.", ply=ply)
            if seat in resigned:
                raise _Stop(f"{name}: seat {seat} had already resigned.", ply=ply)
            if seat not in people:
                raise _Stop(f"{name}: only a person resigns, and seat {seat} is a bot.", ply=ply)
        try:
            state = replay.step(engine, state, seat, move)
        except IllegalMove as exc:
            raise _Stop(f"{name}: the engine refuses it: {exc}", ply=ply) from None
        except Exception as exc:
            raise _Stop(
                f"{name}: the engine cannot apply it ({type(exc).__name__}: {exc}).", ply=ply
            ) from None
        link = replay.chain_hash(link, seat, move, engine.state_hash(state))
        if recorded != link:
            raise _Stop(f"{name}: hash differs.", ply=ply)
        if keyed != keyed_hash(salt, link):
            raise _Stop(f"{name}: keyed hash differs.", ply=ply)
        if is_resignation(seat, move):
            resigned.append(seat)
            ended = ends_match(num_players=num_players, resigned=resigned, people=people)
    checked.append(
        f"{len(entries)} entries replayed from the seed; every hash and keyed hash agrees"
        + (f" (last {link})" if entries else "")
    )

    if resigned:
        who = ", ".join(f"seat {seat}" for seat in resigned)
        checked.append(f"resigned, in order: {who}" + ("; that ended the match" if ended else ""))
    _verify_outcome(record, engine, state, num_players, resigned)
    checked.append("outcome: winners, draw, scores and every seat's result, score and rank")


def _verify_outcome(
    record: dict, engine: Engine, state: Any, num_players: int, resigned: list[int]
) -> None:
    """The recorded outcome against the replayed final state and the resignations."""
    recorded = _field(record, "outcome", (dict, type(None)), "the record")
    game_over = engine.is_over(state)
    people = {s["index"] for s in record["seats"] if s["kind"] == "person"}
    if not game_over and not (
        resigned and ends_match(num_players=num_players, resigned=resigned, people=people)
    ):
        raise _Stop(
            "Outcome: the replayed entries do not end the match, yet its seed is revealed"
            " (a record shows the seed only once the match is over)."
        )
    if recorded is None:
        raise _Stop("Outcome: the replay ends the match, but the record has no outcome.")
    engine_outcome = engine.outcome(state)
    table = resigned_standings(engine_outcome, num_players, resigned, game_over=game_over)
    expected = resigned_outcome(engine_outcome, table) if resigned else engine_outcome
    for key in ("winners", "draw", "scores"):
        got = _field(recorded, key, (bool,) if key == "draw" else (list,), "the outcome")
        if got != expected[key]:
            raise _Stop(
                f"Outcome: {key} differ: the replay gives {expected[key]!r}, the record says"
                f" {got!r}."
            )
    rows = _field(recorded, "standings", (list,), "the outcome")
    if len(rows) != num_players:
        raise _Stop(f"Outcome: {len(rows)} standings for a table of {num_players}.")
    for seat, (row, want) in enumerate(zip(rows, table, strict=True)):
        if not isinstance(row, dict):
            raise _Stop(f"Malformed record: standing {seat} is not an object.", refused=True)
        got = tuple(row.get(key) for key in ("seat", "result", "score", "rank"))
        if got != (seat, want.result, want.score, want.rank):
            raise _Stop(
                f"Outcome: seat {seat}'s standing differs: the replay gives {want.result},"
                f" score {want.score}, rank {want.rank}; the record says {row.get('result')!r},"
                f" score {row.get('score')!r}, rank {row.get('rank')!r}."
            )
