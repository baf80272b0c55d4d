"""Recurring cups (docs/competitions.md, "Cups"): a series makes its occurrences; entering and
its gates; the start when full or at a time (cancelled below the least field); Swiss rounds
paired from the standings as each round ends, with a deadline allowance and the bots playing
out what is overdue; blocks keep two people apart; forfeits and the withdrawal after too many;
closing an account withdraws; the end on the stated day; the record and its offline verifier
(tampering found); the pages, and their statement counts for 10 people and 1,000; and the races
(entry against the start, two last entries, a withdrawal against the pairing) on whichever
database the suite runs on."""

from __future__ import annotations

import copy
import datetime as dt
import json
import random
import re
from itertools import combinations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import NotificationSettings
from accounts.services.closure import account_close
from accounts.services.relations import block_add
from competitions.cup_terms import cup_length
from competitions.league_entries import EntryRefused
from competitions.models import CupSeries, Entry, Event, EventTable
from competitions.services.cup_sweep import cup_tend, cups_sweep, occurrences_make
from competitions.services.cups import cup_enter, cup_start, cup_withdraw
from competitions.signals import cup_round_paired, cup_started
from competitions.verify_cup import Differs, cup_verify, main
from games.models import Match, Move, Rating, Seat
from games.services.play_out import match_play_out
from tests import factories
from tests.integration.cup_helpers import cup_make, series_make
from tests.integration.league_helpers import let_deadline_pass, people, play_turn

pytestmark = pytest.mark.django_db

SPANS_DAYS = 6  # PARLOUR_LEAGUE_TABLE_SPANS' default at a 1-day deadline: a round's allowance


def _enter_all(event: Event, users) -> None:
    for user in users:
        cup_enter(event_id=event.pk, user=user)


def _round_tables(event: Event, round_index: int) -> list[EventTable]:
    return list(EventTable.objects.filter(event=event, circle=round_index).order_by("number"))


def _play_out_all(event: Event) -> None:
    for match_id in Match.objects.filter(event_table__event=event, status="active").values_list(
        "pk", flat=True
    ):
        match_play_out(match_id=match_id)


# --- The series and its occurrences -----------------------------------------------------------


def test_the_sweep_makes_each_series_next_occurrence_once():
    weekly = series_make(name="Monday cup", weekday=0, start_time=dt.time(19, 0))
    when_full = series_make(name="Any time cup")
    series_make(name="Paused", active=False)
    friday = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)  # a Friday
    assert occurrences_make(now=friday) == 2
    assert occurrences_make(now=friday) == 0  # one open occurrence a series
    monday = Event.objects.get(series=weekly)
    assert monday.kind == Event.Kind.CUP and monday.status == Event.Status.OPEN
    local = timezone.localtime(monday.starts_at)
    assert (local.weekday(), local.hour, local.minute) == (0, 19, 0)
    assert monday.starts_at > friday and monday.starts_at - friday < dt.timedelta(days=7)
    assert Event.objects.get(series=when_full).starts_at is None
    assert not CupSeries.objects.get(name="Paused").occurrences.exists()
    # Once the occurrence has started, the next sweep makes the next one.
    _enter_all(Event.objects.get(series=when_full), people("nx", 4))
    cups_sweep()
    assert when_full.occurrences.filter(status=Event.Status.OPEN).count() == 1
    assert when_full.occurrences.filter(status=Event.Status.RUNNING).count() == 1


def test_the_series_form_refuses_what_cannot_be_played_and_staff_make_one_in_the_admin():
    from competitions.forms import CupSeriesForm

    def errors(**fields):
        data = {
            "name": "Cup",
            "game": "faraway",
            "seats": 3,
            "rounds": 3,
            "places_most": 16,
            "places_least": 4,
            "deadline_days": 1,
            "holidays": "on",
            "absences_most": 2,
            "active": "on",
            **fields,
        }
        form = CupSeriesForm(data=data)
        return {} if form.is_valid() else form.errors

    assert errors() == {}
    assert "seats" in errors(seats=5)  # the Faraway Tree seats 2 to 4
    assert "start_time" in errors(weekday=0)  # a weekday without a time
    assert "places_least" in errors(places_least=20)
    assert "rounds" in errors(rounds=0)
    assert errors(weekday=0, start_time="19:00") == {}
    client = factories.client_for(factories.staff_make("staff"))
    answer = client.post(
        "/admin/competitions/cupseries/add/",
        {
            "name": "Monday cup",
            "game": "faraway",
            "seats": 3,
            "rounds": 3,
            "places_most": 16,
            "places_least": 4,
            "deadline_days": 1,
            "absences_most": 2,
            "weekday": 0,
            "start_time": "19:00",
            "active": "on",
            "occurrences-TOTAL_FORMS": 0,
            "occurrences-INITIAL_FORMS": 0,
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert CupSeries.objects.get().name == "Monday cup"


# --- Entering ---------------------------------------------------------------------------------


def test_the_gates_refuse_with_words_and_change_nothing():
    event = cup_make(rating_max=1100)  # a newcomer is 1000
    nomail = factories.user_make("nomail")
    nomail.email = ""
    nomail.save()
    with pytest.raises(EntryRefused, match="Confirm your e-mail address first"):
        cup_enter(event_id=event.pk, user=nomail)
    quiet = factories.user_make("quiet")
    NotificationSettings.objects.create(user=quiet, email_turn=False, push_turn=True)
    with pytest.raises(EntryRefused, match="turn mails"):
        cup_enter(event_id=event.pk, user=quiet)
    strong = factories.user_make("strong")
    Rating.objects.create(game="faraway", user=strong, mu=60.0, sigma=1.0, matches=30)
    with pytest.raises(EntryRefused, match="This cup is for ratings - to 1100"):
        cup_enter(event_id=event.pk, user=strong)
    ann, bea = people("gb", 2)
    cup_enter(event_id=event.pk, user=ann)
    block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    with pytest.raises(EntryRefused, match="A block stands between you"):
        cup_enter(event_id=event.pk, user=bea)
    assert list(Entry.objects.filter(event=event).values_list("user_id", flat=True)) == [ann.pk]
    assert cup_enter(event_id=event.pk, user=ann).user_id == ann.pk  # twice: one entry
    assert Entry.objects.filter(event=event).count() == 1


def test_a_league_url_never_enters_a_cup_nor_a_cup_url_a_league():
    cup = cup_make()
    ann = factories.user_make("ann")
    client = factories.client_for(ann)
    assert client.post(f"/leagues/{cup.pk}/enter/").status_code == 404
    assert client.post(f"/leagues/{cup.pk}/withdraw/").status_code == 404
    assert client.get(f"/leagues/{cup.pk}/").status_code == 404
    league = Event.objects.create(
        name="A league", game="faraway", seats=2, circle_size=5, deadline_days=1
    )
    assert client.post(f"/cups/{league.pk}/enter/").status_code == 404
    assert client.get(f"/cups/{league.pk}/").status_code == 404
    assert client.get(f"/cups/{league.pk}/record.json").status_code == 404
    assert not Entry.objects.exists()


# --- The start and the rounds -----------------------------------------------------------------


def test_the_last_place_starts_the_cup_and_pairs_its_first_round(
    django_capture_on_commit_callbacks,
):
    started, paired = [], []

    def on_start(**kwargs):
        started.append(kwargs["event_id"])

    def on_pair(**kwargs):
        paired.append((kwargs["round"], sorted(kwargs["user_ids"])))

    cup_started.connect(on_start, dispatch_uid="test-cup-started")
    cup_round_paired.connect(on_pair, dispatch_uid="test-cup-paired")
    try:
        event = cup_make(places_most=5, seats=2, rounds=3)
        users = people("st", 5)
        with django_capture_on_commit_callbacks(execute=True):
            _enter_all(event, users)
        with pytest.raises(EntryRefused, match="This cup has started"):
            cup_enter(event_id=event.pk, user=factories.user_make("late"))
    finally:
        cup_started.disconnect(dispatch_uid="test-cup-started")
        cup_round_paired.disconnect(dispatch_uid="test-cup-paired")
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING and event.round == 1
    assert event.draw == [[u.pk for u in users]]
    assert event.ends_at == event.started_at + cup_length(
        rounds=3, deadline_days=1, spans=SPANS_DAYS
    )
    first = _round_tables(event, 0)
    assert sorted(len(t.labels) for t in first) == [1, 2, 2]  # five at two seats: one bye
    bye = next(t for t in first if len(t.labels) == 1)
    assert bye.dropped == EventTable.Dropped.BYE and bye.match_id is None
    for table in first:
        if table.match_id is None:
            continue
        match = table.match
        assert (match.status, match.rated, match.public) == ("active", False, False)
        seated = list(match.seats.order_by("index").values_list("user_id", flat=True))
        assert seated == table.labels
    assert started == [event.pk]
    assert paired == [(1, sorted(u.pk for u in users))]


def test_a_timed_cup_starts_with_its_least_field_or_is_cancelled():
    soon = timezone.now() + dt.timedelta(hours=1)
    few = cup_make(places_most=8, places_least=3, weekday=0, start_time=dt.time(19, 0))
    Event.objects.filter(pk=few.pk).update(starts_at=soon)
    _enter_all(few, people("few", 2))
    later = soon + dt.timedelta(minutes=1)
    cups_sweep(now=later)
    few.refresh_from_db()
    assert few.status == Event.Status.CANCELLED
    enough = Event.objects.get(series=few.series, status=Event.Status.OPEN)  # the next one
    Event.objects.filter(pk=enough.pk).update(starts_at=soon)
    _enter_all(enough, people("en", 3))
    cups_sweep(now=later)
    enough.refresh_from_db()
    assert enough.status == Event.Status.RUNNING and enough.started_at == later
    assert Match.objects.filter(event_table__event=enough).count() == 1  # a table and a bye


def test_each_next_round_is_paired_from_the_standings_once_the_last_has_finished():
    event = cup_make(places_most=8, seats=2, rounds=3)
    users = people("rd", 8)
    _enter_all(event, users)
    event.refresh_from_db()
    first = _round_tables(event, 0)
    match_play_out(match_id=first[0].match_id)
    cup_tend(event_id=event.pk)
    event.refresh_from_db()
    assert event.round == 1  # three tables of round 1 are still being played
    _play_out_all(event)
    cup_tend(event_id=event.pk)
    event.refresh_from_db()
    assert event.round == 2
    second = _round_tables(event, 1)
    met = {frozenset(t.labels) for t in first}
    assert all(frozenset(t.labels) not in met for t in second)  # no rematch
    # Top-down by points: the winners of round 1 meet each other.
    winners = set(
        Seat.objects.filter(match__event_table__in=first, rank=1).values_list("user_id", flat=True)
    )
    if len(winners) == 4:
        assert {frozenset(second[0].labels), frozenset(second[1].labels)} <= {
            frozenset(p) for p in combinations(winners, 2)
        }


def test_a_round_past_its_allowance_is_played_out_and_the_next_paired():
    event = cup_make(places_most=4, seats=2, rounds=2)
    _enter_all(event, people("ov", 4))
    event.refresh_from_db()
    cup_tend(event_id=event.pk, now=event.started_at + dt.timedelta(days=SPANS_DAYS - 1))
    assert Match.objects.filter(event_table__event=event, status="active").count() == 2
    due = event.started_at + dt.timedelta(days=SPANS_DAYS, minutes=1)
    cup_tend(event_id=event.pk, now=due)
    event.refresh_from_db()
    assert event.round == 2 and event.round_started_at == due
    assert Match.objects.filter(event_table__event=event, status="finished").count() == 2
    assert Match.objects.filter(event_table__event=event, status="active").count() == 2


def test_a_block_made_after_entering_keeps_the_two_apart_in_every_round():
    event = cup_make(places_most=6, seats=2, rounds=4)
    ann, bea, *others = people("bk", 6)
    _enter_all(event, [ann, bea, *others[:-1]])
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    cup_enter(event_id=event.pk, user=others[-1])
    event.refresh_from_db()
    for _ in range(4):
        _play_out_all(event)
        cup_tend(event_id=event.pk)
    event.refresh_from_db()
    assert event.round == 4
    for table in EventTable.objects.filter(event=event):
        assert not {ann.pk, bea.pk} <= set(table.labels)


def test_forfeits_withdraw_a_person_who_is_not_paired_again():
    event = cup_make(places_most=4, seats=2, rounds=3, absences_most=1)
    users = people("ab", 4)
    _enter_all(event, users)
    event.refresh_from_db()
    absent = users[0].pk
    match = next(t for t in _round_tables(event, 0) if absent in t.labels).match
    rng = random.Random(36)
    for _ in range(20):  # the others play; the deadline passes when the absent seat is awaited
        match.refresh_from_db()
        assert match.status == "active"
        if match.seats.get(index=match.awaiting[0]).user_id == absent:
            let_deadline_pass(match)
            break
        play_turn(match, rng)
    assert Move.objects.filter(match=match, auto=Move.Auto.DEADLINE).exists()
    _play_out_all(event)
    cup_tend(event_id=event.pk)
    event.refresh_from_db()
    assert Entry.objects.get(event=event, user_id=absent).withdrawn == Entry.Withdrawn.ABSENT
    assert event.round == 2
    assert all(absent not in t.labels for t in _round_tables(event, 1))
    page = factories.client_for(users[1]).get(f"/cups/{event.pk}/").content.decode()
    assert "Withdrawn after too many absences" in page


def test_closing_an_account_withdraws_the_person_and_resigns_their_table(
    django_capture_on_commit_callbacks,
):
    event = cup_make(places_most=4, seats=2, rounds=2)
    users = people("cl", 4)
    _enter_all(event, users)
    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=users[2])
    assert Entry.objects.get(event=event, user=users[2]).withdrawn == Entry.Withdrawn.ACCOUNT
    seat = Seat.objects.get(user=users[2], match__event_table__event=event)
    assert seat.resigned_ply is not None


def test_withdrawing_before_the_start_frees_the_place_and_after_it_resigns():
    event = cup_make(places_most=3, seats=3, rounds=1)
    ann, bea, cal = people("wd", 3)
    cup_enter(event_id=event.pk, user=ann)
    assert cup_withdraw(event_id=event.pk, user_id=ann.pk)
    assert not Entry.objects.filter(event=event).exists()
    assert not cup_withdraw(event_id=event.pk, user_id=ann.pk)
    _enter_all(event, [ann, bea, cal])
    assert cup_withdraw(event_id=event.pk, user_id=bea.pk)
    assert Seat.objects.get(user=bea, match__event_table__event=event).resigned_ply is not None


# --- The end, the record and the verifier -----------------------------------------------------


def _finished_cup(prefix: str, **fields) -> tuple[Event, list]:
    event = cup_make(**fields)
    users = people(prefix, event.places)
    _enter_all(event, users)
    for _ in range(event.rounds):
        _play_out_all(event)
        cup_tend(event_id=event.pk)
    event.refresh_from_db()
    cups_sweep(now=event.ends_at)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.finished_at == event.ends_at
    return event, users


def test_the_cup_ends_on_its_day_with_the_bots_finishing_what_runs():
    event = cup_make(places_most=4, seats=2, rounds=3)
    users = people("end", 4)
    _enter_all(event, users)
    event.refresh_from_db()
    stated = event.ends_at
    cups_sweep(now=stated - dt.timedelta(minutes=1))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    cups_sweep(now=stated)
    event.refresh_from_db()
    assert (event.status, event.finished_at) == (Event.Status.FINISHED, stated)
    assert not Match.objects.filter(event_table__event=event, status="active").exists()


def test_the_record_waits_for_the_end_then_the_verifier_recomputes_the_standings(tmp_path):
    running = cup_make(places_most=3, seats=3, rounds=1)
    users = people("rw", 3)
    _enter_all(running, users)
    client = factories.client_for(users[0])
    early = client.get(f"/cups/{running.pk}/record.json")
    assert early.status_code == 409 and b"once the cup has ended" in early.content
    event, users = _finished_cup("rec", game="gulliver", seats=3, places_most=7, rounds=2)
    answer = factories.client_for(users[0]).get(f"/cups/{event.pk}/record.json?download=1")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == f"attachment; filename=parlour-cup-{event.pk}.json"
    record = json.loads(answer.content)
    assert len(record["standings"]) == 7 and all(r["place"] for r in record["standings"])
    assert cup_verify(record)[-1].endswith("they match")
    path = tmp_path / "cup.json"
    path.write_bytes(answer.content)
    assert main([str(path)]) == 0


def test_the_verifier_says_so_when_the_record_was_tampered_with(tmp_path):
    event, users = _finished_cup("tam", places_most=4, seats=2, rounds=2)
    record = json.loads(factories.client_for(users[0]).get(f"/cups/{event.pk}/record.json").content)
    cup_verify(record)
    moved = copy.deepcopy(record)
    entries = next(t for t in moved["tables"] if t["match"])["match"]["entries"]
    other = next(i for i, e in enumerate(entries) if e["move"] != entries[0]["move"])
    entries[0]["move"], entries[other]["move"] = entries[other]["move"], entries[0]["move"]
    with pytest.raises(Differs, match="does not verify"):
        cup_verify(moved)
    boasted = copy.deepcopy(record)
    boasted["standings"][-1]["points"] = "9"
    with pytest.raises(Differs, match="standings recomputed from the matches differ"):
        cup_verify(boasted)
    swapped = copy.deepcopy(record)
    table = next(t for t in swapped["tables"] if t["match"])
    table["people"] = list(reversed(table["people"]))
    with pytest.raises(Differs, match="the round's table says"):
        cup_verify(swapped)
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(boasted))
    assert main([str(path)]) == 1
    path.write_text(json.dumps({"format": "something else"}))
    assert main([str(path)]) == 2


# --- The pages --------------------------------------------------------------------------------


def test_the_list_shows_cups_by_state_with_the_next_occurrence():
    weekly = series_make(name="Monday cup", weekday=0, start_time=dt.time(19, 0))
    occurrences_make()
    running = cup_make(name="Running cup", places_most=3, seats=3, rounds=1)
    _enter_all(running, people("ls", 3))
    occurrences_make()  # the running cup's series' next occurrence
    page = factories.client_for(factories.user_make("reader")).get("/cups/").content.decode()
    open_part = page.split('id="cups-open"')[1].split('id="cups-running"')[0]
    running_part = page.split('id="cups-running"')[1].split('id="cups-finished"')[0]
    nxt = timezone.localtime(weekly.occurrences.get().starts_at)
    assert "Monday cup" in open_part and nxt.strftime("%H:%M") in open_part
    assert "0 of 4" in open_part
    assert "Running cup" in running_part and "Monday cup" not in running_part
    assert "Running cup" in open_part  # its series' next occurrence, open already


def test_the_cup_page_enter_withdraw_and_a_refusal_in_words():
    event = cup_make(places_most=4, seats=2, rounds=3)
    ann = factories.user_make("ann")
    client = factories.client_for(ann)
    page = client.get(f"/cups/{event.pk}/").content.decode()
    assert "Ends 18 days after it starts, whatever happens." in page
    assert "Starts as soon as its 4 places are taken." in page
    answer = client.post(f"/cups/{event.pk}/enter/")
    assert answer.status_code == 302 and answer["Location"] == f"/cups/{event.pk}/"
    page = client.get(f"/cups/{event.pk}/").content.decode()
    assert 'id="cup-withdraw"' in page and "1 of 4 places taken" in page
    nomail = factories.user_make("nomail")
    nomail.email = ""
    nomail.save()
    refused = factories.client_for(nomail).post(f"/cups/{event.pk}/enter/")
    assert refused.status_code == 403 and "Confirm your e-mail address" in refused.content.decode()
    assert client.post(f"/cups/{event.pk}/withdraw/").status_code == 302
    again = client.post(f"/cups/{event.pk}/withdraw/")
    assert again.status_code == 409 and "You are not in this cup" in again.content.decode()
    assert client.get("/cups/999999/").status_code == 404


def test_a_running_cup_page_shows_rounds_standings_and_only_your_own_table_link():
    event = cup_make(places_most=4, seats=2, rounds=2)
    users = people("pg", 4)
    _enter_all(event, users)
    event.refresh_from_db()
    client = factories.client_for(users[0])
    page = client.get(f"/cups/{event.pk}/").content.decode()
    assert "Ends on" in page and 'id="cup-standings"' in page and "Round 1 of 2" in page
    for match in Match.objects.filter(event_table__event=event):
        seated = users[0].pk in set(match.seats.values_list("user_id", flat=True))
        assert (f'href="/matches/{match.pk}/"' in page) == seated
        assert str(match.seed) not in page and match.salt not in page


# --- Statement counts -------------------------------------------------------------------------


def _cup_of(count: int, prefix: str) -> Event:
    event = cup_make(places_most=count, seats=2, rounds=3)
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com") for i in range(count)
    )
    Entry.objects.bulk_create(Entry(event=event, user=user) for user in users)
    return event


def _operations(statements: list[str]) -> int:
    """Statements, with one bulk insert or update split into batches counted once."""
    heads = [sql.split(" VALUES ")[0].split(" CASE ")[0] for sql in statements]
    return sum(1 for i, head in enumerate(heads) if i == 0 or head != heads[i - 1])


def test_pairing_and_the_standings_page_cost_the_same_for_1000_people_as_for_10():
    starts, pages = [], []
    for count, prefix in ((10, "s"), (1000, "b")):
        event = _cup_of(count, prefix)
        with CaptureQueriesContext(connection) as queries:
            cup_start(event=event)
        starts.append([q["sql"] for q in queries.captured_queries])
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING
        assert Match.objects.filter(event_table__event=event).count() == count // 2
        for match_id in Match.objects.filter(event_table__event=event).values_list("pk", flat=True)[
            :3
        ]:
            match_play_out(match_id=match_id)
        client = factories.client_for(get_user_model().objects.get(username=f"{prefix}0"))
        client.get(f"/cups/{event.pk}/")  # the session and the like, read once
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(f"/cups/{event.pk}/")
        assert answer.status_code == 200
        pages.append((len(queries), answer.content.decode()))
    if connection.vendor == "sqlite":  # SQLite splits a bulk insert into batches
        assert _operations(starts[0]) == _operations(starts[1]), [len(s) for s in starts]
    else:
        assert len(starts[0]) == len(starts[1]), [len(s) for s in starts]
    assert pages[0][0] == pages[1][0], [q for q, _ in pages]
    assert len(re.findall(r"<tr", pages[1][1].split('id="cup-rounds"')[1])) == 501


# --- Races, on either database ----------------------------------------------------------------


def _try_enter(event_id: int, user) -> str:
    try:
        cup_enter(event_id=event_id, user=user)
    except EntryRefused as exc:
        return exc.message
    return "in"


@pytest.mark.django_db(transaction=True)
def test_two_people_for_the_last_place_one_enters_and_the_cup_starts_once():
    event = cup_make(places_most=3, seats=3, rounds=1)
    first, second, ann, bea = people("last", 4)
    _enter_all(event, [first, second])
    answers = factories.at_once(
        [lambda: _try_enter(event.pk, ann), lambda: _try_enter(event.pk, bea)]
    )
    assert sorted(answers) == ["This cup has started: it takes no more entries.", "in"]
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING and event.round == 1
    assert Entry.objects.filter(event=event).count() == 3
    assert EventTable.objects.filter(event=event).count() == 1  # one round, paired once


@pytest.mark.django_db(transaction=True)
def test_an_entry_against_the_start_is_either_seated_or_refused():
    for attempt in range(3):
        event = cup_make(places_most=8, places_least=2, rounds=1, seats=2)
        Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() + dt.timedelta(hours=1))
        _enter_all(event, people(f"es{attempt}-", 2))
        late = factories.user_make(f"late{attempt}")
        answers = factories.at_once(
            [lambda e=event, u=late: _try_enter(e.pk, u), lambda e=event: cup_start(event=e)]
        )
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING
        seated = {p for t in EventTable.objects.filter(event=event) for p in t.labels}
        if answers[0] == "in":
            assert late.pk in event.draw[0] and late.pk in seated
        else:
            assert answers[0] == "This cup has started: it takes no more entries."
            assert not Entry.objects.filter(event=event, user=late).exists()
            assert late.pk not in seated
        event.series.active = False
        event.series.save()


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_against_the_pairing_never_seats_the_withdrawn_person():
    for attempt in range(3):
        event = cup_make(places_most=4, seats=2, rounds=2)
        users = people(f"wp{attempt}-", 4)
        _enter_all(event, users)
        _play_out_all(event)  # round 1 over: the next tend pairs round 2
        leaver = users[attempt]
        factories.at_once(
            [
                lambda e=event, u=leaver: cup_withdraw(event_id=e.pk, user_id=u.pk),
                lambda e=event: cup_tend(event_id=e.pk),
            ]
        )
        assert Entry.objects.get(event=event, user=leaver).withdrawn == Entry.Withdrawn.SELF
        # Whichever came first: a round-2 table paired before the withdrawal is resigned by
        # it; one paired after never seats the person.
        for seat in Seat.objects.filter(
            user=leaver, match__event_table__event=event, match__status=Match.Status.ACTIVE
        ):
            assert seat.resigned_ply is not None
        event.refresh_from_db()
        assert event.round == 2
