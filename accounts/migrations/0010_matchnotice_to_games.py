# MatchNotice moves to games (issue 32): state only, the table accounts_matchnotice stays.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_push_subscriptions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="MatchNotice")],
            database_operations=[],
        ),
    ]
