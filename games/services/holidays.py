"""Going on holiday and coming back (docs/accounts.md, "Holidays").

Both writes lock, first, every match in play the person sits at (by id, the order a move's
lock takes them in too), then the person's holiday row. A deadline's move for that person
checks the holiday under the same match lock (``games.services.moves.move_submit``), so a
holiday and a deadline sweep racing for one turn are ordered: either the sweep played the move
before the holiday began, or it sees the holiday and plays nothing.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import Holiday
from accounts.selectors.holiday_allowance import (
    CAP,
    allowance_at,
    days_back,
    days_spent,
    latest_until,
)
from accounts.selectors.holidays import start_days
from games.models import Match, Seat
from games.services._store import deadline_span, match_shown
from games.services.errors import Rejected


def away_until(*, user_id: int, now: datetime.datetime) -> datetime.datetime | None:
    """When ``user_id``'s holiday ends, if they are on one at ``now`` (one query)."""
    return (
        Holiday.objects.filter(user_id=user_id, away_since__lte=now, away_until__gt=now)
        .values_list("away_until", flat=True)
        .first()
    )


def holiday_end_of(day: datetime.date) -> datetime.datetime:
    """The moment a holiday "until ``day``" ends: the midnight after it, in the current zone."""
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min)) + (
        datetime.timedelta(days=1)
    )


def _is_away(row: Holiday, now: datetime.datetime) -> bool:
    return (
        row.away_since is not None
        and row.away_until is not None
        and row.away_since <= now < row.away_until
    )


def _locked_row(user: AbstractBaseUser) -> tuple[Holiday, list[Match]]:
    """The person's matches in play, locked (their marks only), then their holiday row (made
    if missing), locked."""
    matches = list(
        Match.objects.select_for_update(of=("self",))
        .filter(status=Match.Status.ACTIVE, pk__in=Seat.objects.filter(user=user).values("match"))
        .order_by("pk")
        .only("pk", "version", "shown")
    )
    Holiday.objects.get_or_create(
        user=user, defaults={"banked": start_days(), "banked_at": user.date_joined}
    )
    return Holiday.objects.select_for_update().get(user=user), matches


def _tables_tell(matches: list[Match]) -> None:
    """The tables of the person's matches in play show their holiday line (or no longer do):
    each page refetches, and no move sent meanwhile is stale (``match_shown``)."""
    for match in matches:
        match_shown(match=match)


def holiday_start(
    *, user: AbstractBaseUser, until: datetime.date, now: datetime.datetime | None = None
) -> Holiday:
    """Go on holiday from now to the end of ``until``, spending a day per day it touches.

    Refused (nothing changes) for a day already past, a holiday longer than the allowance, or
    a person already on holiday (a second click of the same form).
    """
    now = now or timezone.now()
    today = timezone.localdate(now)
    if until < today:
        raise Rejected(_("That day has passed: choose today or a later day."), status=400)
    with transaction.atomic():
        row, matches = _locked_row(user)
        if _is_away(row, now):
            last = timezone.localdate(row.away_until - datetime.timedelta(microseconds=1))
            raise Rejected(
                _("You are already on holiday until %(last)s. End it first to choose another day.")
                % {"last": date_format(last, "j M Y")},
                status=409,
            )
        allowance = allowance_at(banked=row.banked, banked_at=row.banked_at, now=now)
        cost = days_spent(today=today, until=until)
        if cost > allowance.days:
            latest = latest_until(today=today, days=allowance.days)
            if latest is None:
                raise Rejected(
                    _("You have no holiday days yet: you earn one each week, up to %(cap)d.")
                    % {"cap": CAP},
                    status=400,
                )
            raise Rejected(
                _(
                    "That holiday would take %(cost)d days and you have %(days)d: "
                    "the last day you may choose is %(latest)s."
                )
                % {"cost": cost, "days": allowance.days, "latest": date_format(latest, "j M Y")},
                status=400,
            )
        row.banked = allowance.days - cost
        row.banked_at = allowance.since
        row.away_since = now
        row.away_until = holiday_end_of(until)
        row.days_taken = cost
        row.save()
        _tables_tell(matches)
    return row


def holiday_end(*, user: AbstractBaseUser, now: datetime.datetime | None = None) -> int:
    """Come back early: the days not yet begun go back to the allowance (up to the cap), and a
    deadline the holiday moved past a full span from now comes back to that. Returns the days
    given back; refused for a person not on holiday (a second click)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    with transaction.atomic():
        row, matches = _locked_row(user)
        if not _is_away(row, now):
            raise Rejected(_("You are not on holiday."), status=409)
        last = timezone.localdate(row.away_until - datetime.timedelta(microseconds=1))
        back = min(row.days_taken, days_back(today=today, until=last))
        allowance = allowance_at(banked=row.banked, banked_at=row.banked_at, now=now)
        row.banked = min(CAP, allowance.days + back)
        row.banked_at = now if row.banked == CAP else allowance.since
        row.away_since = None
        row.away_until = None
        row.days_taken = 0
        row.save()
        _deadlines_pull_back(user=user, now=now)
        _tables_tell(matches)
    return back


def _deadlines_pull_back(*, user: AbstractBaseUser, now: datetime.datetime) -> None:
    """Where the person is awaited and the deadline sweep moved the deadline past the holiday's
    planned end, the deadline becomes a full span from now: it restarts from the return."""
    seats = Seat.objects.filter(
        user=user,
        awaited_since__isnull=False,
        match__status=Match.Status.ACTIVE,
        match__holidays=True,
        match__deadline_at__isnull=False,
    ).select_related("match")
    for seat in seats:
        match = seat.match
        restart = now + deadline_span(match)
        if match.deadline_at > restart:
            Match.objects.filter(pk=match.pk).update(deadline_at=restart)
