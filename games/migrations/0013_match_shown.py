"""``Match.shown``: the pages' change mark beside the move's ``version`` (docs/live.md).

It starts at ``phrase_count`` (what was polled beside the version until now), so a page open
across the deploy does not refetch for nothing.
"""

from django.db import migrations, models
from django.db.models import F


def shown_from_phrase_count(apps, schema_editor):
    apps.get_model("games", "Match").objects.update(shown=F("phrase_count"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_table_phrases"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="shown",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(shown_from_phrase_count, migrations.RunPython.noop, elidable=True),
    ]
