"""The data migration replays matches stored the old way (whole event log in the snapshot, a
plain state hash per ply) into the new storage: per-move events, the hash chain, result and
"awaited" columns; then each gets a salt of its own, its seed commitment, its replay checkpoints
and its round count, and stays private."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engines import get_engine, records, replay
from games.models import Match, Move, Seat
from tests import factories
from tests.unit.engines.helpers import random_play

BEFORE = [("games", "0002_bots_deadlines")]
# Then forward to every app's newest migration (the test reads the rows back through today's
# models, and going back to BEFORE unapplied the other apps' migrations that depend on games).


def _random_log(game: str, players: int, seed: int, options: dict, plies: int | None):
    """A legal move log by random play: ``plies`` entries, or to the end when ``None``."""
    return random_play(game, players, seed, options, plies)


@pytest.mark.django_db(transaction=True)
def test_old_matches_are_replayed_into_per_move_events_chained_hashes_and_result_columns():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldMatch, OldSeat, OldMove = (old.get_model("games", m) for m in ("Match", "Seat", "Move"))
    cases = {
        "finished": ("gulliver", 2, 5, {"dealer": 1, "target": 40}, None),
        "in_play": ("faraway", 2, 8, {"dealer": 0}, 37),
    }
    pks = {}
    for name, (game, players, seed, options, plies) in cases.items():
        entries, _ = _random_log(game, players, seed, options, plies)
        match = OldMatch.objects.create(
            game=game,
            num_players=players,
            options=options,
            seed=seed,
            dealer=options["dealer"],
            state={"events": ["the old snapshot, never read again"]},
            status="finished" if plies is None else "active",
            created_by_id=ann.pk,
        )
        for index, user in enumerate((ann, bea)):
            OldSeat.objects.create(match=match, index=index, user_id=user.pk)
        OldMove.objects.bulk_create(
            OldMove(match=match, ply=ply, seat=seat, payload=move, state_hash="old")
            for ply, (seat, move) in enumerate(entries, start=1)
        )
        pks[name] = match.pk

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    finished = Match.objects.get(pk=pks["finished"])
    state = factories.assert_replays(finished)  # events, every link, snapshot, result columns
    assert get_engine("gulliver").is_over(state)
    results = sorted(finished.seats.values_list("result", flat=True))
    assert results in (["lost", "won"], ["drawn", "drawn"])
    assert finished.rating_status == "unrated"  # finished before ratings began (0007)

    in_play = Match.objects.get(pk=pks["in_play"])
    state = factories.assert_replays(in_play)
    assert in_play.ply == 37 and in_play.awaiting == get_engine("faraway").awaiting(state)
    awaited = Seat.objects.filter(match=in_play, awaited_since__isnull=False)
    assert [s.index for s in awaited] == in_play.awaiting
    assert not Seat.objects.filter(match=in_play).exclude(result=None).exists()

    both = [finished, in_play]
    assert finished.salt != in_play.salt  # one salt each, not the AddField default for all
    for match in both:
        assert not match.public
        assert match.commitment == records.seed_commitment(match.salt, match.seed)
        assert match.rounds == 1 + match.moves.filter(seat=None).count()
    engine = get_engine("faraway")
    checkpoints = Move.objects.filter(match=in_play).exclude(checkpoint=None)
    assert [m.ply for m in checkpoints] == [20]
    entries = [(m.seat, m.payload) for m in in_play.moves.order_by("ply")]
    at_20 = list(replay.frames(engine, 2, in_play.seed, in_play.options, entries[:20]))[-1]
    assert checkpoints[0].checkpoint == engine.dump(at_20)
