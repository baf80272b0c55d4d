# MatchNotice moves here from accounts (issue 32): state only, its table keeps its name
# (accounts_matchnotice), its rows and its constraint.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_match_shown"),
        ("accounts", "0010_matchnotice_to_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="MatchNotice",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("seen_at", models.DateTimeField(blank=True, null=True)),
                        ("turn_mailed_at", models.DateTimeField(blank=True, null=True)),
                        ("deadline_mailed_at", models.DateTimeField(blank=True, null=True)),
                        ("turn_pushed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notices",
                                to="games.match",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="match_notices",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "accounts_matchnotice",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "match"), name="matchnotice_unique_user_match"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
