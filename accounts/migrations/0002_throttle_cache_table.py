"""The database table of the ``throttle`` cache (sign-in, registration and reset counters).

Django creates a database cache's table with ``manage.py createcachetable``, a step a deployment
that runs only ``migrate`` would miss (the first registration would then fail). Running that
command here makes ``migrate`` enough; it creates only tables that are missing, so it is safe
beside a manual ``createcachetable`` and on every later migrate.
"""

from django.core.management import call_command
from django.db import migrations


def cache_table_create(apps, schema_editor) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(cache_table_create, migrations.RunPython.noop)]
