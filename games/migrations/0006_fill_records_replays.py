# Fills the fields of 0005 for matches made before it: each match gets a salt of its own (the
# AddField default was drawn once for every row) and the commitment to its seed; each started
# match is replayed through the one replay fold to store its checkpoints and count its rounds.
# Every old match stays private (0005's default), as the issue that added watching asks.

import secrets

from django.db import migrations


def fill(apps, schema_editor):
    from games.engines import get_engine, records, replay
    Match = apps.get_model("games", "Match")
    Move = apps.get_model("games", "Move")
    every = 20  # Move.CHECKPOINT_EVERY when this migration was written
    for match in Match.objects.order_by("pk").iterator():
        match.salt = secrets.token_hex(records.SALT_BYTES)
        match.commitment = records.seed_commitment(match.salt, match.seed)
        moves = list(Move.objects.filter(match_id=match.pk).order_by("ply"))
        if match.state is not None:
            engine = get_engine(match.game)
            state = engine.new_game(match.num_players, match.seed, match.options)
            for move in moves:
                state = replay.step(engine, state, move.seat, move.payload)
                move.checkpoint = engine.dump(state) if move.ply % every == 0 else None
            Move.objects.bulk_update(moves, ["checkpoint"], batch_size=200)
        match.rounds = 1 + sum(1 for move in moves if move.seat is None)
        match.save(update_fields=["salt", "commitment", "rounds"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_records_replays_watching"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=False),
    ]
