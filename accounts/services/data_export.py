"""Building a person's "your data" file (docs/accounts.md, "Your data").

``data_export_request`` records the request (refused while one from the last ``EXPORT_EVERY``
exists) and sends the worker task by name; ``data_export_write`` is that task's work: the file,
with the progress saved as it goes; ``data_exports_expire`` is the sweep of old files.

What it holds is the person's own: their account fields (no password hash), settings, time
zone, holiday, devices and relations, and the sections the capabilities above contribute as
receivers of ``accounts.signals.export_sections`` (``games.export``: ratings, notices,
invitations, table phrases and every match they sat at as its record for their seat, reporting
the progress). Nobody else's e-mail, settings or hidden cards is ever read into it.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.errors import AccountRefused
from accounts.models import (
    AccountClosure,
    Block,
    DataExport,
    Follow,
    Holiday,
    NameChange,
    PendingEmail,
    PushSubscription,
    TimeZoneSetting,
)
from accounts.selectors import notify
from accounts.selectors.data_export import EXPORT_DAYS, latest_export, next_export_at
from accounts.selectors.play_settings import play_choices
from accounts.selectors.relations import challenge_setting
from accounts.services.export_files import export_file_name, export_files_delete, export_path
from accounts.signals import export_sections
from games import queue

logger = logging.getLogger(__name__)

FORMAT = "parlour-personal-data"
FORMAT_VERSION = 1


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(dt.UTC).isoformat()


def data_export_request(*, user: AbstractBaseUser) -> DataExport:
    """Ask for a new export of ``user``'s data: a row "preparing", and the worker task sent
    after the commit. Refused (``AccountRefused``, status 429) while the last one is younger than
    ``EXPORT_EVERY``, failed ones aside; the person's row is locked, so a double post makes
    one export."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        wait_until = next_export_at(latest_export(user_id=user.pk))
        if wait_until is not None:
            raise AccountRefused(
                _(
                    "You asked for your data less than a day ago: you may ask again after "
                    "%(when)s UTC."
                )
                % {"when": f"{wait_until:%Y-%m-%d %H:%M}"},
                status=429,
            )
        export = DataExport.objects.create(user_id=user.pk)
        queue.enqueue(queue.DATA_EXPORT, export.pk)
    return export


def _account(user: AbstractBaseUser) -> dict[str, Any]:
    closure = AccountClosure.objects.filter(user_id=user.pk).first()
    pending = PendingEmail.objects.filter(user_id=user.pk).first()
    names = NameChange.objects.filter(user_id=user.pk).order_by("changed_at")
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "email_pending": None if pending is None else pending.email,
        "former_names": [
            {
                "old_name": change.old_name,
                "new_name": change.new_name,
                "at": _iso(change.changed_at),
            }
            for change in names
        ],
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "closed_at": None if closure is None else _iso(closure.closed_at),
    }


def _settings(user_id: int) -> dict[str, Any]:
    chosen = notify.settings_for(user_id)
    fields = [
        *notify.KINDS.values(),
        *notify.PUSH_KINDS.values(),
        *notify.NOTICE_KINDS.values(),
        "mute_phrases",
    ]
    return {name: getattr(chosen, name) for name in fields}


def _play(user_id: int) -> dict[str, Any]:
    chosen = play_choices(user_id)
    return {
        "confirm_moves": chosen.confirm_moves,
        "next_table_at_once": chosen.next_table_at_once,
        "keyboard_shortcuts": chosen.keyboard_shortcuts,
        "text_mode": chosen.text_mode,
    }


def _time_zone(user_id: int) -> str:
    zone = TimeZoneSetting.objects.filter(user_id=user_id).first()
    return "UTC" if zone is None else zone.zone.key


def _holiday(user_id: int) -> dict[str, Any] | None:
    holiday = Holiday.objects.filter(user_id=user_id).first()
    if holiday is None:
        return None
    return {
        "banked": holiday.banked,
        "banked_at": _iso(holiday.banked_at),
        "away_since": _iso(holiday.away_since),
        "away_until": _iso(holiday.away_until),
        "days_taken": holiday.days_taken,
    }


def _push_devices(user_id: int) -> list[dict[str, Any]]:
    """The devices that get the person's pushes: what the notifications page lists, never
    their endpoint or keys (the means to push to the device, not facts about the person)."""
    devices = PushSubscription.objects.filter(user_id=user_id).order_by("created_at", "pk")
    return [
        {
            "browser": device.browser,
            "system": device.system,
            "created_at": _iso(device.created_at),
            "last_success_at": _iso(device.last_success_at),
        }
        for device in devices
    ]


def _relations(user_id: int) -> dict[str, Any]:
    # Their own follows and blocks only: whom they follow, whom they blocked; never who
    # follows or blocked them (that is the other person's choice).
    following = Follow.objects.filter(follower_id=user_id).order_by("followed__username")
    blocking = Block.objects.filter(blocker_id=user_id).order_by("blocked__username")
    return {
        "following": list(following.values_list("followed__username", flat=True)),
        "blocked": list(blocking.values_list("blocked__username", flat=True)),
        "challenges_from": challenge_setting(user_id),
    }


def _sections_add(body: dict[str, Any], sections: dict[str, Any]) -> None:
    """Add a receiver's ``sections`` to the file's ``body``: a new top-level section, or more
    keys of one already there (the game half of ``relations``)."""
    for key, value in sections.items():
        if isinstance(body.get(key), dict) and isinstance(value, dict):
            body[key].update(value)
        else:
            body[key] = value


def data_export_write(*, export_id: int) -> DataExport | None:
    """Write the file of the export ``export_id`` if it is still preparing (a rerun of a done
    one does nothing), saving the progress every ``PROGRESS_EVERY`` matches."""
    export = DataExport.objects.select_related("user").filter(pk=export_id).first()
    if export is None or export.status != DataExport.Status.PREPARING:
        return export
    user = export.user
    counted = {"total": 0}

    def progress(done: int, total: int) -> None:
        counted["total"] = total
        DataExport.objects.filter(pk=export.pk).update(total=total, done=done)

    body: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "account": _account(user),
        "notification_settings": _settings(user.pk),
        "play_settings": _play(user.pk),
        "time_zone": _time_zone(user.pk),
        "holiday": _holiday(user.pk),
        "push_devices": _push_devices(user.pk),
        "relations": _relations(user.pk),
    }
    for _by, sections in export_sections.send(sender=None, user_id=user.pk, progress=progress):
        _sections_add(body, sections)
    body["prepared_at"] = _iso(timezone.now())
    name = export_file_name()
    path = export_path(name)
    path.write_text(json.dumps(body, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    written = DataExport.objects.filter(pk=export.pk, status=DataExport.Status.PREPARING).update(
        status=DataExport.Status.READY,
        done=counted["total"],
        total=counted["total"],
        file_name=name,
        finished_at=timezone.now(),
    )
    if not written:  # deleted (with the account) or finished by a twin meanwhile
        export_files_delete([name])
    logger.info("data export %s: %s match(es)", export.pk, counted["total"])
    return DataExport.objects.filter(pk=export.pk).first()


def data_exports_expire(*, now: dt.datetime | None = None) -> int:
    """Delete the exports older than ``EXPORT_DAYS`` and their files; how many went."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=EXPORT_DAYS)
    old = DataExport.objects.filter(created_at__lte=cutoff)
    files = list(old.values_list("file_name", flat=True))
    count, _ = old.delete()
    export_files_delete(files)
    return count
