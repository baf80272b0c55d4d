"""A cup tells its people (docs/competitions.md, "Told"): the start with each person's table of
round 1 (or bye), each later round paired, the end with their place in the Swiss standings.
Each is one notice a person (nobody else, nobody twice however often the signal is sent), on
the notices page and in the badge, mailed and pushed once as each person chose, in their
language; nothing told reveals a table's secrets. Cups are on profiles and in history as
leagues are; a person's events and notices are in their data export."""

from __future__ import annotations

import json
import re

import pytest
from django.core import mail

from accounts.models import NotificationSettings
from accounts.services.language import language_store
from accounts.signals import export_sections
from competitions.cup_standings import cup_results
from competitions.league_sweep import league_end
from competitions.models import Entry, Event, EventNotice, EventTable
from competitions.notice_delivery import notices_deliver
from competitions.services.cup_sweep import cup_tend
from competitions.services.cups import cup_enter, cup_withdraw
from competitions.signals import cup_round_paired, cup_started, event_finished
from games.models import Match
from games.services.play_out import match_play_out
from games.views.notice_sources import notice_counts
from tests import factories
from tests.integration.cup_helpers import cup_make
from tests.integration.league_helpers import people
from tests.push_service import browser_subscribed, push_service_running

pytestmark = pytest.mark.django_db
Kind = EventNotice.Kind


@pytest.fixture(autouse=True)
def _push_on_loopback(settings) -> None:
    settings.PARLOUR_PUSH_LOOPBACK = True  # the stand-in push service is on loopback, over http


@pytest.fixture
def service():
    with push_service_running() as running:
        yield running


def _started(capture, *, size: int = 5, prefix: str = "c", **fields) -> tuple[Event, list]:
    """A cup of ``size`` at two seats, started by its last entry (the signals heard)."""
    event = cup_make(places_most=size, seats=2, rounds=3, **fields)
    users = people(prefix, size)
    with capture(execute=True):
        for user in users:
            cup_enter(event_id=event.pk, user=user)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    return event, users


def _table_of(event: Event, round_index: int, user_id: int) -> EventTable:
    return next(
        t for t in EventTable.objects.filter(event=event, circle=round_index) if user_id in t.labels
    )


def _notices_page(user) -> str:
    page = factories.client_for(user).get("/notices/").content.decode()
    return page.split('id="notices-events"')[1].split("</section>")[0]


def _next_round(capture, event: Event) -> None:
    for match_id in Match.objects.filter(
        event_table__event=event, status=Match.Status.ACTIVE
    ).values_list("pk", flat=True):
        match_play_out(match_id=match_id)
    with capture(execute=True):
        cup_tend(event_id=event.pk)
    event.refresh_from_db()


# --- The start: round 1 -----------------------------------------------------------------------


def test_the_start_tells_each_person_once_their_table_or_bye_with_a_link(
    django_capture_on_commit_callbacks,
):
    event, users = _started(django_capture_on_commit_callbacks)
    outsider = factories.user_make("outsider")
    for user in users:
        [notice] = EventNotice.objects.filter(user=user, event=event)
        assert (notice.kind, notice.key) == (Kind.STARTED, "started")
        table = _table_of(event, 0, user.pk)
        assert notice.match_id == table.match_id
        assert notice_counts(user.pk)["events"] == 1
        section = _notices_page(user)
        if table.match_id is None:  # five at two seats: one bye
            assert table.dropped == EventTable.Dropped.BYE
            assert "Monday cup has started: you have a bye in round 1 (half a point)." in section
            assert f'href="/cups/{event.pk}/"' in section and "Open the cup" in section
        else:
            assert (
                f"Monday cup has started: your table of round 1 is open, table #{table.match_id}."
                in section
            )
            assert f'href="/matches/{table.match_id}/"' in section
    assert not EventNotice.objects.filter(user=outsider).exists()
    assert "events" not in notice_counts(outsider.pk) or notice_counts(outsider.pk)["events"] == 0
    # The signal sent again (a re-run, a retried task) tells nobody twice.
    cup_started.send(sender=Event, event_id=event.pk, user_ids=[u.pk for u in users])
    cup_round_paired.send(sender=Event, event_id=event.pk, round=1, user_ids=[u.pk for u in users])
    assert EventNotice.objects.filter(event=event).count() == len(users)


def test_opening_the_cup_page_sees_its_notices(django_capture_on_commit_callbacks):
    event, users = _started(django_capture_on_commit_callbacks)
    ann, bea = users[0], users[1]
    assert factories.client_for(ann).get(f"/cups/{event.pk}/").status_code == 200
    assert notice_counts(ann.pk)["events"] == 0
    assert notice_counts(bea.pk)["events"] == 1  # only the reader's own


# --- A later round ----------------------------------------------------------------------------


def test_each_later_round_tells_each_person_paired_their_table_once(
    django_capture_on_commit_callbacks,
):
    event, users = _started(django_capture_on_commit_callbacks)
    _next_round(django_capture_on_commit_callbacks, event)
    assert event.round == 2
    for user in users:
        [notice] = EventNotice.objects.filter(user=user, event=event, kind=Kind.PAIRED)
        table = _table_of(event, 1, user.pk)
        assert notice.key == "round-2" and notice.match_id == table.match_id
        section = _notices_page(user)
        if table.match_id is None:
            assert "Round 2 of Monday cup is paired: you have a bye (half a point)." in section
        else:
            assert (
                f"Round 2 of Monday cup is paired: your table is open, table #{table.match_id}."
                in section
            )
            assert f'href="/matches/{table.match_id}/"' in section
    cup_round_paired.send(sender=Event, event_id=event.pk, round=2, user_ids=[u.pk for u in users])
    assert EventNotice.objects.filter(event=event, kind=Kind.PAIRED).count() == len(users)


def test_a_withdrawn_person_is_not_told_a_later_round(django_capture_on_commit_callbacks):
    event, users = _started(django_capture_on_commit_callbacks, size=4)
    gone = users[0]
    with django_capture_on_commit_callbacks(execute=True):
        cup_withdraw(event_id=event.pk, user_id=gone.pk)
    _next_round(django_capture_on_commit_callbacks, event)
    assert event.round == 2
    assert not EventNotice.objects.filter(user=gone, kind=Kind.PAIRED).exists()
    assert EventNotice.objects.filter(event=event, kind=Kind.PAIRED).count() == 3


# --- The end ----------------------------------------------------------------------------------


def test_the_end_tells_everyone_their_swiss_place_once(django_capture_on_commit_callbacks):
    event, users = _started(django_capture_on_commit_callbacks, size=4)
    with django_capture_on_commit_callbacks(execute=True):
        cup_withdraw(event_id=event.pk, user_id=users[3].pk)
    _next_round(django_capture_on_commit_callbacks, event)
    with django_capture_on_commit_callbacks(execute=True):
        league_end(event=event, now=event.ends_at)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    withdrawn = {users[3].pk}
    places = {line.user: line.place for line in cup_results(event=event, withdrawn=withdrawn).lines}
    for user in users:
        notice = EventNotice.objects.get(user=user, event=event, kind=Kind.ENDED)
        assert notice.place == places[user.pk] and notice.at == event.ends_at
        section = _notices_page(user)
        if user.pk in withdrawn:
            assert notice.place is None
            assert "Monday cup has ended. You had withdrawn, so you have no place." in section
        else:
            expected = f"Monday cup has ended: you finished in place {places[user.pk]}."
            assert expected in section
            assert f'href="/cups/{event.pk}/"' in section
    event_finished.send(sender=Event, event_id=event.pk, kind=event.kind)
    assert EventNotice.objects.filter(event=event, kind=Kind.ENDED).count() == 4


# --- Mail and push ----------------------------------------------------------------------------


def test_cup_news_is_mailed_in_the_recipients_language_and_pushed_only_if_chosen(
    service, django_capture_on_commit_callbacks
):
    event = cup_make(places_most=4, seats=2, rounds=3)
    ann, bea, cal, dan = people("m", 4)
    language_store(user_id=ann.pk, language="de")
    ann_phone = browser_subscribed(ann, service, "ann")
    browser_subscribed(bea, service, "bea")
    NotificationSettings.objects.create(user=bea, push_events=False)
    NotificationSettings.objects.create(user=cal, email_events=False)
    with django_capture_on_commit_callbacks(execute=True):
        for user in (ann, bea, cal, dan):
            cup_enter(event_id=event.pk, user=user)
    mail.outbox.clear()
    notices_deliver()
    assert sorted(m.to[0] for m in mail.outbox) == sorted([ann.email, bea.email, dan.email])
    [to_ann] = [m for m in mail.outbox if m.to == [ann.email]]
    table = _table_of(event, 0, ann.pk)
    assert to_ann.subject == "Neues von Monday cup"
    german = "Monday cup hat begonnen: Ihr Tisch der ersten Runde ist offen, Tisch Nr."
    assert f"{german} {table.match_id}." in to_ann.body
    [to_bea] = [m for m in mail.outbox if m.to == [bea.email]]
    assert "Monday cup has started: your table of round 1 is open" in to_bea.body
    [push] = service.to("ann")
    said = ann_phone.read(push)
    assert said["title"] == "Neues von Monday cup"
    assert said["url"] == f"/matches/{table.match_id}/" and said["tag"] == f"cup-{event.pk}"
    assert service.to("bea") == []  # bea chose no pushes of events
    # The notices are claimed: a second delivery sends nothing more.
    notices_deliver()
    assert len(mail.outbox) == 3 and len(service.to("ann")) == 1
    # Nothing said shows a table's secrets.
    match = Match.objects.get(pk=table.match_id)
    words = " ".join(m.body + m.alternatives[0][0] for m in mail.outbox) + said["body"]
    words = re.sub(r"https?://\S+", "", words)
    assert str(match.seed) not in words and match.salt not in words
    assert "seed" not in words.lower()


# --- Profiles and history ---------------------------------------------------------------------


def test_a_profile_lists_cups_with_their_place_and_history_marks_a_cup_table(
    django_capture_on_commit_callbacks,
):
    event, users = _started(django_capture_on_commit_callbacks, size=4)
    ann = users[0]
    table = _table_of(event, 0, ann.pk)
    with django_capture_on_commit_callbacks(execute=True):
        league_end(event=event, now=event.ends_at)
    place = EventNotice.objects.get(user=ann, event=event, kind=Kind.ENDED).place
    assert place is not None
    waiting = cup_make(name="Friday cup", places_most=8)
    cup_enter(event_id=waiting.pk, user=ann)
    viewer = factories.user_make("viewer")
    page = factories.client_for(viewer).get(f"/players/{ann.username}/").content.decode()
    section = page.split('id="profile-events"')[1].split("</section>")[0]
    assert "Leagues, cups and ladders" in section
    assert f'<a href="/cups/{event.pk}/">Monday cup</a>: finished: place {place}' in section
    assert f'<a href="/cups/{waiting.pk}/">Friday cup</a>: entered, not started' in section
    for url in ("/history/", f"/players/{ann.username}/"):
        mine = factories.client_for(ann).get(url).content.decode()
        row = re.search(
            rf'<li class="history-row" id="history-row-{table.match_id}".*?</li>', mine, re.S
        )
        assert row, url
        assert f'href="/cups/{event.pk}/">Cup: Monday cup</a>' in row.group(0)
    empty = factories.client_for(ann).get("/players/viewer/").content.decode()
    assert "No leagues, no cups and no ladder places yet." in empty
    assert Entry.objects.filter(event=event).count() == 4


# --- The data export --------------------------------------------------------------------------


def test_the_data_export_holds_the_persons_events_and_their_notices_only(
    django_capture_on_commit_callbacks,
):
    event, users = _started(django_capture_on_commit_callbacks, size=4)
    ann, bea = users[0], users[1]
    with django_capture_on_commit_callbacks(execute=True):
        league_end(event=event, now=event.ends_at)
    sections: dict = {}
    for _receiver, answer in export_sections.send(
        sender=None, user_id=ann.pk, progress=lambda *args, **kwargs: None
    ):
        sections.update(answer or {})
    events = sections["events"]
    assert [(e["event"], e["kind"], e["status"]) for e in events["entries"]] == [
        (event.pk, "cup", "finished")
    ]
    told = {(n["event"], n["kind"]) for n in events["notices"]}
    assert told == {(event.pk, "started"), (event.pk, "ended")}
    ended = next(n for n in events["notices"] if n["kind"] == "ended")
    assert ended["place"] == EventNotice.objects.get(user=ann, kind=Kind.ENDED).place
    assert len(events["notices"]) == EventNotice.objects.filter(user=ann).count()
    text = json.dumps(events)
    match = Match.objects.get(pk=_table_of(event, 0, ann.pk).match_id)
    assert bea.username not in text and str(match.seed) not in text


def test_a_telling_that_fails_never_fails_the_entry_that_started_the_cup(
    django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def broken(**kwargs):
        raise RuntimeError("the notices' table is gone")

    monkeypatch.setattr("competitions.event_notices._round_tell", broken)
    event, _users = _started(django_capture_on_commit_callbacks, size=2)  # raises nothing
    assert event.status == Event.Status.RUNNING
    assert not EventNotice.objects.filter(event=event).exists()
    assert "cup_started_receiver: event" in caplog.text
