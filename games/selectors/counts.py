"""Several row counts read in one statement: ``SELECT (SELECT COUNT(..) ..), (SELECT ..)``.

The badge adds up a count for each kind of notice the person keeps on (games' kinds and those a
capability above games adds); each is a query set of the rows it counts, and this module asks
the database for all of them at once, so the badge costs one statement however many kinds there
are (``games.views.notice_sources.notice_counts``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import connection
from django.db.models import F, Func, IntegerField, QuerySet


def counts_at_once(querysets: Mapping[str, QuerySet[Any]]) -> dict[str, int]:
    """Each query set's number of rows, by its key, in one statement (none for no query set).
    A query set that is sliced or distinct is refused: its count would not be its rows'."""
    if not querysets:
        return {}
    parts: list[str] = []
    params: list[Any] = []
    for key, queryset in querysets.items():
        if queryset.query.is_sliced or queryset.query.distinct:
            raise ValueError(f"counts_at_once: {key!r} is sliced or distinct")
        # COUNT as a plain function, not an aggregate: Django adds no GROUP BY, so the subquery
        # is one row, the count of the rows the query set's WHERE keeps.
        counted = (
            queryset.order_by()
            .annotate(_rows=Func(F("pk"), function="COUNT", output_field=IntegerField()))
            .values("_rows")
        )
        sql, sql_params = counted.query.sql_with_params()
        parts.append(f"({sql})")
        params.extend(sql_params)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        row = cursor.fetchone()
    return {key: int(value or 0) for key, value in zip(querysets, row, strict=True)}
