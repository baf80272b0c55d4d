"""A person's data export (docs/accounts.md, "Your data"): asked for on the account page,
built by the worker task, downloadable by its owner only, one a day, gone after 7 days, and
never holding another person's hidden cards, e-mail or settings."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import tasks
from accounts.models import DataExport, NotificationSettings, TimeZoneSetting
from accounts.services.play_settings import play_settings_save
from games.engines import get_engine
from games.models import Match, Seat
from games.services.lessons import lesson_progress_keep
from games.services.phrases import phrase_say
from games.services.ratings import ratings_update_due
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path) -> None:
    settings.DATA_DIR = tmp_path


@pytest.fixture
def prepare(django_capture_on_commit_callbacks):
    """POST "Prepare my data" as ``client``, running the task sent on the commit."""

    def post(client, headers=None):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post("/accounts/data/", headers=headers or {})

    return post


def _download(client, export: DataExport):
    return client.get(f"/accounts/data/{export.pk}/")


def _body(response) -> dict:
    return json.loads(b"".join(response.streaming_content))


def test_the_export_holds_the_persons_data_and_their_seats_records(ann, bea, cal, prepare):
    finished = factories.match_make(game="faraway", players=[ann, bea])
    factories.play_random(finished, random.Random(1))
    ratings_update_due()
    running = factories.match_make(game="faraway", players=[bea, ann, cal], seed=8)
    factories.play_random(running, random.Random(2), plies=5)
    NotificationSettings.objects.create(user=ann, email_deadline=False)
    NotificationSettings.objects.create(user=bea, email_turn=False)
    TimeZoneSetting.objects.create(user=ann, zone="Europe/Paris")
    play_settings_save(
        user_id=ann.pk, confirm_moves="on", next_table_at_once=True, keyboard_shortcuts=True
    )
    phrase_say(match_id=running.pk, user=ann, key="oops")
    phrase_say(match_id=running.pk, user=bea, key="thanks")  # bea's, not in ann's file
    lesson_progress_keep(user_id=ann.pk, game="gulliver", lesson="start", stars=2)
    lesson_progress_keep(user_id=bea.pk, game="gulliver", lesson="build", stars=3)
    client = factories.client_for(ann)
    assert prepare(client).status_code == 302
    export = DataExport.objects.get(user=ann)
    assert export.status == DataExport.Status.READY and export.done == export.total == 2
    response = _download(client, export)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert "no-store" in response["Cache-Control"]
    body = _body(response)
    assert body["account"]["username"] == "ann" and body["account"]["email"] == ann.email
    assert "password" not in json.dumps(body["account"])
    assert body["notification_settings"] == {
        "email_turn": True,
        "email_deadline": False,
        "email_invitations": True,
        "email_events": True,
        "push_turn": True,
        "push_events": True,
        "notice_invitations": True,
        "notice_turns": True,
        "notice_finished": True,
        "notice_ladder": True,
        "notice_events": True,
        "mute_phrases": False,
    }
    assert body["time_zone"] == "Europe/Paris" and body["holiday"] is None
    assert body["play_settings"] == {
        "confirm_moves": "on",
        "next_table_at_once": True,
        "keyboard_shortcuts": True,
        "text_mode": False,
    }
    assert body["account"]["former_names"] == [] and body["account"]["email_pending"] is None
    assert [r["game"] for r in body["ratings"]] == ["faraway"]
    assert body["ratings"][0]["changes"][0]["match"] == finished.pk
    assert body["relations"]["matches_created"] == [finished.pk]
    assert [(p["match"], p["phrase"]) for p in body["table_phrases"]] == [(running.pk, "Oops")]
    assert [(r["lesson"], r["stars"]) for r in body["lessons"]] == [("start", 2)]
    by_match = {m["match"]: m for m in body["matches"]}
    # finished: the full record (seed revealed); running: ann's seat's record, as record.json
    assert by_match[finished.pk]["record"]["seed"] is not None
    as_page = json.loads(client.get(f"/matches/{running.pk}/record.json").content)
    assert by_match[running.pk]["record"] == as_page
    text = json.dumps(body)
    assert bea.email not in text and cal.email not in text
    assert 'email_turn": false' not in text  # bea's setting is nobody's business but hers


def test_an_export_taken_mid_match_holds_no_card_of_the_other_hands(ann, bea, cal, prepare):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=11)
    factories.play_random(match, random.Random(3), plies=7)
    match.refresh_from_db()
    engine = get_engine(match.game)
    state = engine.load(match.state)
    mine = Seat.objects.get(match=match, user=ann).index
    seen = json.dumps(engine.view(state, mine))
    hidden = {
        card
        for seat in range(match.num_players)
        if seat != mine
        for card in engine.view(state, seat)["hand"]
        if f'"{card}"' not in seen
    }
    assert hidden  # the others hold cards ann cannot see
    client = factories.client_for(ann)
    prepare(client)
    body = _body(_download(client, DataExport.objects.get(user=ann)))
    entry = json.dumps(next(m for m in body["matches"] if m["match"] == match.pk))
    leaked = [card for card in hidden if f'"{card}"' in entry]
    assert leaked == []


def test_only_the_owner_downloads_staff_and_others_get_a_404(ann, bea, prepare):
    client = factories.client_for(ann)
    prepare(client)
    export = DataExport.objects.get(user=ann)
    staff = factories.client_for(factories.staff_make("boss"))
    for other in (factories.client_for(bea), staff):
        assert _download(other, export).status_code == 404
    assert factories.Client().get(f"/accounts/data/{export.pk}/").status_code == 302
    assert client.get("/accounts/data/999999/").status_code == 404
    assert _download(client, export).status_code == 200


def test_one_export_a_day_a_double_post_makes_one(ann, prepare):
    client = factories.client_for(ann)
    assert prepare(client).status_code == 302
    again = prepare(client)
    assert again.status_code == 429 and "less than a day ago" in again.content.decode()
    htmx = prepare(client, HTMX)
    assert htmx.status_code == 429 and 'id="data-refusal"' in htmx.content.decode()
    assert DataExport.objects.filter(user=ann).count() == 1
    DataExport.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert prepare(client).status_code == 302
    assert DataExport.objects.filter(user=ann).count() == 2


def test_the_section_polls_while_preparing_and_shows_progress(ann):
    export = DataExport.objects.create(user=ann, total=40, done=10)
    client = factories.client_for(ann)
    page = client.get("/accounts/").content.decode()
    assert 'hx-trigger="every 2s, parlour-quiet-poll"' in page and "10 of 40 matches" in page
    assert client.get("/accounts/data/").status_code == 302  # a plain GET: the account page
    poll = client.get("/accounts/data/", headers=HTMX).content.decode()
    assert "10 of 40" in poll
    DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.FAILED)
    done = client.get("/accounts/data/", headers=HTMX).content.decode()
    assert "every 2s" not in done and "failed" in done and 'id="data-prepare"' in done


def test_the_progress_says_preparing_until_the_total_is_known(ann):
    """Issue 33: a fresh export said "0 of 0 matches so far" before the worker had counted."""
    DataExport.objects.create(user=ann)
    client = factories.client_for(ann)
    for page in (
        client.get("/accounts/").content.decode(),
        client.get("/accounts/data/", headers=HTMX).content.decode(),
    ):
        assert "Preparing your data…" in page and "0 of 0" not in page
        assert "every 2s" in page


def test_a_rerun_of_the_task_does_nothing_and_exports_expire(ann, prepare, settings):
    client = factories.client_for(ann)
    prepare(client)
    export = DataExport.objects.get(user=ann)
    tasks.data_export(export.pk)  # a duplicate delivery
    assert len(list((settings.DATA_DIR / "exports").iterdir())) == 1
    assert tasks.data_exports_expire_task() == 0
    DataExport.objects.update(created_at=timezone.now() - timedelta(days=7, minutes=1))
    assert tasks.data_exports_expire_task() == 1
    assert list((settings.DATA_DIR / "exports").iterdir()) == []
    assert _download(client, export).status_code == 404


def test_a_match_waiting_or_cancelled_is_exported_too(ann, bea, prepare):
    waiting = factories.match_make(game="faraway", players=[ann], seats=2)
    client = factories.client_for(ann)
    prepare(client)
    body = _body(_download(client, DataExport.objects.get(user=ann)))
    assert [m["status"] for m in body["matches"]] == [Match.Status.WAITING]
    assert body["matches"][0]["match"] == waiting.pk
