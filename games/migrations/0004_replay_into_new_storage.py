# Fills the new storage for matches played before it: each started match is replayed from its
# seed, options and move log through the one replay fold, which gives every Move its events and
# its link of the hash chain, the match its current-state-only snapshot, ply count, deal events
# and newest link, and its seats their result columns (finished) or awaited_since (in play).
#
# It uses the engines as they are when it runs (a replay is the only way to recover per-move
# events from the old snapshots). Going back only unapplies it: the old whole-log snapshots
# are not rebuilt, so code from before this migration cannot load the matches it replayed.

from django.db import migrations


def replay_matches(apps, schema_editor):
    from games.engines import get_engine, replay
    from games.engines.results import standings

    Match = apps.get_model("games", "Match")
    Move = apps.get_model("games", "Move")
    Seat = apps.get_model("games", "Seat")
    for match in Match.objects.exclude(state=None).order_by("pk").iterator():
        engine = get_engine(match.game)
        state = engine.new_game(match.num_players, match.seed, match.options)
        match.start_events = engine.events(state)
        link = engine.state_hash(state)
        moves = list(Move.objects.filter(match_id=match.pk).order_by("ply"))
        for move in moves:
            state = replay.step(engine, state, move.seat, move.payload)
            move.events = engine.events(state)
            link = replay.chain_hash(link, move.seat, move.payload, engine.state_hash(state))
            move.chain_hash = link
        Move.objects.bulk_update(moves, ["events", "chain_hash"], batch_size=500)
        match.state = engine.dump(state)
        match.ply = len(moves)
        match.head_hash = link
        match.awaiting = list(engine.awaiting(state))
        match.save(update_fields=["state", "start_events", "ply", "head_hash", "awaiting"])
        seats = list(Seat.objects.filter(match_id=match.pk))
        if engine.is_over(state):
            table = standings(engine.outcome(state), match.num_players)
            for seat in seats:
                seat.result = table[seat.index].result
                seat.score = table[seat.index].score
                seat.rank = table[seat.index].rank
            Seat.objects.bulk_update(seats, ["result", "score", "rank"])
        else:
            for seat in seats:
                seat.awaited_since = match.updated_at if seat.index in match.awaiting else None
            Seat.objects.bulk_update(seats, ["awaited_since"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_constant_cost_storage"),
    ]

    operations = [
        migrations.RunPython(replay_matches, migrations.RunPython.noop, elidable=False),
    ]
