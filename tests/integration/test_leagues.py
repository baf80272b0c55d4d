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
    seated = list(
        Seat.objects.filter(match=match).order_by("index").values_list("user_id", flat=True)
    )
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


# --- Playing, forfeits, withdrawal, the end ---------------------------------------------------


def test_a_finished_table_frees_room_and_the_next_table_opens_at_the_sweep():
    event = league_make(circle_size=3, open_most=1)
    _enter_all(event, people("r", 3))
    first = EventTable.objects.get(event=event, match__isnull=False)
    match_play_out(match_id=first.match_id)
    assert Match.objects.get(pk=first.match_id).status == "finished"
    league_tend(event_id=event.pk)
    assert EventTable.objects.filter(event=event, match__isnull=False).count() == 2


def test_play_out_finishes_through_the_move_funnel_and_the_record_verifies():
    event = league_make(game="gulliver", seats=3, circle_size=4, open_most=3)
    _enter_all(event, people("g", 4))
    table = EventTable.objects.filter(event=event, match__isnull=False).first()
    played = match_play_out(match_id=table.match_id)
    match = Match.objects.get(pk=table.match_id)
    assert match.status == "finished" and played == match.moves.exclude(seat=None).count()
    assert set(match.moves.exclude(seat=None).values_list("auto", flat=True)) == {
        Move.Auto.PLAYED_OUT
    }
    factories.assert_replays(match)
    seated = match.seats.get(index=0).user
    page = factories.client_for(seated).get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert "(the table&#x27;s time ran out)" in page.content.decode()


def test_a_deadline_move_is_a_forfeit_and_too_many_withdraw_the_person():
    event = league_make(circle_size=3, open_most=2, absences_most=2)
    users = people("f", 3)
    _enter_all(event, users)
    event.refresh_from_db()
    absent = event.draw[0][0]  # label 0: seat 0 of its first table, so awaited at once
    for table in EventTable.objects.filter(event=event, match__isnull=False):
        match = table.match
        for _ in range(6):
            match.refresh_from_db()
            if match.status != "active":
                break
            awaited_user = Seat.objects.get(match=match, index=match.awaiting[0]).user_id
            if awaited_user != absent:
                match_play_out_one(match)
            else:
                let_deadline_pass(match)
    counts = forfeit_counts(event)
    assert counts[absent] == 2
    league_tend(event_id=event.pk)
    entry = Entry.objects.get(event=event, user_id=absent)
    assert entry.withdrawn == Entry.Withdrawn.ABSENT
    for seat in Seat.objects.filter(user_id=absent, match__status="active"):
        assert seat.resigned_ply is not None  # the greedy bot plays the seat on
    assert not EventTable.objects.filter(event=event, match__isnull=True, dropped="").exists()


def match_play_out_one(match: Match) -> None:
    """One move of the awaited person, played by the person (a random legal move)."""
    import random

    from tests.integration.league_helpers import play_turn

    play_turn(match, random.Random(match.pk * 7 + match.version))


def test_the_league_ends_on_its_stated_day_with_every_table_finished():
    event = league_make(circle_size=5, open_most=1)
    users = people("e", 5)
    _enter_all(event, users)
    event.refresh_from_db()
    stated = event.ends_at
    running_before = Match.objects.filter(status="active").count()
    assert running_before >= 2
    leagues_sweep(now=stated - dt.timedelta(minutes=1))
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    leagues_sweep(now=stated)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.finished_at == stated
    assert not Match.objects.filter(status="active").exists()
    assert not EventTable.objects.filter(event=event, match__isnull=True, dropped="").exists()
    for match in Match.objects.filter(event_table__event=event):
        factories.assert_replays(match)


def test_a_table_past_its_allowance_is_finished_by_the_bots():
    event = league_make(circle_size=3, open_most=1, deadline_days=1)
    _enter_all(event, people("a", 3))
    table = EventTable.objects.get(event=event, match__isnull=False)
    league_tend(event_id=event.pk, now=table.opened_at + dt.timedelta(days=5))
    assert Match.objects.get(pk=table.match_id).status == "active"
    league_tend(event_id=event.pk, now=table.opened_at + dt.timedelta(days=6))
    assert Match.objects.get(pk=table.match_id).status == "finished"


def test_standings_come_from_the_finished_matches():
    event = league_make(circle_size=3, open_most=2)
    users = people("st", 3)
    _enter_all(event, users)
    leagues_sweep(now=Event.objects.get(pk=event.pk).ends_at)
    event.refresh_from_db()
    [circle] = league_standings(event=event, withdrawn=set())
    total = sum(row.points for row in circle.rows)
    # three tables of two seats: each gives 2 points (a win) or 1 + 1 (a draw)
    assert total == 6
    assert [row.played for row in circle.rows] == [2, 2, 2]
    ranks = {}
    for seat in Seat.objects.filter(match__event_table__event=event):
        ranks.setdefault(seat.user_id, 0)
        others = Seat.objects.filter(match=seat.match).exclude(pk=seat.pk).get()
        ranks[seat.user_id] += (
            2 if seat.rank < others.rank else 1 if seat.rank == others.rank else 0
        )
    assert {row.user: row.points for row in circle.rows} == ranks
    places = [row.place for row in circle.rows]
    assert places[0] == 1 and places == sorted(places)


def test_deleting_an_account_withdraws_the_person():
    from accounts.services.deletion import account_delete

    event = league_make(circle_size=3, open_most=2)
    users = people("d", 3)
    _enter_all(event, users)
    account_delete(user=users[1])
    entry = Entry.objects.get(event=event, user=users[1])
    assert entry.withdrawn == Entry.Withdrawn.ACCOUNT


def test_closing_an_account_withdraws_the_person_from_an_open_league(
    django_capture_on_commit_callbacks,
):
    from accounts.services.closure import account_close

    event = league_make(circle_size=3)
    ann = factories.user_make("closer")
    league_enter(event_id=event.pk, user=ann)
    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=ann)
    assert not Entry.objects.filter(event=event).exists()
