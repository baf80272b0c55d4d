"""Deleting an account (docs/accounts.md, "Closing and deleting").

The user row stays, because matches keep their seats (``Seat.user`` and ``Match.created_by``
protect it), and it is anonymised: named "deleted player N" (``accounts.deleted_names``), no
e-mail, no usable password, inactive. The person leaves every match still going first, through
the same services a person uses (``games.services.leaving``): a running seat resigns, so the
greedy bot plays it on and the record verifies (the resignation is a link of the hash chain);
a waiting match they created is cancelled, one they joined is left. Then everything else that
is theirs goes, and every match they sat at bumps its version, so no page cached under the old
version (the replay's move list) shows the old name.
"""

from __future__ import annotations

import logging

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import F, Q

from accounts.closure import sessions_end
from accounts.deleted_names import deleted_name
from accounts.export_files import export_files_delete
from accounts.models import (
    AccountClosure,
    Block,
    ChallengeSetting,
    DataExport,
    Follow,
    Holiday,
    MatchNotice,
    NameChange,
    NotificationSettings,
    PendingEmail,
    PushSubscription,
    TimeZoneSetting,
)
from games.engines import get_engine
from games.live import publish as live
from games.models import Match, MatchAnalysis, Rating, Seat, TablePhrase
from games.services._store import due_work_enqueue
from games.services.errors import Rejected
from games.services.leaving import match_cancel, match_leave, match_resign
from games.services.ratings import NOTE_DEADLINE

logger = logging.getLogger(__name__)


def _matches_leave(user: AbstractBaseUser) -> None:
    """Resign every running seat, cancel every waiting match they created (seated or only
    watching) and leave every other waiting one, one transaction each (a match that moved on
    meanwhile, ended or already resigned, is left as it is)."""
    going = [Match.Status.ACTIVE, Match.Status.WAITING]
    seats = Seat.objects.filter(user_id=user.pk, match__status__in=going, resigned_ply__isnull=True)
    steps = [
        (match_resign if status == Match.Status.ACTIVE else match_leave, match_id)
        for match_id, status, creator in seats.values_list(
            "match_id", "match__status", "match__created_by_id"
        )
        if status == Match.Status.ACTIVE or creator != user.pk
    ]
    created = Match.objects.filter(created_by_id=user.pk, status=Match.Status.WAITING)
    steps += [(match_cancel, match_id) for match_id in created.values_list("pk", flat=True)]
    for step, match_id in steps:
        try:
            step(match_id=match_id, user=user)
        except Rejected as exc:
            logger.info("account deletion: match %s moved on (%s)", match_id, exc.status)


def _versions_bump(match_ids: list[int]) -> None:
    """Bump the version of each match: pages cached under the old one (the replay's move list)
    are not served again, and open tables fetch the new names at their next poll. A running
    match is bumped under its row lock and the bot's turn or deal due at the old version is
    sent again at the new one, as a resignation does."""
    Match.objects.filter(pk__in=match_ids).exclude(status=Match.Status.ACTIVE).update(
        version=F("version") + 1
    )
    for match in Match.objects.select_for_update().filter(
        pk__in=match_ids, status=Match.Status.ACTIVE
    ):
        match.version += 1
        match.save(update_fields=["version", "updated_at"])
        live.table_changed(match)
        engine = get_engine(match.game)
        seats = list(Seat.objects.filter(match_id=match.pk))
        due_work_enqueue(
            match=match, engine=engine, state=engine.load(match.state), window=False, seats=seats
        )


def account_delete(*, user: AbstractBaseUser) -> str:
    """Delete ``user``'s account (at once, or by the sweep when a closing ran out): see the
    module's docstring. Returns the name they go by now. Idempotent: a deleted account stays
    as it is."""
    if not user.is_active and user.get_username() == deleted_name(user.pk):
        _matches_leave(user)  # a deletion cut short before its end is finished
        return user.get_username()
    old_name = user.get_username()
    _matches_leave(user)
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
        person.groups.clear()
        person.user_permissions.clear()
        # Their ratings leave the leaderboards (and their own changes go with them, by
        # cascade); the other seats' changes from the same matches stay: they are theirs.
        Rating.objects.filter(user_id=user.pk).delete()
        for model in (
            NotificationSettings,
            TimeZoneSetting,
            Holiday,
            PendingEmail,
            NameChange,  # former names go: they name them
            ChallengeSetting,
            PushSubscription,  # their devices: no push reaches them again
        ):
            model.objects.filter(user_id=user.pk).delete()
        Follow.objects.filter(Q(follower_id=user.pk) | Q(followed_id=user.pk)).delete()
        Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk)).delete()
        MatchNotice.objects.filter(user_id=user.pk).delete()
        TablePhrase.objects.filter(user_id=user.pk).delete()  # what they said at tables
        AccountClosure.objects.filter(user_id=user.pk).delete()
        files = list(DataExport.objects.filter(user_id=user.pk).values_list("file_name", flat=True))
        DataExport.objects.filter(user_id=user.pk).delete()
        MatchAnalysis.objects.filter(requested_by_id=user.pk).update(requested_by=None)
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username__iexact=old_name).delete()
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(users), object_id=str(user.pk)
        ).update(object_repr=new_name, change_message="")
        sat = Match.objects.filter(Q(seats__user_id=user.pk) | Q(created_by_id=user.pk))
        ids = list(sat.values_list("pk", flat=True).distinct())
        old_note = NOTE_DEADLINE.format(name=old_name)
        Match.objects.filter(pk__in=ids, rating_note=old_note).update(
            rating_note=NOTE_DEADLINE.format(name=new_name)
        )
        _versions_bump(ids)
        sessions_end(user_id=user.pk)
    export_files_delete(files)
    logger.info("account deleted: user id %s", user.pk)
    return new_name
