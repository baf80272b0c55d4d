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

This reads the database only; the command words the results.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from games.engines import get_engine, replay
from games.engines.records import record_verify, seed_commitment
from games.models import Match, Move
from games.selectors.records import match_record


@dataclass(frozen=True)
class MatchCheck:
    """One match's check: ``problem`` is ``None`` when it holds, else what differed."""

    match_id: int
    game: str
    status: str
    entries: int
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def _log_problem(match: Match, rows: list[tuple[int, int | None, dict, str]]) -> str | None:
    """The stored log against the match row: numbering, the chain, the head hash, the state."""
    plies = [ply for ply, _, _, _ in rows]
    if plies != list(range(1, match.ply + 1)):
        missing = sorted(set(range(1, match.ply + 1)) - set(plies))
        return f"the match is at ply {match.ply} but its log holds {len(plies)} entries" + (
            f" (missing ply {', '.join(map(str, missing[:5]))})" if missing else ""
        )
    engine = get_engine(match.game)
    entries = [(seat, move) for _, seat, move, _ in rows]
    links = [link for _, _, _, link in rows]
    args = (engine, match.num_players, match.seed, match.options)
    broken = replay.verify(*args, entries, links)
    if broken is not None:
        return f"entry {broken} does not replay to its stored hash"
    head = links[-1] if links else replay.start_hash(*args)
    if match.head_hash and match.head_hash != head:
        return "the head hash is not the last link of the chain"
    if match.state is not None:
        last = deque(replay.frames(*args, entries), maxlen=1)
        final = last[0] if last else engine.new_game(*args[1:])
        if engine.dump(final) != match.state:
            return "the state snapshot is not where the log leads"
    return None


def match_check(match: Match) -> MatchCheck:
    """Check one match (its seats are loaded here); see the module docstring for what."""
    rows = list(
        Move.objects.filter(match_id=match.pk)
        .order_by("ply")
        .values_list("ply", "seat", "payload", "chain_hash")
    )
    problem = None
    if match.commitment and match.commitment != seed_commitment(match.salt, match.seed):
        problem = "the seed commitment is not SHA-256(salt || seed)"
    problem = problem or _log_problem(match, rows)
    if problem is None and match.status == Match.Status.FINISHED:
        seats = list(match.seats.select_related("user").order_by("index"))
        names = [s.user.username if s.user_id else (s.bot_level or "") for s in seats]
        report = record_verify(
            match_record(match=match, seats=seats, names=names, viewer_seat=None)
        )
        problem = None if report.ok else f"its record does not verify: {report.problem}"
    return MatchCheck(match.pk, match.game, match.status, len(rows), problem)


def matches_checked() -> Iterator[MatchCheck]:
    """Every match in the database, oldest first, checked one at a time."""
    for match in Match.objects.order_by("pk").iterator(chunk_size=100):
        yield match_check(match)
