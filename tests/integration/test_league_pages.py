"""The leagues' pages (docs/competitions.md): the list by state, a league's page with its end
date, entries, tables and standings, entering and withdrawing by POST with words for a refusal,
the record once the league has ended and the offline verifier that recomputes its standings
(and says so when a match in it was tampered with); the statement counts of the standings page
and of the start, the same for a league of 1,000 people as for one of 10."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.league_entries import league_enter
from competitions.league_start import league_start
from competitions.league_sweep import leagues_sweep
from competitions.models import Entry, Event
from competitions.verify_league import Differs, league_verify, main
from games.models import Match
from tests import factories
from tests.integration.league_helpers import league_make, people

pytestmark = pytest.mark.django_db


def test_the_list_shows_leagues_by_state():
    league_make(name="Open one")
    running = league_make(name="Running one", circle_size=3)
    for user in people("l", 3):
        league_enter(event_id=running.pk, user=user)
    client = factories.client_for(factories.user_make("reader"))
    page = client.get("/leagues/").content.decode()
    open_part = page.split('id="leagues-open"')[1].split('id="leagues-running"')[0]
    running_part = page.split('id="leagues-running"')[1].split('id="leagues-finished"')[0]
    assert "Open one" in open_part and "0 of 3" in open_part
    assert "Running one" in running_part and "Open one" not in running_part


def test_entering_by_post_and_a_refusal_in_words():
    event = league_make(circle_size=3)
    ann = factories.user_make("ann")
    client = factories.client_for(ann)
    answer = client.post(f"/leagues/{event.pk}/enter/")
    assert answer.status_code == 302 and answer["Location"] == f"/leagues/{event.pk}/"
    assert Entry.objects.filter(event=event, user=ann).exists()
    page = client.get(f"/leagues/{event.pk}/").content.decode()
    assert 'id="league-withdraw"' in page and "1 of 3 places taken" in page
    nomail = factories.user_make("nomail")
    nomail.email = ""
    nomail.save()
    refused = factories.client_for(nomail).post(f"/leagues/{event.pk}/enter/")
    assert refused.status_code == 403
    assert "Confirm your e-mail address" in refused.content.decode()
    assert not Entry.objects.filter(user=nomail).exists()
    left = client.post(f"/leagues/{event.pk}/withdraw/")
    assert left.status_code == 302 and not Entry.objects.filter(event=event).exists()
    again = client.post(f"/leagues/{event.pk}/withdraw/")
    assert again.status_code == 409 and "You are not in this league" in again.content.decode()


def test_the_league_page_states_its_end_date_and_shows_tables_and_standings():
    event = league_make(circle_size=3, open_most=1)
    users = people("v", 3)
    for user in users:
        league_enter(event_id=event.pk, user=user)
    event.refresh_from_db()
    client = factories.client_for(users[0])
    page = client.get(f"/leagues/{event.pk}/").content.decode()
    assert "Ends on" in page and str(event.ends_at.year) in page
    assert 'id="league-standings"' in page and 'id="league-tables"' in page
    assert "Being played" in page and "Waiting for room" in page
    opened = Match.objects.get()
    seated = users[0].pk in set(opened.seats.values_list("user_id", flat=True))
    assert (f'href="/matches/{opened.pk}/"' in page) == seated
    assert str(opened.seed) not in page and opened.salt not in page


def test_an_open_league_states_how_long_it_lasts():
    event = league_make(circle_size=5, open_most=2, deadline_days=3)
    page = factories.client_for(factories.user_make("x")).get(f"/leagues/{event.pk}/")
    # 4 tables each, 2 at once: 2 waves of 6 deadlines of 3 days
    assert "ends 36 days later, whatever happens" in page.content.decode()


def _finished_league(prefix: str, **fields) -> Event:
    event = league_make(**fields)
    for user in people(prefix, event.circle_size * event.circles):
        league_enter(event_id=event.pk, user=user)
    event.refresh_from_db()
    leagues_sweep(now=event.ends_at)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


def test_the_record_waits_for_the_end_then_the_verifier_recomputes_the_standings(tmp_path):
    running = league_make(circle_size=3)
    users = people("w", 3)
    for user in users:
        league_enter(event_id=running.pk, user=user)
    client = factories.client_for(users[0])
    early = client.get(f"/leagues/{running.pk}/record.json")
    assert early.status_code == 409 and b"once the league has ended" in early.content
    event = _finished_league("rec", game="gulliver", seats=3, circle_size=4, open_most=3)
    answer = client.get(f"/leagues/{event.pk}/record.json?download=1")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == f"attachment; filename=parlour-league-{event.pk}.json"
    record = json.loads(answer.content)
    assert len(record["tables"]) == 4 and all(t["match"] for t in record["tables"])
    lines = league_verify(record)
    assert lines[-1].endswith("they match")
    path = tmp_path / "league.json"
    path.write_bytes(answer.content)
    assert main([str(path)]) == 0


def test_the_verifier_says_so_when_a_match_or_the_standings_were_tampered_with():
    event = _finished_league("tam", circle_size=3)
    answer = factories.client_for(factories.user_make("t")).get(f"/leagues/{event.pk}/record.json")
    record = json.loads(answer.content)
    league_verify(record)
    moved = copy.deepcopy(record)
    entries = moved["tables"][0]["match"]["entries"]
    other = next(i for i, e in enumerate(entries) if e["move"] != entries[0]["move"])
    entries[0]["move"], entries[other]["move"] = entries[other]["move"], entries[0]["move"]
    with pytest.raises(Differs, match="does not verify"):
        league_verify(moved)
    boasted = copy.deepcopy(record)
    boasted["standings"][0][-1]["points"] += 2
    with pytest.raises(Differs, match="standings recomputed from the matches differ"):
        league_verify(boasted)
    swapped = copy.deepcopy(record)
    seats = swapped["tables"][0]["match"]["seats"]
    seats[0]["username"], seats[1]["username"] = seats[1]["username"], seats[0]["username"]
    with pytest.raises(Differs, match="the draw and schedule say"):
        league_verify(swapped)


# --- Statement counts -------------------------------------------------------------------------


def _league_of(count: int, prefix: str) -> Event:
    """A started league of ``count`` people in circles of 5 at two seats (4 tables each)."""
    event = league_make(circle_size=5, circles=count // 5, open_most=2)
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com") for i in range(count)
    )
    Entry.objects.bulk_create(Entry(event=event, user=user) for user in users)
    return event


def _statements(run) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        run()
    return [q["sql"] for q in queries.captured_queries]


def _operations(statements: list[str]) -> int:
    """Statements with one bulk insert or update split into batches counted once: a batch
    repeats its predecessor's statement up to its values."""
    heads = [sql.split(" VALUES ")[0].split(" CASE ")[0] for sql in statements]
    return sum(1 for i, head in enumerate(heads) if i == 0 or head != heads[i - 1])


def _bulk_batches_differ() -> bool:
    # SQLite binds at most 999 parameters a statement, so Django splits a bulk insert into
    # batches; PostgreSQL takes each bulk insert or update in one statement.
    return connection.vendor == "sqlite"


def test_the_start_costs_the_same_statements_for_1000_people_as_for_10():
    small, big = _league_of(10, "s"), _league_of(1000, "b")
    counts = [_statements(lambda e=e: league_start(event=e)) for e in (small, big)]
    for event in (small, big):
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING
    from django.db.models import Count

    from games.models import Seat

    open_each = Seat.objects.filter(match__event_table__event=big).values("user_id")
    most = open_each.annotate(n=Count("pk")).order_by("-n").values_list("n", flat=True)[0]
    assert most == 2  # the cap of open tables a person
    assert Match.objects.filter(event_table__event=big).count() == 800  # 4 of each circle's 10
    if _bulk_batches_differ():
        assert _operations(counts[0]) == _operations(counts[1]), [len(c) for c in counts]
    else:
        assert len(counts[0]) == len(counts[1]), [len(c) for c in counts]


def test_the_standings_page_costs_the_same_statements_for_1000_people_as_for_10():
    pages = []
    for count, prefix in ((10, "s"), (1000, "b")):
        event = _league_of(count, prefix)
        league_start(event=event)
        for match_id in Match.objects.filter(event_table__event=event).values_list("pk", flat=True)[
            :3
        ]:
            from games.services.play_out import match_play_out

            match_play_out(match_id=match_id)
        client = factories.client_for(get_user_model().objects.get(username=f"{prefix}0"))
        client.get(f"/leagues/{event.pk}/")  # the session and the like, read once
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(f"/leagues/{event.pk}/")
        assert answer.status_code == 200
        pages.append((len(queries), answer.content.decode()))
    assert pages[0][0] == pages[1][0], [q for q, _ in pages]
    assert len(re.findall(r"<h3>Circle ", pages[1][1])) == 200


def test_a_league_with_a_person_who_never_moves_ends_on_its_day_and_the_verifier_agrees(
    tmp_path,
):
    """The issue's end-to-end case, with the real services (the deadline bot, the sweep, the
    play-out) and time passed to them instead of waited for: one person never moves, the
    deadline bot plays their turns, their forfeits withdraw them, the league ends on its stated
    day, and the offline verifier recomputes the standings from the downloaded record."""
    import random

    from tests.integration.league_helpers import let_deadline_pass, play_turn

    event = league_make(circle_size=5, open_most=2, absences_most=2)
    users = people("nm", 5)
    for user in users:
        league_enter(event_id=event.pk, user=user)
    event.refresh_from_db()
    absent = event.draw[0][0]
    stated = event.ends_at
    rng = random.Random(36)
    for _ in range(6):  # a few rounds of play and sweeps, well before the end
        for match in Match.objects.filter(event_table__event=event, status="active"):
            for _ in range(8):
                match.refresh_from_db()
                if match.status != "active" or not match.awaiting:
                    break
                seat = match.seats.get(index=match.awaiting[0])
                if seat.user_id == absent and seat.resigned_ply is None:
                    let_deadline_pass(match)
                elif seat.resigned_ply is None:
                    play_turn(match, rng)
                else:
                    break
        leagues_sweep()
    entry = Entry.objects.get(event=event, user_id=absent)
    assert entry.withdrawn == Entry.Withdrawn.ABSENT
    leagues_sweep(now=stated)
    event.refresh_from_db()
    assert (event.status, event.finished_at) == (Event.Status.FINISHED, stated)
    assert not Match.objects.filter(event_table__event=event, status="active").exists()
    answer = factories.client_for(users[1]).get(f"/leagues/{event.pk}/record.json")
    path = tmp_path / "league.json"
    path.write_bytes(answer.content)
    assert main([str(path)]) == 0
    record = json.loads(answer.content)
    absent_name = get_user_model().objects.get(pk=absent).username
    [row] = [r for r in record["standings"][0] if r["username"] == absent_name]
    assert row["withdrawn"] and row["place"] is None and row["forfeits"] >= 2
