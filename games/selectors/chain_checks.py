"""Every match's stored log checked against its hash chain (``manage.py verify_matches``).

After a restore, the question is whether each match in this database is whole: its moves
numbered 1 to its ply with none missing, each replaying through the engine to its stored link
of the hash chain, the head hash and the state snapshot at the end of that replay, and the seed
commitment drawn at creation. The checks themselves are the pure modules' (``games.engines``):

- a finished match: its full record (``games.selectors.records.match_record``, seed and salt
  revealed), checked by ``games.engines.records.record_verify``, the stand-alone verifier's
  check (docs/records.md), outcome and standings included;
- a running or waiting match: the seed commitment (``seed_commitment``) and the chain
  (``games.engines.replay.verify``), which need the seed a running match's record withholds.

Data only: ``games.presentation.chain_checks`` words a result.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from games.engines import get_engine, replay
from games.engines.records import record_verify, seed_commitment
from games.models import Match, Move
from games.selectors.records import match_record


class Fault(StrEnum):
    """The first check a match failed, in the order they run."""

    COMMITMENT = "commitment"  # the seed commitment is not SHA-256(salt || seed)
    LOG = "log"  # the moves are not numbered 1 to the match's ply
    CHAIN = "chain"  # an entry does not replay to its stored hash (``ply``)
    HEAD = "head"  # the head hash is not the chain's last link
    STATE = "state"  # the state snapshot is not where the log leads
    RECORD = "record"  # a finished match's record fails the verifier (``record_problem``)


@dataclass(frozen=True)
class MatchCheck:
    """One match's check. ``fault`` is ``None`` when it holds; ``ply`` the entry at fault
    (``Fault.CHAIN``); ``missing`` the plies absent from the log (``Fault.LOG``);
    ``record_problem`` the verifier's own report (``Fault.RECORD``)."""

    match_id: int
    game: str
    status: str
    match_ply: int
    entries: int
    fault: Fault | None = None
    ply: int | None = None
    missing: tuple[int, ...] = ()
    record_problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.fault is None


def _log_fault(match: Match, rows: list[tuple[int, int | None, dict, str]]) -> dict | None:
    """The stored log against the match row: numbering, the chain, the head hash, the state;
    the fields of ``MatchCheck`` naming the first fault, or ``None``."""
    plies = [ply for ply, _, _, _ in rows]
    if plies != list(range(1, match.ply + 1)):
        missing = tuple(sorted(set(range(1, match.ply + 1)) - set(plies)))
        return {"fault": Fault.LOG, "missing": missing}
    engine = get_engine(match.game)
    entries = [(seat, move) for _, seat, move, _ in rows]
    links = [link for _, _, _, link in rows]
    args = (engine, match.num_players, match.seed, match.options)
    broken = replay.verify(*args, entries, links)
    if broken is not None:
        return {"fault": Fault.CHAIN, "ply": broken}
    head = links[-1] if links else replay.start_hash(*args)
    if match.head_hash and match.head_hash != head:
        return {"fault": Fault.HEAD}
    if match.state is not None:
        last = deque(replay.frames(*args, entries), maxlen=1)
        final = last[0] if last else engine.new_game(*args[1:])
        if engine.dump(final) != match.state:
            return {"fault": Fault.STATE}
    return None


def match_check(match: Match) -> MatchCheck:
    """Check one match (its moves and, once finished, its seats are read here)."""
    rows = list(
        Move.objects.filter(match_id=match.pk)
        .order_by("ply")
        .values_list("ply", "seat", "payload", "chain_hash")
    )
    facts = {"match_id": match.pk, "game": match.game, "status": match.status}
    facts |= {"match_ply": match.ply, "entries": len(rows)}
    if match.commitment and match.commitment != seed_commitment(match.salt, match.seed):
        return MatchCheck(**facts, fault=Fault.COMMITMENT)
    fault = _log_fault(match, rows)
    if fault is not None:
        return MatchCheck(**facts, **fault)
    if match.status == Match.Status.FINISHED:
        seats = list(match.seats.select_related("user").order_by("index"))
        # Names are outside the hash chain: the record is checked under the usernames.
        names = [s.user.username if s.user_id else (s.bot_level or "") for s in seats]
        report = record_verify(
            match_record(match=match, seats=seats, names=names, viewer_seat=None)
        )
        if not report.ok:
            return MatchCheck(**facts, fault=Fault.RECORD, record_problem=report.problem)
    return MatchCheck(**facts)


def matches_checked() -> Iterator[MatchCheck]:
    """Every match in the database, oldest first, checked one at a time."""
    for match in Match.objects.order_by("pk").iterator(chunk_size=100):
        yield match_check(match)
