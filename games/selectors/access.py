"""Who may see a match: a public match any signed-in user, a private one its members only.

The members of a match are the people seated at it and its creator (who may only watch).
Everyone else is told a private match does not exist (404), so its existence does not leak;
what a permitted viewer sees of the cards is the engine's business (``engine.view``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import Invitation, Match, MatchNotice, Seat


def match_visible(*, match: Match, seats: Sequence[Seat], user: AbstractBaseUser) -> bool:
    """Whether ``user`` may see ``match`` (its table, replay and record) at all."""
    if match.public and user.is_authenticated:
        return True
    if not user.is_authenticated:
        return False
    return match.created_by_id == user.pk or any(s.user_id == user.pk for s in seats)


def matches_visible_q(user: AbstractBaseUser, *, via: str = "") -> Q:
    """A filter for the matches ``user`` may see, for lists and counts: on ``Match`` itself
    (``via=""``), or on a model reaching it through a foreign key (``via="match"`` on
    ``Seat``). One ``EXISTS`` for membership, so a list stays one query without duplicate rows.
    """
    prefix = f"{via}__" if via else ""
    if not user.is_authenticated:
        return Q(pk__in=[])
    member = Seat.objects.filter(match_id=OuterRef(f"{prefix}pk"), user_id=user.pk)
    return (
        Q(**{f"{prefix}public": True})
        | Q(**{f"{prefix}created_by_id": user.pk})
        | Q(Exists(member))
    )


def match_visible_or_404(*, match: Match, seats: Sequence[Seat], user: AbstractBaseUser) -> None:
    if not match_visible(match=match, seats=seats, user=user):
        raise Http404("No such match.")


def match_poll_version(*, match_id: int, user: AbstractBaseUser) -> tuple[int, int] | None:
    """The match's ``version`` and its ``shown`` mark (docs/live.md) if ``user`` may see the
    match, else ``None`` (as for no match)."""
    found = match_watch_marks(match_id=match_id, user=user)
    return None if found is None else found[0]


def match_watch_marks(
    *, match_id: int, user: AbstractBaseUser
) -> tuple[tuple[int, int], bool] | None:
    """``match_poll_version``'s answer and whether ``user`` is a member of the match (its
    creator, a seat, or invited to it) rather than a watcher of a public match; ``None`` if
    they may not see it (as for no match). A live stream tells members first (docs/live.md).

    Every open table asks this every two seconds, so it is one plain statement: through the
    ORM (``filter().values_list().first()``) a version read measured 0.36 ms here against
    0.14 ms written out, the difference between a poll at 1.2x a trivial page and one at 1.1x
    (docs/performance.md). Standard SQL, so SQLite runs the same text.
    """
    found = match_poll_marks(match_id=match_id, user=user, seen=False)
    return None if found is None else ((found.version, found.said), found.member)


class PollMarks(NamedTuple):
    """What the poll reads first (``match_poll_marks``)."""

    version: int
    said: int  # the match's ``shown`` mark (docs/live.md)
    member: bool
    # When the table was last served in full to ``user`` (``MatchNotice.seen_at``; ``None``:
    # never, or not asked): the poll writes the seen mark only when it would change what the
    # mark decides (docs/notifications.md).
    seen_at: datetime | None


def match_poll_marks(
    *, match_id: int, user: AbstractBaseUser, seen: bool = True
) -> PollMarks | None:
    """``match_watch_marks``'s facts, and with ``seen`` the reader's seen mark of the match, in
    the same one statement (a subquery on the mark's unique key); ``None`` if ``user`` may not
    see the match (as for no match)."""
    q = connection.ops.quote_name
    match_table, seat_table = q(Match._meta.db_table), q(Seat._meta.db_table)
    invitation_table = q(Invitation._meta.db_table)
    version = q(Match._meta.get_field("version").column)
    shown = q(Match._meta.get_field("shown").column)
    public = q(Match._meta.get_field("public").column)
    creator = q(Match._meta.get_field("created_by").column)
    key = q(Match._meta.pk.column)
    seat_match = q(Seat._meta.get_field("match").column)
    seat_user = q(Seat._meta.get_field("user").column)
    invited_match = q(Invitation._meta.get_field("match").column)
    invited_user = q(Invitation._meta.get_field("user").column)
    invited_status = q(Invitation._meta.get_field("status").column)
    invited_until = q(Invitation._meta.get_field("expires_at").column)
    user_id = user.pk if user.is_authenticated else None
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    params: list[object] = [user_id, user_id, user_id, Invitation.Status.PENDING.value, now]
    seen_column = ""
    if seen:
        notice_table = q(MatchNotice._meta.db_table)
        notice_match = q(MatchNotice._meta.get_field("match").column)
        notice_user = q(MatchNotice._meta.get_field("user").column)
        seen_at = q(MatchNotice._meta.get_field("seen_at").column)
        seen_column = (
            f", (SELECT n.{seen_at} FROM {notice_table} n WHERE n.{notice_match} = m.{key}"
            f" AND n.{notice_user} = %s)"
        )
        params.append(user_id)
    # A person invited to a forming match is a member of it (docs/invitations.md).
    sql = (
        f"SELECT m.{version}, m.{shown}, m.{public}, m.{creator} = %s OR EXISTS ("
        f"SELECT 1 FROM {seat_table} s WHERE s.{seat_match} = m.{key} AND s.{seat_user} = %s)"
        f" OR EXISTS (SELECT 1 FROM {invitation_table} i WHERE i.{invited_match} = m.{key}"
        f" AND i.{invited_user} = %s AND i.{invited_status} = %s AND i.{invited_until} > %s)"
        f"{seen_column} FROM {match_table} m WHERE m.{key} = %s"
    )
    params.append(match_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None or not user.is_authenticated:
        return None
    current, said, is_public, member = row[:4]
    if not (is_public or member):
        return None
    return PollMarks(current, said, bool(member), _moment(row[4]) if seen else None)


def _moment(value: datetime | str | None) -> datetime | None:
    """A datetime column read by a raw cursor, as the ORM would give it: SQLite gives its stored
    text, and both backends' connections give UTC without a zone (Django's own converters add
    it on the ORM's reads)."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return moment
