"""A person's data exports, read (docs/accounts.md, "Your data"): the latest, when it expires,
when another may be asked for, and the one file its owner may download."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from accounts.models import DataExport

EXPORT_EVERY = dt.timedelta(days=1)
EXPORT_DAYS = 7


def next_export_at(export: DataExport | None) -> dt.datetime | None:
    """When the person may ask again after ``export`` (``None``: now)."""
    if export is None or export.status == DataExport.Status.FAILED:
        return None
    at = export.created_at + EXPORT_EVERY
    return at if at > timezone.now() else None


def expires_at(export: DataExport) -> dt.datetime:
    return export.created_at + dt.timedelta(days=EXPORT_DAYS)


def latest_export(*, user_id: int) -> DataExport | None:
    return DataExport.objects.filter(user_id=user_id).order_by("-created_at", "-pk").first()


def ready_export(*, export_id: int, user_id: int) -> DataExport | None:
    """The export ``export_id`` if it is ``user_id``'s and ready (anyone else's: ``None``)."""
    return DataExport.objects.filter(
        pk=export_id, user_id=user_id, status=DataExport.Status.READY
    ).first()
