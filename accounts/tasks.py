"""The accounts' background work (docs/accounts.md): a person's data export, and the sweeps that
delete closed accounts whose 30 days ran out and exports past their 7 days. Thin: each calls its
service. The export is sent by name through ``games.queue``. (The turn push to a person's devices
is ``games.tasks.turn_push``, still registered as ``"accounts.turn_push"``.)"""

from __future__ import annotations

import logging

from celery import shared_task

from accounts.models import DataExport
from accounts.selectors.closure import closed_accounts_due
from accounts.services.data_export import data_export_write, data_exports_expire
from accounts.services.deletion import account_delete
from games import queue

logger = logging.getLogger(__name__)


@shared_task(name=queue.DATA_EXPORT, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def data_export(export_id: int) -> None:
    """Write the export's file (a rerun of a finished one does nothing); a failure marks it
    failed, so its owner may ask again at once, and is raised."""
    try:
        data_export_write(export_id=export_id)
    except Exception:
        DataExport.objects.filter(pk=export_id, status=DataExport.Status.PREPARING).update(
            status=DataExport.Status.FAILED
        )
        logger.exception("data export %s failed", export_id)
        raise


@shared_task(name="accounts.closed_accounts_delete", ignore_result=True)
def closed_accounts_delete() -> int:
    """Delete every account closed more than 30 days ago (its person never came back)."""
    count = 0
    for closure in closed_accounts_due().select_related("user")[:200]:
        account_delete(user=closure.user)
        count += 1
    if count:
        logger.info("closed_accounts_delete: %s account(s) deleted", count)
    return count


@shared_task(name="accounts.data_exports_expire", ignore_result=True)
def data_exports_expire_task() -> int:
    """Delete the data exports older than 7 days, with their files."""
    count = data_exports_expire()
    if count:
        logger.info("data_exports_expire: %s export(s) deleted", count)
    return count
