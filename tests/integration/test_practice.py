"""The practice match after a game's last lesson (docs/lessons.md, "The first match, with
hints"): ``/learn/<game>/practice/`` starts a real, unrated match against the greedy bot with
the person's hints on, finds the one still running on a repeated click, and sends a visitor
signed out to register and back to its button."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games.engines import registered
from games.models import BotLevel, Match, RatingStatus
from games.services.practice import practice_start
from games.services.ratings import NOTE_PRACTICE, ratings_update_due
from tests import factories

pytestmark = pytest.mark.django_db

GAMES = [engine.name for engine in registered()]


def _start(client: Client, game: str):
    return client.post(f"/learn/{game}/practice/")


@pytest.mark.parametrize("game", GAMES)
def test_one_click_starts_a_match_against_the_greedy_bot_with_hints_on(game, ann, ann_client):
    response = _start(ann_client, game)
    match = Match.objects.get(created_by=ann)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"
    seats = list(match.seats.order_by("index"))
    assert [(s.user_id, s.bot_level, s.hints) for s in seats] == [
        (ann.pk, None, True),
        (None, BotLevel.GREEDY, False),
    ]
    assert (match.game, match.practice, match.status) == (game, True, Match.Status.ACTIVE)
    assert not match.seed_fixed and not match.public
    assert match.awaiting == [0], "the person moves first: the dealer is chosen so"
    table = ann_client.get(response["Location"]).content.decode()
    assert 'id="hints-text"' in table and "Turn hints off" in table
    assert 'class="hint-mark"' in table


@pytest.mark.parametrize("game", GAMES)
def test_the_person_moves_first_whatever_the_seed(game, ann):
    for _ in range(6):  # six random seeds, each dealt by a dealer chosen for the person
        match = practice_start(game=game, user=ann)
        assert match.awaiting == [0]
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)


def test_a_repeated_click_goes_to_the_practice_match_already_running(ann, ann_client):
    first = _start(ann_client, "faraway")
    second = _start(ann_client, "faraway")
    assert first["Location"] == second["Location"]
    assert Match.objects.filter(created_by=ann, practice=True).count() == 1
    page = ann_client.get("/learn/faraway/practice/").content.decode()
    assert 'id="practice-running"' in page
    # Another game is another practice match; a finished one makes room for a new one.
    other = _start(ann_client, "gulliver")
    assert other["Location"] != first["Location"]
    Match.objects.filter(created_by=ann, game="faraway").update(status=Match.Status.FINISHED)
    third = _start(ann_client, "faraway")
    assert third["Location"] not in (first["Location"], other["Location"])
    assert Match.objects.filter(created_by=ann, practice=True).count() == 3


def test_a_practice_match_of_someone_else_is_not_yours(ann, bea, ann_client):
    theirs = practice_start(game="faraway", user=bea)
    response = _start(ann_client, "faraway")
    assert response["Location"] != f"/matches/{theirs.pk}/"
    assert Match.objects.filter(practice=True).count() == 2


def test_signed_out_the_page_sends_to_register_and_register_comes_back_to_the_button(db):
    visitor = Client()
    page = visitor.get("/learn/gulliver/practice/")
    assert page.status_code == 200
    text = page.content.decode()
    back = "next=%2Flearn%2Fgulliver%2Fpractice%2F"
    assert f'href="/accounts/register/?{back}"' in text
    assert f'href="/accounts/login/?{back}"' in text
    assert 'id="practice-start"' not in text
    posted = visitor.post("/learn/gulliver/practice/")
    assert posted.status_code == 302
    assert posted["Location"] == f"/accounts/register/?{back}"
    assert not Match.objects.exists()
    registered_ = visitor.post(
        posted["Location"],
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
        },
    )
    assert registered_.status_code == 302, registered_.content.decode()[:800]
    assert registered_["Location"] == "/learn/gulliver/practice/"
    button = visitor.get(registered_["Location"]).content.decode()
    assert 'id="practice-start"' in button
    assert _start(visitor, "gulliver").status_code == 302
    assert Match.objects.filter(practice=True, created_by__username="newcomer").count() == 1


def test_register_goes_nowhere_but_this_site(db):
    visitor = Client()
    answer = visitor.post(
        "/accounts/register/?next=https://evil.example/",
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
        },
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/matches/"


@pytest.mark.parametrize("client_of", ["signed in", "signed out"])
def test_an_unknown_game_is_a_404(client_of, ann_client):
    client = ann_client if client_of == "signed in" else Client()
    for method in (client.get, client.post):
        assert method("/learn/chess/practice/").status_code == 404
    assert not Match.objects.exists()


def test_garbage_gets_a_clear_answer_and_makes_nothing(ann_client):
    assert ann_client.put("/learn/faraway/practice/").status_code == 405
    assert ann_client.get("/learn/faraway/practice/?x=%00%ff").status_code == 200
    assert ann_client.post("/learn/%00/practice/").status_code == 400  # a null byte (core)
    assert ann_client.post("/learn/%E2%98%83/practice/").status_code == 404
    assert ann_client.post("/learn/faraway/practice/", {"game": "gulliver"}).status_code == 302
    assert list(Match.objects.values_list("game", flat=True)) == ["faraway"]


def test_it_is_a_real_match_kept_in_history_and_never_rated(ann, ann_client):
    match = practice_start(game="faraway", user=ann)
    factories.play_random(match, random.Random(3))
    assert match.status == Match.Status.FINISHED
    ratings_update_due()
    match.refresh_from_db()
    assert (match.rating_status, match.rating_note) == (RatingStatus.UNRATED, NOTE_PRACTICE)
    factories.assert_replays(match)
    assert str(match.pk) in ann_client.get("/history/").content.decode()
    assert ann_client.get(f"/matches/{match.pk}/replay/").status_code == 200
    assert ann_client.get(f"/matches/{match.pk}/record.json").status_code == 200


def test_the_bot_replies_to_the_persons_move(ann, ann_client, django_capture_on_commit_callbacks):
    match = practice_start(game="gulliver", user=ann)
    with django_capture_on_commit_callbacks(execute=True):
        move = factories.legal_moves(match, 0)[0]
        assert factories.post_move(ann_client, match, move).status_code == 200
    match.refresh_from_db()
    assert match.ply >= 2, "the greedy bot moved after the person"
    assert match.seats.get(index=1).bot_level == BotLevel.GREEDY


@pytest.mark.django_db(transaction=True)
def test_two_clicks_at_once_make_one_practice_match(ann):
    made = factories.at_once([lambda: practice_start(game="faraway", user=ann)] * 2)
    assert made[0].pk == made[1].pk
    assert Match.objects.filter(practice=True).count() == 1
