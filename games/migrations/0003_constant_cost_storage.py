# Storage at constant cost per ply (issue 9): the snapshot keeps the current state only, each
# Move keeps its own events and a chained hash, results and "awaited" become columns.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_bots_deadlines"),
    ]

    operations = [
        migrations.RemoveField(model_name="match", name="dealer"),
        migrations.RemoveField(model_name="match", name="final_state_hash"),
        migrations.AddField(
            model_name="match",
            name="start_events",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="match",
            name="ply",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="head_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RenameField(model_name="move", old_name="state_hash", new_name="chain_hash"),
        migrations.RemoveField(model_name="move", name="event_index"),
        migrations.AddField(
            model_name="move",
            name="events",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="seat",
            name="result",
            field=models.CharField(
                blank=True,
                choices=[("won", "Won"), ("lost", "Lost"), ("drawn", "Drawn")],
                max_length=5,
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="score",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="rank",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="awaited_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "awaited_since"], name="seat_user_awaited"),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "result"], name="seat_user_result"),
        ),
    ]
