"""Leaving a match (docs/leaving.md): resigning one in play, cancelling or leaving one that
waits, through the services and through the pages (plain forms and htmx)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import tasks
from games.engines.records import record_verify
from games.models import Match, Move, RatingChange, RatingStatus, Seat
from games.services import (
    Rejected,
    bot_move_play,
    match_cancel,
    match_create,
    match_deadline_enforce,
    match_join,
    match_leave,
    match_resign,
    player_move_submit,
)
from games.services.ratings import ratings_update_due
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _resign_post(client, match, *, htmx: bool = False, confirm: str = "yes"):
    return client.post(
        f"/matches/{match.pk}/resign/", {"confirm": confirm}, headers=HTMX if htmx else {}
    )


def _fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def _seat(match: Match, user) -> Seat:
    return Seat.objects.get(match=match, user=user)


# -- resigning: the service -------------------------------------------------------------------


def test_a_resignation_is_logged_in_the_chain_and_the_others_play_on(ann, bea, cal):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=7)
    before = _fresh(match)
    done = match_resign(match_id=match.pk, user=bea)
    assert not done.ended
    fresh = _fresh(match)
    assert fresh.status == Match.Status.ACTIVE
    assert (fresh.ply, fresh.version) == (before.ply + 1, before.version + 1)
    assert fresh.state == before.state  # the position does not change
    entry = Move.objects.get(match=match, ply=fresh.ply)
    assert (entry.seat, entry.payload, entry.auto) == (1, {"type": "resign"}, "resigned")
    assert _seat(match, bea).resigned_ply == fresh.ply
    factories.assert_replays(match)


def test_the_greedy_bot_plays_a_resigned_seat(ann, bea, django_capture_on_commit_callbacks):
    cal = factories.user_make("cal")
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=11)
    mover = match.awaiting[0]
    person = [ann, bea, cal][mover]
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(match_id=match.pk, user=person)
    fresh = _fresh(match)
    assert mover not in fresh.awaiting  # the bot played the whole turn at once
    played = Move.objects.filter(match=match, seat=mover).exclude(payload={"type": "resign"})
    assert played.exists() and {m.auto for m in played} == {"resigned"}
    factories.assert_replays(match)
    with pytest.raises(Rejected) as refused:
        player_move_submit(
            match_id=match.pk, user=person, move={"type": "draw"}, expected_version=fresh.version
        )
    assert refused.value.status == 409 and "resigned" in refused.value.message
    assert _seat(match, person).awaited_since is None


def test_a_bot_turn_task_finds_the_resigned_seat(ann, bea, cal):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=5)
    mover = match.awaiting[0]
    match_resign(match_id=match.pk, user=[ann, bea, cal][mover])
    fresh = _fresh(match)
    assert bot_move_play(match=fresh, expected_version=fresh.version) is not None
    assert Move.objects.filter(match=match, seat=mover, auto="resigned").count() == 2


def test_resigning_a_two_seat_match_ends_it_and_it_is_rated_as_a_loss(ann, bea):
    match = factories.match_make(game="gulliver", players=[ann, bea])  # a drawn seed: rated
    done = match_resign(match_id=match.pk, user=ann)
    assert done.ended
    fresh = _fresh(match)
    assert fresh.status == Match.Status.FINISHED and fresh.finished_at is not None
    assert fresh.awaiting == [] and fresh.deadline_at is None
    assert fresh.rating_status == RatingStatus.PENDING
    seats = {s.index: s for s in fresh.seats.all()}
    assert (seats[0].result, seats[0].rank) == ("lost", 2)
    assert (seats[1].result, seats[1].rank) == ("won", 1)
    assert all(s.awaited_since is None for s in seats.values())
    factories.assert_replays(match)
    assert ratings_update_due() == 1
    assert _fresh(match).rating_status == RatingStatus.RATED
    changes = {c.seat: c.delta for c in RatingChange.objects.filter(match=match)}
    assert changes[0] < 0 < changes[1]


def test_when_no_person_is_left_the_bots_share_first_place(ann):
    match = match_create(
        game="faraway", num_players=3, created_by=ann, bots={1: "greedy", 2: "random"}
    )
    match_resign(match_id=match.pk, user=ann)
    fresh = _fresh(match)
    assert fresh.status == Match.Status.FINISHED
    standing = {s.index: (s.result, s.rank) for s in fresh.seats.all()}
    assert standing == {0: ("lost", 3), 1: ("drawn", 1), 2: ("drawn", 1)}
    assert ratings_update_due() == 1  # a person played: rated, the resigner a loss


def test_several_resigners_rank_last_the_earlier_lower(ann, bea, cal):
    dan = factories.user_make("dan")
    match = factories.match_make(game="faraway", players=[ann, bea, cal, dan], seed=21)
    match_resign(match_id=match.pk, user=bea)
    match_resign(match_id=match.pk, user=dan)
    match_resign(match_id=match.pk, user=ann)  # cal alone is left: the end
    ranks = {s.index: (s.result, s.rank) for s in _fresh(match).seats.all()}
    assert ranks == {2: ("won", 1), 0: ("lost", 2), 3: ("lost", 3), 1: ("lost", 4)}
    factories.assert_replays(match)


def test_a_match_played_to_the_end_after_a_resignation_ranks_the_resigner_last(ann, bea, cal):
    match = factories.match_make(game="gulliver", players=[ann, bea, cal], seed=3)
    match_resign(match_id=match.pk, user=ann)
    factories.play_random(match, random.Random(3))
    fresh = _fresh(match)
    assert fresh.status == Match.Status.FINISHED
    seats = {s.index: s for s in fresh.seats.all()}
    assert (seats[0].result, seats[0].rank) == ("lost", 3)
    assert {seats[1].rank, seats[2].rank} <= {1, 2}
    factories.assert_replays(match)


@pytest.mark.parametrize(
    ("status", "who", "message"),
    [
        ("twice", "bea", "already resigned"),
        ("finished", "bea", "is over"),
        ("stranger", "cal", "do not have a seat"),
    ],
)
def test_a_refused_resignation_changes_nothing(ann, bea, cal, status, who, message):
    match = factories.match_make(game="faraway", players=[ann, bea, factories.user_make("dan")])
    if status == "twice":
        match_resign(match_id=match.pk, user=bea)
    if status == "finished":
        match_resign(match_id=match.pk, user=ann)
        match_resign(match_id=match.pk, user=bea)
    before = _fresh(match)
    with pytest.raises(Rejected) as refused:
        match_resign(match_id=match.pk, user={"bea": bea, "cal": cal}[who])
    assert message in refused.value.message
    after = _fresh(match)
    assert (after.version, after.ply, after.status) == (before.version, before.ply, before.status)


def test_a_waiting_match_cannot_be_resigned(ann, bea):
    match = factories.match_make(game="faraway", players=[ann, bea], seats=3)
    with pytest.raises(Rejected) as refused:
        match_resign(match_id=match.pk, user=bea)
    assert refused.value.status == 409 and "leave" in refused.value.message


# -- resigning: the record --------------------------------------------------------------------


def _record(client, match) -> dict:
    return json.loads(client.get(f"/matches/{match.pk}/record.json").content)


def test_a_record_with_a_resignation_verifies_from_the_command_line(ann, bea, cal, tmp_path):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=8)
    factories.play_random(match, random.Random(8), plies=5)
    match_resign(match_id=match.pk, user=cal)
    match_resign(match_id=match.pk, user=ann)
    record = _record(factories.client_for(bea), match)
    assert record["format_version"] == 2
    assert record["outcome"]["winners"] == [1] and record["outcome"]["draw"] is False
    resigns = [e for e in record["entries"] if e["move"] == {"type": "resign"}]
    assert [(e["seat"], e["auto"]) for e in resigns] == [(2, "resigned"), (0, "resigned")]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    run = subprocess.run(
        [sys.executable, "-m", "games.verify_record", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "resigned, in order: seat 2, seat 0; that ended the match" in run.stdout


def test_a_tampered_resignation_fails_verification(ann, bea, cal):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=9)
    match_resign(match_id=match.pk, user=cal)
    match_resign(match_id=match.pk, user=ann)
    record = _record(factories.client_for(bea), match)
    assert record_verify(record).ok
    moved = json.loads(json.dumps(record))  # the resignation laid on another seat
    moved["entries"][0]["seat"] = 1
    assert record_verify(moved).exit_code == 1
    dropped = json.loads(json.dumps(record))  # a resignation taken out of the log
    del dropped["entries"][0]
    assert record_verify(dropped).exit_code == 1
    ranks = json.loads(json.dumps(record))  # the resigners' order swapped
    ranks["outcome"]["standings"][0]["rank"], ranks["outcome"]["standings"][2]["rank"] = 3, 2
    report = record_verify(ranks)
    assert report.exit_code == 1 and "standing differs" in report.problem


def test_a_running_record_with_a_resignation_reveals_nothing(ann, bea, cal):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=10)
    match_resign(match_id=match.pk, user=cal)
    record = _record(factories.client_for(ann), match)
    assert record["seed"] is None and record["salt"] is None and record["outcome"] is None
    assert all(e["hash"] is None for e in record["entries"])


# -- resigning: the pages ---------------------------------------------------------------------


def test_the_table_links_to_a_confirmation_page_that_says_what_happens(ann, bea, ann_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=1)
    table = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/resign/"' in table
    page = ann_client.get(f"/matches/{match.pk}/resign/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "You lose this match" in text and "the match ends at once: bea wins" in text
    assert 'name="confirm" value="yes"' in text
    assert _fresh(match).version == match.version  # asking changes nothing


def test_resigning_with_a_plain_form(ann, bea, cal, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=2)
    response = _resign_post(bea_client, match)
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"
    table = bea_client.get(response.url).content.decode()
    assert "You resigned: the greedy bot plays your seat now." in table
    assert "bea resigned; the greedy bot plays that seat." in table
    assert 'id="resign-link"' not in table  # nothing more to resign


def test_resigning_signed_out_with_htmx_is_a_worded_401_and_changes_nothing(ann, bea):
    """Signed out under the page (docs/accounts.md, "Signed out"): no ``HX-Redirect`` to the
    sign-in page (which threw the page away), the 401's sentence instead; the seat plays on."""
    match = factories.match_make(game="faraway", players=[ann, bea], seed=2)
    response = _resign_post(Client(), match, htmx=True)
    assert response.status_code == 401 and "HX-Redirect" not in response
    assert "You are signed out: nothing here was changed." in response.content.decode()
    fresh = _fresh(match)
    assert (fresh.status, fresh.version) == (match.status, match.version)
    assert not _seat(match, bea).resigned


def test_resigning_with_htmx_follows_a_client_redirect(ann, bea, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=2)
    response = _resign_post(bea_client, match, htmx=True)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/matches/{match.pk}/"
    table = bea_client.get(f"/matches/{match.pk}/").content.decode()
    assert "ann won." in table and "bea resigned, which ends the match." in table


@pytest.mark.parametrize("htmx", [False, True])
def test_a_second_resignation_is_refused_with_a_message(ann, bea, cal, bea_client, htmx):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=2)
    _resign_post(bea_client, match)
    before = _fresh(match)
    response = _resign_post(bea_client, match, htmx=htmx)
    assert response.status_code == 409
    text = response.content.decode()
    assert "You have already resigned from this match." in text
    assert ("<html" in text) is not htmx
    assert _fresh(match).version == before.version


def test_a_post_without_the_confirmation_changes_nothing(ann, bea, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=2)
    for garbage in ("", "no", "YES", "yes\x00", "x" * 5000):
        response = _resign_post(bea_client, match, confirm=garbage)
        assert response.status_code == 400
        assert "Confirm with this page" in response.content.decode()
    assert _fresh(match).status == Match.Status.ACTIVE


def test_a_stranger_and_a_visitor_cannot_resign(ann, bea, cal_client, client):
    public = factories.match_make(game="faraway", players=[ann, bea], seed=2)
    private = factories.match_make(game="faraway", players=[ann, bea], seed=2, public=False)
    assert _resign_post(cal_client, public).status_code == 403
    assert _resign_post(cal_client, private).status_code == 404
    assert cal_client.get(f"/matches/{private.pk}/resign/").status_code == 404
    page = cal_client.get(f"/matches/{public.pk}/resign/").content.decode()
    assert "Only a seated person" in page and 'name="confirm"' not in page
    assert _resign_post(client, public).status_code == 302  # to the sign-in page
    assert _fresh(public).version == public.version


def test_the_resigners_move_buttons_are_gone(ann, bea, cal, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=4)
    match_resign(match_id=match.pk, user=bea)
    table = bea_client.get(f"/matches/{match.pk}/").content.decode()
    assert factories.offered_moves(table) == []


def test_the_replay_words_a_resignation(ann, bea, cal, ann_client):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=4)
    match_resign(match_id=match.pk, user=bea)
    match_resign(match_id=match.pk, user=cal)
    page = ann_client.get(f"/matches/{match.pk}/replay/?ply=1&as=all").content.decode()
    assert "bea resigned; the greedy bot plays that seat." in page
    assert "cal resigned, which ends the match." in page


# -- cancelling and leaving a waiting match ----------------------------------------------------


def test_the_creator_cancels_a_waiting_match(ann, bea, ann_client, bea_client, cal_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seats=3)
    assert 'id="cancel-link"' in ann_client.get(f"/matches/{match.pk}/").content.decode()
    confirm = ann_client.get(f"/matches/{match.pk}/cancel/").content.decode()
    assert "Yes, cancel the match" in confirm
    response = ann_client.post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"})
    assert response.status_code == 302
    fresh = _fresh(match)
    assert fresh.status == Match.Status.CANCELLED and fresh.version == match.version + 1
    table = bea_client.get(f"/matches/{match.pk}/").content.decode()
    assert "This match was cancelled by its creator" in table
    assert "hx-trigger" not in table.split('id="table"')[1].split(">")[0]  # no more polls
    lobby = bea_client.get("/matches/").content.decode()
    assert f'data-match-id="{match.pk}" data-status="cancelled"' in lobby
    assert "Cancelled" in lobby
    history = bea_client.get("/history/").content.decode()
    assert f'id="history-row-{match.pk}"' in history and 'data-result="cancelled"' in history
    invite = cal_client.get(f"/matches/join/{match.invite_token}/")
    assert invite.status_code == 200
    assert "This match was cancelled by its creator" in invite.content.decode()
    joined = cal_client.post(f"/matches/join/{match.invite_token}/", follow=True)
    assert joined.status_code == 200
    assert "This match was cancelled by its creator." in joined.content.decode()
    assert fresh.seats.count() == 2
    assert f'data-match-id="{match.pk}"' not in cal_client.get("/matches/").content.decode()
    for page in ("replay/", "record.json", "table/?version=0"):
        assert bea_client.get(f"/matches/{match.pk}/{page}").status_code in (200, 286, 302)


def test_cancelling_is_refused_to_others_and_once_begun(ann, bea, cal):
    waiting = factories.match_make(game="faraway", players=[ann, bea], seats=3)
    with pytest.raises(Rejected) as other:
        match_cancel(match_id=waiting.pk, user=bea)
    assert other.value.status == 403
    begun = factories.match_make(game="faraway", players=[ann, bea])
    with pytest.raises(Rejected) as started:
        match_cancel(match_id=begun.pk, user=ann)
    assert started.value.status == 409 and "resign" in started.value.message
    match_cancel(match_id=waiting.pk, user=ann)
    with pytest.raises(Rejected) as twice:
        match_cancel(match_id=waiting.pk, user=ann)
    assert twice.value.status == 409 and "cancelled" in twice.value.message
    with pytest.raises(Rejected):
        match_join(match=waiting, user=cal)
    assert _fresh(begun).status == Match.Status.ACTIVE


def test_a_watching_creator_may_cancel(ann, bea, ann_client):
    match = match_create(game="faraway", num_players=2, created_by=ann, creator_plays=False)
    match_join(match=match, user=bea)  # one of two seats
    assert 'id="cancel-link"' in ann_client.get(f"/matches/{match.pk}/").content.decode()
    response = ann_client.post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"}, headers=HTMX)
    assert response.headers["HX-Redirect"] == f"/matches/{match.pk}/"
    assert _fresh(match).status == Match.Status.CANCELLED


def test_a_seated_guest_leaves_a_waiting_match(ann, bea, cal, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seats=3)
    assert 'id="leave-link"' in bea_client.get(f"/matches/{match.pk}/").content.decode()
    response = bea_client.post(f"/matches/{match.pk}/leave/", {"confirm": "yes"})
    assert response.status_code == 302 and response.url == "/matches/"
    fresh = _fresh(match)
    assert list(fresh.seats.values_list("user__username", flat=True)) == ["ann"]
    assert fresh.version == match.version + 1
    match_join(match=match, user=cal)  # the seat is free again
    with pytest.raises(Rejected) as creator:
        match_leave(match_id=match.pk, user=ann)
    assert creator.value.status == 409 and "cancel it instead" in creator.value.message


def test_leaving_a_begun_match_is_refused(ann, bea, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea])
    response = bea_client.post(f"/matches/{match.pk}/leave/", {"confirm": "yes"})
    assert response.status_code == 409
    assert "you may resign instead" in response.content.decode()
    assert _fresh(match).seats.count() == 2


# -- the background work around a resigned seat ------------------------------------------------


def test_the_sweeper_finds_a_resigned_seats_lost_turn(ann, bea, cal, settings):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=14)
    mover = match.awaiting[0]
    match_resign(match_id=match.pk, user=[ann, bea, cal][mover])  # its task never runs here
    assert not Move.objects.filter(match=match, seat=mover).exclude(auto="resigned").exists()
    settings.PARLOUR_SWEEP_AFTER = 0
    assert tasks.sweep_stalled.apply(throw=True).get() == 1
    played = Move.objects.filter(match=match, seat=mover, auto="resigned")
    assert played.count() == 2  # the resignation and the bot's first move


def test_a_passed_deadline_leaves_a_resigned_seat_to_the_bot(ann, bea, cal):
    match = match_create(game="faraway", num_players=3, created_by=ann, deadline_days=1)
    match_join(match=match, user=bea)
    match_join(match=match, user=cal)
    match.refresh_from_db()
    mover = match.awaiting[0]
    match_resign(match_id=match.pk, user=[ann, bea, cal][mover])
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert match_deadline_enforce(match=_fresh(match)) == 0  # the bot's task plays it
    assert not Move.objects.filter(match=match, auto=Move.Auto.DEADLINE).exists()


def test_a_resigned_seats_turn_is_no_longer_its_persons_turn(ann, bea, cal):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=15)
    person = [ann, bea, cal][match.awaiting[0]]
    client = factories.client_for(person)
    assert 'class="match-item your-turn"' in client.get("/matches/").content.decode()
    match_resign(match_id=match.pk, user=person)  # the bot's task has not run yet
    assert _fresh(match).awaiting == [_seat(match, person).index]
    assert 'class="match-item your-turn"' not in client.get("/matches/").content.decode()
    assert _seat(match, person).awaited_since is None
