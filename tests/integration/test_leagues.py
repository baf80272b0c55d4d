"""Leagues (docs/competitions.md): entering and its gates, the start (the draw, the tables as
real matches in the scheduled seats, seat 0 first), blocks, withdrawing, forfeits and the
withdrawal after too many, the end on the stated day, and the standings from the matches."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.models import NotificationSettings
from accounts.services.relations import block_add
from competitions.league_entries import EntryRefused, league_enter, league_withdraw
from competitions.league_standings import forfeit_counts, league_standings
from competitions.league_sweep import league_tend, leagues_sweep
from competitions.models import Entry, Event, EventTable
from competitions.schedules import league_schedule
from games.engines import get_engine
from games.models import Match, Move, Rating, Seat
from games.services.play_out import match_play_out
from tests import factories
from tests.integration.league_helpers import league_make, let_deadline_pass, people

pytestmark = pytest.mark.django_db


def _enter_all(event: Event, users) -> None:
    for user in users:
        league_enter(event_id=event.pk, user=user)


# --- Entering ---------------------------------------------------------------------------------


def test_an_unconfirmed_address_is_refused_with_words():
    event = league_make()
    nobody = factories.user_make("noaddress")
    nobody.email = ""
    nobody.save()
    with pytest.raises(EntryRefused, match="Confirm your e-mail address"):
        league_enter(event_id=event.pk, user=nobody)
    assert not Entry.objects.exists()


def test_a_person_who_cannot_be_told_is_refused():
    event = league_make()
    quiet = factories.user_make("quiet")
    NotificationSettings.objects.create(user=quiet, email_turn=False, push_turn=True)
    with pytest.raises(EntryRefused, match="turn mails"):
        league_enter(event_id=event.pk, user=quiet)
    assert not Entry.objects.exists()


def test_the_rating_range_is_a_gate():
    event = league_make(rating_min=1200)
    low = factories.user_make("low")
    with pytest.raises(EntryRefused, match="ratings 1200 to any"):
        league_enter(event_id=event.pk, user=low)
    high = factories.user_make("high")
    Rating.objects.create(game="faraway", user=high, mu=60.0, sigma=1.0, matches=30)
    league_enter(event_id=event.pk, user=high)
    assert Entry.objects.filter(user=high).exists()


def test_an_entry_across_a_block_is_refused_either_way_round():
    event = league_make()
    ann, bea, cal = people("blk", 3)
    league_enter(event_id=event.pk, user=ann)
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    with pytest.raises(EntryRefused, match="A block stands between you"):
        league_enter(event_id=event.pk, user=bea)
    block_add(blocker_id=cal.pk, blocked_id=ann.pk)
    with pytest.raises(EntryRefused, match="A block stands between you"):
        league_enter(event_id=event.pk, user=cal)
    assert list(Entry.objects.values_list("user__username", flat=True)) == ["blk0"]


def test_entering_twice_keeps_one_entry_and_withdrawing_before_the_start_frees_the_place():
    event = league_make()
    ann = factories.user_make("ann")
    first = league_enter(event_id=event.pk, user=ann)
    assert league_enter(event_id=event.pk, user=ann).pk == first.pk
    assert league_withdraw(event_id=event.pk, user_id=ann.pk)
    assert not Entry.objects.exists()
    assert not league_withdraw(event_id=event.pk, user_id=ann.pk)


# --- The start --------------------------------------------------------------------------------


def test_the_last_place_taken_starts_the_league_with_its_draw_and_first_tables():
    event = league_make(circle_size=3, open_most=1)
    users = people("p", 3)
    _enter_all(event, users)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert sorted(event.draw[0]) == sorted(u.pk for u in users)
    assert event.ends_at is not None and event.ends_at > event.started_at
    schedule = league_schedule(3, 2)
    tables = list(EventTable.objects.filter(event=event).order_by("number"))
    assert [t.labels for t in tables] == [list(t) for t in schedule.tables]
    opened = [t for t in tables if t.match_id]
    # one open table each at most: three people, two seats, so one table opens
    assert len(opened) == 1
    table = opened[0]
    match = table.match
    seated = list(Seat.objects.filter(match=match).order_by("index").values_list("user_id", flat=True))
    assert seated == [event.draw[0][label] for label in table.labels]
    assert (match.status, match.public, match.rated) == ("active", False, False)
    assert match.awaiting == [0]  # seat 0 moves first: the engine's dealer chosen for it
    assert match.deadline_at is not None


def test_no_entry_after_the_start():
    event = league_make(circle_size=3)
    _enter_all(event, people("s", 3))
    late = factories.user_make("late")
    with pytest.raises(EntryRefused, match="has started"):
        league_enter(event_id=event.pk, user=late)


def test_a_timed_start_seats_whole_circles_and_tells_the_rest():
    event = league_make(circle_size=3, circles=3, starts_at=timezone.now() + dt.timedelta(hours=1))
    users = people("t", 7)
    _enter_all(event, users)
    assert Event.objects.get(pk=event.pk).status == Event.Status.OPEN
    leagues_sweep(now=timezone.now() + dt.timedelta(hours=2))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING and event.circles == 2
    left = Entry.objects.get(withdrawn=Entry.Withdrawn.NO_ROOM)
    assert left.user_id == users[-1].pk
    assert left.user_id not in {u for circle in event.draw for u in circle}


def test_a_block_made_after_entering_keeps_the_two_apart():
    event = league_make(circle_size=3, open_most=2)
    ann, bea, cal = people("k", 3)
    _enter_all(event, [ann, bea])
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    league_enter(event_id=event.pk, user=cal)
    event.refresh_from_db()
    assert Match.objects.count() == 2
    for match in Match.objects.all():
        users = set(match.seats.values_list("user_id", flat=True))
        assert not {ann.pk, bea.pk} <= users
    dropped = EventTable.objects.get(dropped=EventTable.Dropped.BLOCK)
    assert {event.draw[0][label] for label in dropped.labels} == {ann.pk, bea.pk}
