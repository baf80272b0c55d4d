"""Leagues under races (docs/competitions.md, "Entering"), on whichever database the suite runs
on (PostgreSQL's row locks, or the SQLite file's IMMEDIATE transactions): two people taking the
last place, an entry against the start, a withdrawal against the pairing of the person's next
table. Each race is released by one barrier (``factories.at_once``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from competitions.league_entries import EntryRefused, league_enter, league_withdraw
from competitions.league_start import league_start
from competitions.league_sweep import league_tend
from competitions.models import Entry, Event, EventTable
from games.models import Match, Seat
from games.services.play_out import match_play_out
from tests import factories
from tests.integration.league_helpers import league_make, people

pytestmark = pytest.mark.django_db(transaction=True)


def _try_enter(event_id: int, user) -> str:
    try:
        league_enter(event_id=event_id, user=user)
    except EntryRefused as exc:
        return exc.message
    return "in"


def test_two_people_for_the_last_place_one_enters_and_the_league_starts_once():
    event = league_make(circle_size=3)
    first, second, ann, bea = people("last", 4)
    for user in (first, second):
        league_enter(event_id=event.pk, user=user)
    answers = factories.at_once(
        [lambda: _try_enter(event.pk, ann), lambda: _try_enter(event.pk, bea)]
    )
    assert sorted(answers) == ["This league has started: it takes no more entries.", "in"]
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert Entry.objects.filter(event=event).count() == 3
    assert EventTable.objects.filter(event=event).count() == 3  # one schedule, written once
    winner = ann if answers[0] == "in" else bea
    assert winner.pk in event.draw[0]


def test_an_entry_against_the_start_is_either_drawn_or_refused():
    for round_ in range(3):
        event = league_make(
            circle_size=3, circles=2, starts_at=timezone.now() + dt.timedelta(hours=1)
        )
        for user in people(f"st{round_}-", 3):
            league_enter(event_id=event.pk, user=user)
        late = factories.user_make(f"late{round_}")
        answers = factories.at_once(
            [lambda e=event, u=late: _try_enter(e.pk, u), lambda e=event: league_start(event=e)]
        )
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING
        drawn = {u for circle in event.draw for u in circle}
        entry = Entry.objects.filter(event=event, user=late).first()
        if answers[0] == "in":
            # in before the start: among the earliest three, so not seated (a fourth entry)
            assert entry is not None and entry.withdrawn == Entry.Withdrawn.NO_ROOM
            assert late.pk not in drawn
        else:
            assert answers[0] == "This league has started: it takes no more entries."
            assert entry is None
        assert len(drawn) == 3


def test_a_withdrawal_against_the_pairing_never_seats_the_withdrawn_person():
    for round_ in range(3):
        event = league_make(circle_size=3, open_most=1)
        users = people(f"wd{round_}-", 3)
        for user in users:
            league_enter(event_id=event.pk, user=user)
        first = EventTable.objects.get(event=event, match__isnull=False)
        match_play_out(match_id=first.match_id)  # room again: the sweep pairs the next table
        event.refresh_from_db()
        leaver = event.draw[0][
            EventTable.objects.filter(event=event, match__isnull=True).first().labels[0]
        ]
        factories.at_once(
            [
                lambda e=event, u=leaver: league_withdraw(event_id=e.pk, user_id=u),
                lambda e=event: league_tend(event_id=e.pk),
            ]
        )
        assert Entry.objects.get(event=event, user_id=leaver).withdrawn == Entry.Withdrawn.SELF
        # Whichever came first: a table opened before the withdrawal is resigned by it, and
        # none opens after it with the person playing.
        for seat in Seat.objects.filter(
            user_id=leaver, match__event_table__event=event, match__status=Match.Status.ACTIVE
        ):
            assert seat.resigned_ply is not None
        league_tend(event_id=event.pk)
        assert not Seat.objects.filter(
            user_id=leaver,
            match__event_table__event=event,
            match__status=Match.Status.ACTIVE,
            resigned_ply__isnull=True,
        ).exists()
