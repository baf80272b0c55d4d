"""Each judged move's words in every language the site speaks, not in the one that was active
in the worker (issue 37): ``played_text``/``best_text`` become ``played_words``/``best_words``,
a language code to the move's words. The rows already written keep their words as English."""

from django.db import migrations, models

# The site's English when this migration was written (``settings.LANGUAGE_CODE``): the words
# the old rows hold are the worker's, and the workers spoke English.
ENGLISH = "en-gb"


def words_from_text(apps, schema_editor):
    decisions = apps.get_model("games", "AnalysedDecision")
    for row in decisions.objects.only("pk", "played_text", "best_text").iterator():
        row.played_words = {ENGLISH: row.played_text} if row.played_text else {}
        row.best_words = {ENGLISH: row.best_text} if row.best_text else {}
        row.save(update_fields=["played_words", "best_words"])


def text_from_words(apps, schema_editor):
    decisions = apps.get_model("games", "AnalysedDecision")
    for row in decisions.objects.only("pk", "played_words", "best_words").iterator():
        row.played_text = _english(row.played_words)[:200]
        row.best_text = _english(row.best_words)[:200]
        row.save(update_fields=["played_text", "best_text"])


def _english(words):
    words = words or {}
    return words.get(ENGLISH) or next(iter(words.values()), "")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_invitation_withdrawn"),
    ]

    operations = [
        migrations.AddField(
            model_name="analyseddecision",
            name="played_words",
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name="analyseddecision",
            name="best_words",
            field=models.JSONField(blank=True, default=dict),
        ),
        # A default for the old columns first, so that undoing this migration can add them
        # back to a table with rows before their words are copied into them.
        migrations.AlterField(
            model_name="analyseddecision",
            name="played_text",
            field=models.CharField(default="", max_length=200),
        ),
        migrations.RunPython(words_from_text, text_from_words, elidable=False),
        migrations.RemoveField(
            model_name="analyseddecision",
            name="played_text",
        ),
        migrations.RemoveField(
            model_name="analyseddecision",
            name="best_text",
        ),
    ]
