"""Deleting an account (docs/accounts.md, "Closing and deleting").

The user row stays, because matches keep their seats (``Seat.user`` and ``Match.created_by``
protect it), and it is anonymised: named "deleted player N"
(``accounts.services.deleted_names``), no e-mail, no usable password, inactive.
``account_leaving`` is sent first, outside any transaction (``games`` makes the person leave
every match still going); then everything else that is theirs goes in one transaction, in which
``account_deleting`` is sent (``games`` removes or renames the rows about their play and bumps
the versions of the matches they sat at).

The names the person gave up are held from everyone for ``NAME_HELD``, as a rename's old name
is: their last name from now, each old name of a rename still held for what remains of its time
(``HeldName`` rows, tied to no account: they lead nowhere and say nothing of who it was). Rows
whose time is out are dropped on the way.
"""

from __future__ import annotations

import logging

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import (
    AccountClosure,
    Block,
    ChallengeSetting,
    DataExport,
    Follow,
    HeldName,
    Holiday,
    NameChange,
    NotificationSettings,
    PendingEmail,
    PlaySettings,
    PushSubscription,
    TimeZoneSetting,
)
from accounts.selectors.names import NAME_HELD
from accounts.services.closure import sessions_end
from accounts.services.deleted_names import deleted_name
from accounts.services.export_files import export_files_delete
from accounts.signals import account_deleting, account_leaving

logger = logging.getLogger(__name__)


def account_delete(*, user: AbstractBaseUser) -> str:
    """Delete ``user``'s account (at once, or by the sweep when a closing ran out): see the
    module's docstring. Returns the name they go by now. Idempotent: a deleted account stays
    as it is."""
    if not user.is_active and user.get_username() == deleted_name(user.pk):
        account_leaving.send(sender=None, user=user)  # a deletion cut short is finished
        return user.get_username()
    old_name = user.get_username()
    account_leaving.send(sender=None, user=user)
    new_name = deleted_name(user.pk)
    with transaction.atomic():
        users = get_user_model()
        person = users.objects.select_for_update().get(pk=user.pk)
        person.username = new_name
        person.email = ""
        person.first_name = ""
        person.last_name = ""
        person.is_active = False
        person.is_staff = False
        person.is_superuser = False
        person.last_login = None
        person.set_unusable_password()
        person.save()
        names_hold(user_id=user.pk, last_name=old_name)
        person.groups.clear()
        person.user_permissions.clear()
        for model in (
            NotificationSettings,
            TimeZoneSetting,
            Holiday,
            PendingEmail,
            NameChange,  # former names go: they name them
            ChallengeSetting,
            PlaySettings,
            PushSubscription,  # their devices: no push reaches them again
        ):
            model.objects.filter(user_id=user.pk).delete()
        Follow.objects.filter(Q(follower_id=user.pk) | Q(followed_id=user.pk)).delete()
        Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk)).delete()
        AccountClosure.objects.filter(user_id=user.pk).delete()
        files = list(DataExport.objects.filter(user_id=user.pk).values_list("file_name", flat=True))
        DataExport.objects.filter(user_id=user.pk).delete()
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username__iexact=old_name).delete()
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(users), object_id=str(user.pk)
        ).update(object_repr=new_name, change_message="")
        account_deleting.send(sender=None, user_id=user.pk, old_name=old_name, new_name=new_name)
        sessions_end(user_id=user.pk)
    export_files_delete(files)
    logger.info("account deleted: user id %s", user.pk)
    return new_name


def names_hold(*, user_id: int, last_name: str) -> None:
    """Hold the names the person being deleted gives up (see the module's docstring), before
    their ``NameChange`` rows go."""
    now = timezone.now()
    HeldName.objects.filter(given_up_at__lt=now - NAME_HELD).delete()
    renamed = NameChange.objects.filter(user_id=user_id, changed_at__gte=now - NAME_HELD)
    HeldName.objects.bulk_create(
        [HeldName(name=last_name, given_up_at=now)]
        + [
            HeldName(name=old, given_up_at=when)
            for old, when in renamed.values_list("old_name", "changed_at")
            if old.lower() != last_name.lower()
        ]
    )
