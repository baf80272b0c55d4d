"""The ``throttle`` cache: Django's database cache with an atomic, expiry-keeping ``incr``.

django-ratelimit counts requests with ``cache.add`` and ``cache.incr``. It needs a cache that
every web process shares, on the embedded SQLite default and on PostgreSQL alike, and that keeps
answering when Redis is down (a fault test stops Redis while people play): the site's own
database is the one store with all three properties. Django's ``DatabaseCache`` falls short in
two ways that matter to a counter, both fixed here:

- its ``incr`` (from ``BaseCache``) is a read then a write, so two requests at once can both
  read 4 and both write 5, and a burst gets past the limit (django-ratelimit's system check
  refuses ``DatabaseCache`` for exactly this);
- that write is a plain ``set`` with the default timeout, so every increment moved the counter's
  expiry to five minutes from now, and an hourly limit quietly became a five-minute one.

``incr`` here first touches the row with an ``UPDATE`` that changes nothing: on PostgreSQL that
takes the row's lock, on SQLite the database's write lock, so concurrent increments queue up
behind one another until the transaction commits. It then reads, adds and writes back the value
without touching ``expires``.
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

from django.core.cache.backends.db import DatabaseCache
from django.db import connections, models, router, transaction
from django.utils.timezone import now


class AtomicCounterDatabaseCache(DatabaseCache):
    """``DatabaseCache`` whose ``incr`` is atomic and leaves the entry's expiry alone."""

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        """Add ``delta`` to a stored number; ``ValueError`` if there is none (Django's contract)."""
        cache_key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table = quote_name(self._table)
        key_column = quote_name("cache_key")
        value_column = quote_name("value")
        expires_column = quote_name("expires")
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {expires_column} = {expires_column} WHERE {key_column} = %s",
                [cache_key],
            )
            if cursor.rowcount == 0:
                raise ValueError(f"Key '{key}' not found")
            cursor.execute(
                f"SELECT {value_column}, {expires_column} FROM {table} WHERE {key_column} = %s",
                [cache_key],
            )
            stored, expires = cursor.fetchone()
            expression = models.Expression(output_field=models.DateTimeField())
            converters = connection.ops.get_db_converters(
                expression
            ) + expression.get_db_converters(connection)
            for converter in converters:
                expires = converter(expires, expression, connection)
            if expires < now():
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(connection.ops.process_clob(stored).encode()))
            value += delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {value_column} = %s WHERE {key_column} = %s",
                [encoded, cache_key],
            )
        return value

    def decr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        """Subtract ``delta``, atomically like ``incr``."""
        return self.incr(key, -delta, version=version)
