import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models.functions import Now


def _ladder_notices_delivered(apps, schema_editor):
    """Climbs told before notices were mailed are not mailed now, long after."""
    LadderNotice = apps.get_model("competitions", "LadderNotice")
    LadderNotice.objects.update(delivered_at=Now())


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0002_leagues"),
        ("games", "0018_move_auto_played_out"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="laddernotice",
            name="delivered_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(_ladder_notices_delivered, migrations.RunPython.noop),
        migrations.CreateModel(
            name="EventNotice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("entered", "Entered"),
                            ("started", "Started"),
                            ("table", "A table opened"),
                            ("withdrawn", "Withdrawn"),
                            ("ended", "Ended"),
                        ],
                        max_length=10,
                    ),
                ),
                ("key", models.CharField(max_length=30)),
                ("reason", models.CharField(blank=True, default="", max_length=10)),
                ("place", models.PositiveIntegerField(blank=True, null=True)),
                ("at", models.DateTimeField()),
                ("seen_at", models.DateTimeField(blank=True, null=True)),
                ("delivered_at", models.DateTimeField(blank=True, null=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notices",
                        to="competitions.event",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.match",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="event_notices",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-at", "-pk"],
                "indexes": [
                    models.Index(
                        condition=models.Q(("seen_at__isnull", True)),
                        fields=["user"],
                        name="event_notice_unseen",
                    ),
                    models.Index(
                        condition=models.Q(("delivered_at__isnull", True)),
                        fields=["at"],
                        name="event_notice_undelivered",
                    ),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("event", "user", "key"), name="event_notice_once_a_person"
                    )
                ],
            },
        ),
    ]
