# Recurring cups (docs/competitions.md, "Cups"): the series, and an event's cup fields.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("competitions", "0003_event_notices"),
    ]

    operations = [
        migrations.CreateModel(
            name="CupSeries",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80)),
                (
                    "game",
                    models.CharField(
                        choices=[
                            ("faraway", "The Faraway Tree"),
                            ("gulliver", "Gulliver's Travels"),
                        ],
                        max_length=20,
                    ),
                ),
                ("seats", models.PositiveSmallIntegerField()),
                ("rounds", models.PositiveSmallIntegerField(default=3)),
                ("places_most", models.PositiveIntegerField(default=16)),
                ("places_least", models.PositiveSmallIntegerField(default=4)),
                (
                    "deadline_days",
                    models.PositiveSmallIntegerField(
                        choices=[(1, "1 day"), (3, "3 days"), (7, "7 days")]
                    ),
                ),
                ("holidays", models.BooleanField(default=True)),
                ("absences_most", models.PositiveSmallIntegerField(default=2)),
                ("rating_min", models.IntegerField(blank=True, null=True)),
                ("rating_max", models.IntegerField(blank=True, null=True)),
                (
                    "weekday",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        choices=[
                            (0, "Monday"),
                            (1, "Tuesday"),
                            (2, "Wednesday"),
                            (3, "Thursday"),
                            (4, "Friday"),
                            (5, "Saturday"),
                            (6, "Sunday"),
                        ],
                        null=True,
                    ),
                ),
                ("start_time", models.TimeField(blank=True, null=True)),
                ("active", models.BooleanField(default=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name_plural": "cup series",
                "ordering": ["name", "pk"],
            },
        ),
        migrations.AlterField(
            model_name="event",
            name="kind",
            field=models.CharField(
                choices=[("league", "League"), ("cup", "Cup")], default="league", max_length=10
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="series",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="occurrences",
                to="competitions.cupseries",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="places_least",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="event",
            name="rounds",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="event",
            name="round",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="event",
            name="round_started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="eventtable",
            name="dropped",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Scheduled"),
                    ("withdrawn", "Not played: someone at it withdrew"),
                    ("block", "Not played: a block stands between two people at it"),
                    ("ended", "Not played: the league ended first"),
                    ("bye", "A bye: sits this round out"),
                ],
                default="",
                max_length=10,
            ),
        ),
    ]
