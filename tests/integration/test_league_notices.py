"""A league tells its people (docs/competitions.md, "Told"): entered, the start (their first
tables), a table opened later, a withdrawal and why, the end with their place. Each is on the
notices page and in the badge (its own box), and is mailed and pushed once as the person chose
(a re-run sweep sends nothing more), in their language; a ladder result that moved someone is
mailed and pushed the same way. Nothing told reveals what a seat would not see."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import NotificationSettings
from accounts.services.closure import account_close
from accounts.services.language import language_store
from competitions.league_entries import league_enter, league_withdraw
from competitions.league_standings import league_standings
from competitions.league_sweep import league_tend, leagues_sweep
from competitions.models import Entry, Event, EventNotice, EventTable
from competitions.notice_delivery import notices_deliver
from competitions.services.ladder import ladder_challenge, ladder_join
from competitions.signals import event_finished
from games.models import Invitation, Match
from games.services import match_resign
from games.services.invitations import invitation_accept
from games.services.play_out import match_play_out
from games.views.notice_sources import notice_counts
from tests import factories
from tests.integration.league_helpers import league_make, people
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


def _kinds(user) -> list[str]:
    return sorted(EventNotice.objects.filter(user=user).values_list("kind", flat=True))


def _started(size: int = 3, prefix: str = "p", **fields) -> tuple[Event, list]:
    event = league_make(circle_size=size, open_most=1, **fields)
    users = people(prefix, size)
    for user in users:
        league_enter(event_id=event.pk, user=user)
    event.refresh_from_db()
    return event, users


def _notices_page(user) -> str:
    page = factories.client_for(user).get("/notices/").content.decode()
    return page.split('id="notices-events"')[1].split("</section>")[0]


# --- What is told, on the notices page and in the badge ----------------------------------------


def test_entering_and_the_start_are_told_on_the_notices_page_and_in_the_badge():
    event, users = _started()
    assert event.status == Event.Status.RUNNING
    for user in users:
        assert _kinds(user) == [Kind.ENTERED, Kind.STARTED]  # the first tables: one notice
        assert notice_counts(user.pk)["events"] == 2
    section = _notices_page(users[0])
    assert "You entered Autumn league. You will be told when it starts." in section
    assert "Autumn league has started: your first tables are open." in section
    assert f'href="/leagues/{event.pk}/"' in section


def test_a_table_opened_later_is_told_to_its_people_with_a_link_to_it():
    event, users = _started()
    first = EventTable.objects.get(event=event, match__isnull=False)
    match_play_out(match_id=first.match_id)
    league_tend(event_id=event.pk)
    opened = EventTable.objects.filter(event=event, match__isnull=False).exclude(pk=first.pk)
    assert opened.exists()
    for table in opened:
        seated = table.match.seats.values_list("user_id", flat=True)
        for user_id in seated:
            notice = EventNotice.objects.get(user_id=user_id, kind=Kind.TABLE, match=table.match)
            assert notice.key == f"table-{table.match_id}"
        user = next(u for u in users if u.pk == seated[0])
        section = _notices_page(user)
        assert f"table #{table.match_id}" in section
        assert f'href="/matches/{table.match_id}/"' in section
    league_tend(event_id=event.pk)  # a re-run tells nobody twice
    assert EventNotice.objects.filter(kind=Kind.TABLE).count() == 2 * opened.count()


def test_opening_the_league_page_sees_its_notices():
    event, users = _started()
    ann = users[0]
    assert notice_counts(ann.pk)["events"] == 2
    assert factories.client_for(ann).get(f"/leagues/{event.pk}/").status_code == 200
    assert notice_counts(ann.pk)["events"] == 0
    assert notice_counts(users[1].pk)["events"] == 2  # only the reader's own


def test_the_box_takes_league_news_off_the_page_and_the_badge():
    _event, users = _started()
    NotificationSettings.objects.create(user=users[0], notice_events=False)
    assert "events" not in notice_counts(users[0].pk)
    page = factories.client_for(users[0]).get("/notices/").content.decode()
    assert 'id="notices-events"' not in page and "Autumn league" not in page


def test_a_withdrawal_is_told_with_its_reason():
    event, users = _started(size=3, absences_most=1)
    league_withdraw(event_id=event.pk, user_id=users[0].pk)
    league_withdraw(event_id=event.pk, user_id=users[1].pk, reason=Entry.Withdrawn.ABSENT)
    said = {
        users[0]: "You withdrew from Autumn league.",
        users[1]: "You were withdrawn from Autumn league after too many missed turns.",
    }
    for user, words in said.items():
        notice = EventNotice.objects.get(user=user, kind=Kind.WITHDRAWN)
        assert words in _notices_page(user), notice.reason


def test_a_timed_start_tells_those_left_without_a_place_and_closing_an_account_tells_nobody(
    django_capture_on_commit_callbacks,
):
    event = league_make(circle_size=3, circles=2, starts_at=timezone.now() + dt.timedelta(hours=1))
    users = people("t", 4)
    for user in users:
        league_enter(event_id=event.pk, user=user)
    leagues_sweep(now=event.starts_at)
    left = Entry.objects.get(event=event, withdrawn=Entry.Withdrawn.NO_ROOM).user
    assert _kinds(left) == [Kind.ENTERED, Kind.WITHDRAWN]
    assert "no whole circle was left for you" in _notices_page(left)
    seated = next(u for u in users if u != left)
    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=seated)
    assert Entry.objects.get(event=event, user=seated).withdrawn == Entry.Withdrawn.ACCOUNT
    assert not EventNotice.objects.filter(user=seated, kind=Kind.WITHDRAWN).exists()


def test_the_end_tells_everyone_their_place(django_capture_on_commit_callbacks):
    event, users = _started(size=3)
    with django_capture_on_commit_callbacks(execute=True):  # told by event_finished's receiver
        leagues_sweep(now=event.ends_at)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    places = {
        row.user: row.place
        for circle in league_standings(event=event, withdrawn=set())
        for row in circle.rows
    }
    for user in users:
        notice = EventNotice.objects.get(user=user, kind=Kind.ENDED)
        assert notice.place == places[user.pk]
        expected = f"Autumn league has ended: you finished in place {places[user.pk]}."
        assert expected in _notices_page(user)
    with django_capture_on_commit_callbacks(execute=True):  # a re-run tells nobody twice
        leagues_sweep(now=event.ends_at + dt.timedelta(days=1))
    event_finished.send(sender=Event, event_id=event.pk, kind=event.kind)  # nor the signal again
    assert EventNotice.objects.filter(kind=Kind.ENDED).count() == 3


# --- Mail and push, once each ------------------------------------------------------------------


def test_each_notice_is_mailed_and_pushed_once_and_a_rerun_sends_nothing(service):
    event, users = _started()
    ann = users[0]
    phone = browser_subscribed(ann, service, "phone")
    mail.outbox.clear()
    notices_deliver()
    told = EventNotice.objects.count()
    assert told == 6 and len(mail.outbox) == told
    to_ann = [m for m in mail.outbox if m.to == [ann.email]]
    assert sorted(m.subject for m in to_ann) == ["News of Autumn league"] * 2
    assert "Autumn league has started: your first tables are open." in "".join(
        m.body for m in to_ann
    )
    for sent in to_ann:
        assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    pushes = [phone.read(push) for push in service.to("phone")]
    assert sorted(p["body"] for p in pushes) == sorted(
        [
            "You entered Autumn league. You will be told when it starts.",
            "Autumn league has started: your first tables are open.",
        ]
    )
    assert {p["url"] for p in pushes} == {f"/leagues/{event.pk}/"}
    assert {p["tag"] for p in pushes} == {f"league-{event.pk}"}
    notices_deliver()
    leagues_sweep()  # the beat task delivers too: nothing is left to send
    assert len(mail.outbox) == told and len(service.to("phone")) == 2


def test_mail_and_push_follow_each_persons_boxes(service):
    event = league_make(circle_size=3, open_most=1)
    ann, bea = people("b", 2)
    browser_subscribed(ann, service, "ann")
    browser_subscribed(bea, service, "bea")
    NotificationSettings.objects.create(user=ann, email_events=False)
    NotificationSettings.objects.create(user=bea, push_events=False)
    league_enter(event_id=event.pk, user=ann)
    mail.outbox.clear()
    notices_deliver()
    assert mail.outbox == [] and len(service.to("ann")) == 1
    league_enter(event_id=event.pk, user=bea)
    notices_deliver()
    assert [m.to for m in mail.outbox] == [[bea.email]] and service.to("bea") == []


def test_the_mail_and_push_are_worded_in_the_recipients_language(service):
    event = league_make(circle_size=3, open_most=1)
    ann = people("d", 1)[0]
    language_store(user_id=ann.pk, language="de")
    phone = browser_subscribed(ann, service, "phone")
    league_enter(event_id=event.pk, user=ann)
    mail.outbox.clear()
    notices_deliver()
    [sent] = mail.outbox
    assert sent.subject == "Neues von Autumn league"
    assert "Sie sind in Autumn league eingetragen." in sent.body
    [push] = service.to("phone")
    assert phone.read(push)["title"] == "Neues von Autumn league"


def test_a_closed_account_is_told_nothing_more():
    event = league_make(circle_size=3, open_most=1)
    ann, bea = people("c", 2)
    for user in (ann, bea):
        league_enter(event_id=event.pk, user=user)
    account_close(user=ann)
    mail.outbox.clear()
    notices_deliver()
    assert [m.to for m in mail.outbox] == [[bea.email]]
    assert not EventNotice.objects.filter(delivered_at__isnull=True).exists()


def test_old_news_is_not_mailed_when_beat_comes_back_late():
    _started()
    EventNotice.objects.update(at=timezone.now() - dt.timedelta(days=3))
    mail.outbox.clear()
    notices_deliver()
    assert mail.outbox == []
    assert not EventNotice.objects.filter(delivered_at__isnull=True).exists()


def test_nothing_told_reveals_a_table_s_secrets():
    event, users = _started()
    match = Match.objects.get(event_table__event=event)
    mail.outbox.clear()
    notices_deliver()
    said = " ".join(m.body + m.alternatives[0][0] for m in mail.outbox)
    said += _notices_page(users[0])
    said = re.sub(r"https?://\S+", "", said)  # the links' signed tokens are no words
    assert str(match.seed) not in said and "seed" not in said.lower()
    assert match.salt not in said


# --- The ladder's results ------------------------------------------------------------------


def test_a_ladder_climb_is_mailed_and_pushed_once_to_everyone_it_moved(service):
    ann, bea, cal = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    for person in (ann, bea, cal):
        ladder_join(game="faraway", user=person)
    phone = browser_subscribed(bea, service, "bea")
    challenge = ladder_challenge(game="faraway", challenger=cal, target_name="ann")
    invitation = Invitation.objects.get(match_id=challenge.match_id, user=ann)
    invitation_accept(invitation_id=invitation.pk, user=ann)
    mail.outbox.clear()
    match_resign(match_id=challenge.match_id, user=ann)
    notices_deliver()
    got = {m.to[0]: m for m in mail.outbox}
    assert set(got) == {ann.email, bea.email, cal.email}
    assert (
        "You beat ann and climbed to place 1 on the ladder of The Faraway Tree."
        in got[cal.email].body
    )
    assert "cal beat you and took your place 1" in got[ann.email].body
    assert "cal climbed to place 1" in got[bea.email].body
    [push] = service.to("bea")
    assert phone.read(push)["url"] == "/ladder/faraway/"
    notices_deliver()
    assert len(mail.outbox) == 3 and len(service.to("bea")) == 1


def test_the_league_page_badge_and_notices_cost_one_query_each_for_many_notices():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from competitions.league_notice_reads import league_notices, league_notices_rows

    event, users = _started()
    ann = users[0]
    EventNotice.objects.bulk_create(
        EventNotice(event=event, user=ann, kind=Kind.TABLE, key=f"table-x{i}", at=timezone.now())
        for i in range(150)
    )
    with CaptureQueriesContext(connection) as queries:
        assert league_notices_rows(ann.pk).count() == 152
        assert len(league_notices(ann.pk)) == 152
    assert len(queries) == 2
    assert re.search(r"A new table of yours", _notices_page(ann))
