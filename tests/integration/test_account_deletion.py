"""Deleting an account (docs/accounts.md, "Closing and deleting"): the page, what goes, what
stays, and that the old name and e-mail appear on no page, record or log line afterwards."""

from __future__ import annotations

import json
import logging
import random
import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import (
    AccountClosure,
    Block,
    ChallengeSetting,
    DataExport,
    Follow,
    HeldName,
    Holiday,
    NameChange,
    NotificationSettings,
    PendingEmail,
    TimeZoneSetting,
)
from accounts.services.deleted_names import deleted_name
from games.engines.records import record_verify
from games.models import Match, MatchNotice, Rating, RatingChange, Seat, TablePhrase
from games.services.invitations import rematch_offer
from games.services.phrases import phrase_say
from games.services.ratings import ratings_update_due
from tests import factories

pytestmark = pytest.mark.django_db

NAME = "zephyrine"
EMAIL = "zephyrine.mail@example.org"
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path) -> None:
    settings.DATA_DIR = tmp_path


@pytest.fixture
def zep(db):
    return factories.user_make(NAME, email=EMAIL)


def _finished(players: list, seed: int) -> Match:
    match = factories.match_make(game="faraway", players=players)  # a chosen seed is unrated
    match = factories.play_random(match, random.Random(seed))
    ratings_update_due()  # the rating task, sent on the commit a test's transaction never makes
    return match


def _delete(client, password: str = factories.PASSWORD):
    return client.post("/accounts/delete/", {"password": password})


def _everything(zep, bea, cal) -> dict[str, Match]:
    """A finished match, a running one, a waiting one Zep created and one Zep joined."""
    matches = {
        "fin": _finished([zep, bea], seed=3),
        "run": factories.match_make(game="faraway", players=[bea, zep, cal], seed=5),
        "mine": factories.match_make(game="faraway", players=[zep], seats=3),
        "theirs": factories.match_make(game="faraway", players=[bea, zep], seats=3),
    }
    return matches


def test_the_page_says_what_happens_and_a_wrong_password_changes_nothing(zep, bea, cal):
    client = factories.client_for(zep)
    page = client.get("/accounts/delete/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "cannot be undone" in text and "greedy bot" in text and "deleted player" in text
    matches = _everything(zep, bea, cal)
    for bad in ("", "wrong", "x" * 5000, "\x00"):
        refused = _delete(client, bad)
        assert refused.status_code == 400
        if bad == "wrong":
            assert "That is not your password: nothing was changed." in refused.content.decode()
    zep.refresh_from_db()
    assert zep.username == NAME and zep.is_active and zep.email == EMAIL
    assert client.get("/accounts/").status_code == 200  # still signed in
    assert Seat.objects.get(match=matches["run"], user=zep).resigned_ply is None


def test_deleting_resigns_cancels_leaves_and_anonymises(zep, bea, cal, caplog):
    matches = _everything(zep, bea, cal)
    NotificationSettings.objects.create(user=zep, email_turn=False)
    TimeZoneSetting.objects.create(user=zep, zone="Asia/Tokyo")
    Holiday.objects.create(user=zep, banked=3, banked_at=timezone.now())
    PendingEmail.objects.create(user=zep, email="zep.new@example.org", requested_at=timezone.now())
    NameChange.objects.create(user=zep, old_name="zeph", new_name=NAME, changed_at=timezone.now())
    Follow.objects.create(follower=zep, followed=bea)
    Follow.objects.create(follower=cal, followed=zep)
    Block.objects.create(blocker=bea, blocked=zep)
    ChallengeSetting.objects.create(user=zep, who=ChallengeSetting.Who.FRIENDS)
    MatchNotice.objects.create(user=zep, match=matches["run"], seen_at=timezone.now())
    phrase_say(match_id=matches["run"].pk, user=zep, key="good_luck")
    AccessAttempt.objects.create(username=NAME, ip_address="10.0.0.1", failures_since_start=1)
    rating = Rating.objects.get(user=zep, game="faraway")
    others = set(RatingChange.objects.exclude(rating=rating).values_list("pk", flat=True))
    assert others  # bea's change from the finished match
    other_client = factories.client_for(zep)  # a second browser, signed in too
    caplog.set_level(logging.DEBUG)
    response = _delete(factories.client_for(zep))
    assert response.status_code == 302 and response["Location"] == "/"
    zep.refresh_from_db()
    assert zep.username == deleted_name(zep.pk) == f"deleted player {zep.pk}"
    assert zep.email == "" and not zep.is_active and not zep.has_usable_password()
    assert f"account deleted: user id {zep.pk}" in caplog.text
    # the running seat resigned and the bot plays it; the others play on
    run = Match.objects.get(pk=matches["run"].pk)
    assert run.status == Match.Status.ACTIVE
    assert Seat.objects.get(match=run, user=zep).resigned_ply is not None
    factories.assert_replays(run)
    assert Match.objects.get(pk=matches["mine"].pk).status == Match.Status.CANCELLED
    assert not Seat.objects.filter(match=matches["theirs"], user=zep).exists()
    # what was theirs went; the others' rating changes stayed
    assert not Rating.objects.filter(user=zep).exists()
    assert set(RatingChange.objects.values_list("pk", flat=True)) == others
    for model in (
        NotificationSettings,
        TimeZoneSetting,
        Holiday,
        PendingEmail,
        NameChange,
        ChallengeSetting,
    ):
        assert not model.objects.filter(user=zep).exists(), model.__name__
    assert not Follow.objects.exists() and not Block.objects.exists()  # both ways
    assert not MatchNotice.objects.filter(user=zep).exists()
    assert not TablePhrase.objects.filter(user=zep).exists()
    assert not AccessAttempt.objects.filter(username__iexact=NAME).exists()
    # every session ended: the other browser is signed out
    assert other_client.get("/accounts/").status_code == 302
    # no one signs in with the old name or the new
    for name in (NAME, zep.username):
        login = {"username": name, "password": factories.PASSWORD}
        refused = factories.Client().post("/accounts/login/", login)
        assert refused.status_code == 200 and "_auth_user_id" not in refused.client.session


def test_the_old_name_and_email_appear_on_no_page_record_export_or_log_line(
    zep, bea, cal, caplog, django_capture_on_commit_callbacks
):
    matches = _everything(zep, bea, cal)
    fin, run = matches["fin"], matches["run"]
    Rating.objects.filter(user=zep).update(matches=9, last_played_at=timezone.now())
    Follow.objects.create(follower=zep, followed=bea)
    Follow.objects.create(follower=bea, followed=zep)
    phrase_say(match_id=run.pk, user=bea, key="good_luck")
    offered = rematch_offer(match_id=fin.pk, user=zep)  # an invitation from Zep to Bea
    matches["rematch"] = Match.objects.get(pk=offered.match_id)
    bea_client = factories.client_for(bea)
    board = bea_client.get("/leaderboard/faraway/").content.decode()
    assert NAME in board  # listed before
    replay = bea_client.get(f"/matches/{fin.pk}/replay/?as=all").content.decode()
    assert NAME in replay  # and cached now, under the match's version
    assert NAME in bea_client.get("/friends/").content.decode()  # a friend before
    assert NAME in bea_client.get("/notices/").content.decode()  # the rematch offer
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    assert _delete(factories.client_for(zep)).status_code == 302
    zep.refresh_from_db()
    pages = [
        ("/", {}),
        ("/matches/", {}),
        ("/history/", {}),
        ("/history/?game=faraway", HTMX),
        ("/leaderboard/faraway/", {}),
        ("/leaderboard/gulliver/", {}),
        ("/players/bea/", {}),
        ("/players/cal/", {}),
        ("/accounts/", {}),
        ("/accounts/notifications/", {}),
        ("/friends/", {}),
        ("/notices/", {}),
    ]
    for match in matches.values():
        pk = match.pk
        pages += [
            (f"/matches/{pk}/", {}),
            (f"/matches/{pk}/", HTMX),
            (f"/matches/{pk}/table/?version=0", HTMX),
            (f"/matches/{pk}/replay/", {}),
            (f"/matches/{pk}/replay/?as=all", {}),
            (f"/matches/{pk}/replay/?as=0", {}),
            (f"/matches/{pk}/analysis/", HTMX),
            (f"/matches/{pk}/record.json", {}),
        ]
    seen = 0
    for url, headers in pages:
        response = bea_client.get(url, headers=headers, follow=True)
        assert response.status_code < 500, url
        body = response.content.decode()
        assert NAME not in body.lower() and EMAIL not in body, url
        seen += response.status_code == 200
    assert seen > 20
    finished_page = bea_client.get(f"/matches/{fin.pk}/").content.decode()
    assert zep.username in finished_page  # "deleted player N" in the old name's place
    # Every line logged from the deletion on (the probes below log the URLs they ask for).
    assert NAME not in caplog.text.lower() and EMAIL not in caplog.text
    for gone in (f"/players/{NAME}/", f"/accounts/{NAME}/", f"/players/{zep.username}/"):
        assert bea_client.get(gone, follow=True).status_code == 404
    # the records still verify, names being outside the hash chain
    record = json.loads(bea_client.get(f"/matches/{fin.pk}/record.json").content)
    assert record_verify(record).ok
    assert zep.username in json.dumps(record)
    running = json.loads(bea_client.get(f"/matches/{run.pk}/record.json").content)
    assert zep.username in json.dumps(running)
    factories.assert_replays(run)  # its chain, resignation included, replays
    # Bea's data export, prepared after the deletion: her records of the matches she shared
    # with Zep and the rematch offer Zep sent her name "deleted player N", never the old name.
    caplog.clear()  # the probes of the old profile URL above logged it, as a web server would
    with django_capture_on_commit_callbacks(execute=True):
        assert bea_client.post("/accounts/data/").status_code == 302
    export = DataExport.objects.get(user=bea)
    assert export.status == DataExport.Status.READY
    response = bea_client.get(f"/accounts/data/{export.pk}/")
    body = b"".join(response.streaming_content).decode()
    assert zep.username in body and {fin.pk, run.pk} <= {
        m["match"] for m in json.loads(body)["matches"]
    }
    assert NAME not in body.lower() and EMAIL not in body
    assert NAME not in caplog.text.lower() and EMAIL not in caplog.text  # nor did the worker log it


def test_a_waiting_match_they_only_watch_is_cancelled_too(zep):
    from games.services import match_create

    watched = match_create(
        game="faraway",
        num_players=2,
        created_by=zep,
        bots={0: "greedy"},
        creator_plays=False,
        public=True,
    )
    assert watched.status == Match.Status.WAITING
    _delete(factories.client_for(zep))
    assert Match.objects.get(pk=watched.pk).status == Match.Status.CANCELLED


def test_deleting_twice_or_signed_out_changes_nothing(zep):
    client = factories.client_for(zep)
    assert _delete(client).status_code == 302
    again = _delete(client)  # the double post, or a stale page: signed out by the first
    assert again.status_code == 302 and "/accounts/login/" in again["Location"]
    zep.refresh_from_db()
    assert zep.username == deleted_name(zep.pk)
    assert factories.Client().post("/accounts/delete/", {"password": "x"}).status_code == 302


def test_no_one_may_take_the_shape_of_a_deleted_name(client):
    for name in ("deleted player 7", "deleted_player_7", "Deleted-Player", "deletedplayer"):
        response = client.post(
            "/accounts/register/",
            {"username": name, "email": "", "password1": "x-Moon-42-q", "password2": "x-Moon-42-q"},
        )
        assert response.status_code == 400, name
    assert not get_user_model().objects.filter(username__icontains="player").exists()


def _register(name: str):
    data = {"email": "x@example.org", "password1": "climbing-77!", "password2": "climbing-77!"}
    return factories.Client().post("/accounts/register/", {"username": name, **data})


def _rename(user, name: str):
    data = {"new_name": name, "password": factories.PASSWORD, "current": user.username}
    return factories.client_for(user).post("/accounts/name/", data)


def test_a_deleted_persons_names_are_held_90_days_as_a_renamed_ones(zep, bea):
    """The name a deletion gives up is held as a rename's old name is: registration and a rename
    refuse it in the same words as a name held after a rename, it leads nowhere, and after 90
    days it is free. An old name Zep's rename still held stays held for what remained."""
    NameChange.objects.create(
        user=zep, old_name="zephy", new_name=NAME, changed_at=timezone.now() - timedelta(days=80)
    )
    _delete(factories.client_for(zep))
    for name in (NAME, NAME.upper(), "zephy"):
        refused = _register(name)
        assert refused.status_code == 400, name
        assert "That name is taken: choose another." in refused.content.decode()
        refused = _rename(bea, name)
        assert refused.status_code == 400, name
        assert "That name is taken: choose another." in refused.content.decode()
    assert get_user_model().objects.filter(username__iexact=NAME).count() == 0
    assert factories.client_for(bea).get(f"/players/{NAME}/").status_code == 404
    assert factories.client_for(bea).get("/players/zephy/").status_code == 404
    # The held rows name no one: only the name and when it was given up.
    assert {f.name for f in HeldName._meta.get_fields()} == {"id", "name", "given_up_at"}
    # "zephy" was given up 80 days ago: free after 10 more; Zep's last name after 90.
    HeldName.objects.filter(name="zephy").update(given_up_at=timezone.now() - timedelta(days=91))
    assert _register("zephy").status_code == 302
    assert _register(NAME).status_code == 400
    HeldName.objects.filter(name=NAME).update(given_up_at=timezone.now() - timedelta(days=91))
    assert _rename(bea, NAME).status_code == 302
    assert get_user_model().objects.get(pk=bea.pk).username == NAME


def test_deleting_removes_the_persons_exports_and_their_files(
    zep, settings, django_capture_on_commit_callbacks
):
    client = factories.client_for(zep)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/accounts/data/").status_code == 302
    export = DataExport.objects.get(user=zep)
    path = settings.DATA_DIR / "exports" / export.file_name
    assert path.is_file()
    _delete(client)
    assert not DataExport.objects.filter(user=zep).exists() and not path.exists()


def test_the_sweep_deletes_a_closed_account_once_its_30_days_are_out(zep, bea):
    from accounts import tasks

    AccountClosure.objects.create(user=zep, closed_at=timezone.now() - timedelta(days=29))
    AccountClosure.objects.create(user=bea, closed_at=timezone.now() - timedelta(days=31))
    assert tasks.closed_accounts_delete() == 1
    zep.refresh_from_db()
    bea.refresh_from_db()
    assert zep.username == NAME and zep.is_active
    assert bea.username == deleted_name(bea.pk) and not bea.is_active
    assert not AccountClosure.objects.filter(user=bea).exists()
    assert tasks.closed_accounts_delete() == 0


def test_a_name_with_the_old_name_inside_is_not_touched_elsewhere(zep, bea):
    """Only Zep's row is renamed: a rating note about another person keeps its name."""
    match = _finished([zep, bea], seed=4)
    Match.objects.filter(pk=match.pk).update(
        rating_note="Not rated: the deadline bot played most of bea's turns."
    )
    _delete(factories.client_for(zep))
    assert "bea" in Match.objects.get(pk=match.pk).rating_note
    assert re.fullmatch(r"deleted player \d+", get_user_model().objects.get(pk=zep.pk).username)
