"""The lessons' pages (issue 34 items 3-5; docs/lessons.md): every lesson taken through its
try endpoint signed out and signed in, wrong, refused, stale and garbage tries, stars kept
and carried into an account, the step counters and the staff's figures page. A lesson never
makes a Match, Move, rating or notice row, and no response shows a card only another seat
holds."""

from __future__ import annotations

import datetime
import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.lessons import games, lesson_find, lessons_for
from games.models import (
    LessonProgress,
    LessonStepCount,
    Match,
    MatchNotice,
    Move,
    Rating,
    RatingChange,
    Seat,
)
from games.selectors.lessons import first_match_figures
from games.services.lessons import lesson_progress_keep, lesson_step_count
from tests import factories
from tests.factories import lesson_take, lesson_try_post

pytestmark = pytest.mark.django_db

EVERY_LESSON = [(game, lesson.slug) for game in games() for lesson in lessons_for(game)]


def no_match_rows() -> bool:
    return not any(
        model.objects.exists() for model in (Match, Seat, Move, Rating, RatingChange, MatchNotice)
    )


@pytest.mark.parametrize(("game", "slug"), EVERY_LESSON)
def test_every_lesson_is_taken_signed_out_on_its_pages_with_three_stars(game, slug):
    body = lesson_take(Client(), game, slug)
    assert 'id="lesson-end"' in body
    assert 'aria-label="3 of 3 stars"' in body
    assert f'data-lesson-finished="{game}/{slug}"' in body and 'data-lesson-keep="browser"' in body
    assert no_match_rows()
    assert not LessonProgress.objects.exists()  # signed out: the browser keeps the stars


def test_the_learn_and_home_pages_list_every_lesson_for_everyone(ann_client):
    for client in (Client(), ann_client):
        learn = client.get("/learn/").content.decode()
        for game, slug in EVERY_LESSON:
            assert f'href="/learn/{game}/{slug}/"' in learn
        home = client.get("/").content.decode()
        assert "Learn to play" in home and "0 of 7 lessons" in home
    rules = Client().get("/rules/faraway/").content.decode()
    assert 'href="/learn/#learn-faraway"' in rules


@pytest.mark.parametrize("game", games())
def test_a_games_last_lesson_ends_one_click_from_the_first_match_with_hints(game, ann, ann_client):
    """Signed in, the last lesson's end posts straight to the practice match (docs/lessons.md,
    "The first match, with hints"), and that one click seats the learner at it; signed out, it
    links to the practice page, which says why a match needs an account. The Learn page links
    each game's practice page."""
    last = lessons_for(game)[-1]
    end = lesson_take(ann_client, game, last.slug)
    form = f'<form method="post" action="/learn/{game}/practice/">'
    assert 'id="practice-slot"' in end and form in end
    started = ann_client.post(f"/learn/{game}/practice/")
    match = Match.objects.get(practice=True)
    assert started.status_code == 302 and started["Location"] == f"/matches/{match.pk}/"
    assert Seat.objects.get(match=match, user=ann).hints
    visitor_end = lesson_take(Client(), game, last.slug)
    assert f'href="/learn/{game}/practice/" id="real-match"' in visitor_end
    assert form not in visitor_end
    learn = Client().get("/learn/").content.decode()
    assert f'href="/learn/{game}/practice/"' in learn


def test_the_learner_is_you_in_the_second_person():
    page = Client().get("/learn/faraway/draw/").content.decode()
    assert "You were dealt" in page and "You was" not in page and "You (you)" not in page


def test_a_signed_in_finish_is_kept_best_first_and_shown_on_the_learn_page(ann, ann_client):
    lesson_take(ann_client, "faraway", "draw")
    assert LessonProgress.objects.get(user=ann, lesson="draw").stars == 3
    # Again, with three refused tries first (laying the 1 before drawing): one star earned
    # (three over the target of five), three kept.
    ann_client.post("/learn/faraway/draw/try/", {"again": "1"})
    moves = factories.lesson_moves(lesson_find("faraway", "draw"))
    for _ in range(3):
        lesson_try_post(ann_client, "faraway", "draw", moves[1], 0)
    body = take_lesson_from(ann_client, "faraway", "draw", start=0)
    assert 'aria-label="1 of 3 stars"' in body
    assert LessonProgress.objects.get(user=ann, lesson="draw").stars == 3
    learn = ann_client.get("/learn/").content.decode()
    assert 'aria-label="3 of 3 stars"' in learn and "1 of 7 lessons" in learn
    assert "1 of 7 lessons" in ann_client.get("/").content.decode()


def take_lesson_from(client: Client, game: str, slug: str, *, start: int) -> str:
    body = ""
    for version, move in enumerate(factories.lesson_moves(lesson_find(game, slug))):
        if version >= start:
            body = lesson_try_post(client, game, slug, move, version).content.decode()
    return body


def test_a_wrong_try_says_try_again_with_the_hint_and_costs_a_star():
    client = Client()
    lesson = lesson_find("faraway", "climb")
    client.get("/learn/faraway/climb/")
    moves = factories.lesson_moves(lesson)
    for version in (0, 1):
        assert (
            lesson_try_post(client, "faraway", "climb", moves[version], version).status_code == 200
        )
    # Step 3 wants the 8 thrown away; throwing the 2 is legal, but not this step's move.
    response = lesson_try_post(client, "faraway", "climb", {"type": "discard", "card": "2"}, 2)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Try again." in body and lesson.steps[2].hint in body
    assert 'id="lesson-step">Step 3 of 5' in body  # still at step 3
    body = take_lesson_from(client, "faraway", "climb", start=2)
    assert 'aria-label="2 of 3 stars"' in body and "6 moves, the target 5" in body


def test_a_refused_try_gives_the_hint_and_the_engines_reason_in_a_learners_words():
    client = Client()
    client.get("/learn/faraway/draw/")
    step = lesson_find("faraway", "draw").steps[0]
    body = lesson_try_post(client, "faraway", "draw", step.wrong, 0).content.decode()
    assert "Try again." in body and step.hint in body
    assert len(body.split(step.hint, 1)[1].split("</p>", 1)[0].strip()) > 5  # the reason


def test_the_challenge_vote_steps_refusal_is_worded_for_a_learner():
    client = Client()
    lesson = lesson_find("gulliver", "challenges")
    client.get("/learn/gulliver/challenges/")
    lesson_try_post(client, "gulliver", "challenges", factories.lesson_moves(lesson)[0], 0)
    body = lesson_try_post(
        client, "gulliver", "challenges", {"type": "challenge"}, 1
    ).content.decode()
    assert "Try again." in body and lesson.steps[1].hint in body
    assert "seat(s)" not in body
    assert "waiting for you and Jo to vote" in body
    assert "You challenge Jo" in body and "You challenges" not in body


@pytest.mark.parametrize(
    ("move", "version", "status"),
    [
        ("not json", 0, 400),
        ("[1, 2]", 0, 400),
        ('{"type": "draw", "source": "pack"}', "x", 400),
        ('{"type": [[[[1]]]]}', 0, 400),
        ('{"type": "fly", "to": "the moon"}', 0, 200),  # an engine refusal: a try again
        ('{"type": "draw", "source": "pack"}', 3, 409),  # a page a step behind (or ahead)
    ],
)
def test_garbage_and_stale_tries_are_clear_answers_that_change_nothing(move, version, status):
    client = Client()
    client.get("/learn/faraway/draw/")
    counts = list(LessonStepCount.objects.values_list("step", "started", "finished"))
    response = lesson_try_post(client, "faraway", "draw", move, version)
    assert response.status_code == status
    assert list(LessonStepCount.objects.values_list("step", "started", "finished")) == counts
    # The run is where it was: its first move still goes through at step 1.
    first = factories.lesson_moves(lesson_find("faraway", "draw"))[0]
    after = lesson_try_post(client, "faraway", "draw", first, 0)
    assert after.status_code == 200 and "Step 2 of 5" in after.content.decode()


def test_a_lesson_the_session_forgot_starts_again_and_an_unknown_one_is_404():
    first = factories.lesson_moves(lesson_find("gulliver", "start"))[0]
    assert lesson_try_post(Client(), "gulliver", "start", first, 0).status_code == 200
    assert lesson_try_post(Client(), "gulliver", "start", first, 1).status_code == 409
    assert Client().get("/learn/gulliver/nothing/").status_code == 404
    assert Client().get("/learn/chess/start/").status_code == 404
    assert Client().get("/learn/gulliver/start/try/").status_code == 405


def test_stars_earned_signed_out_are_carried_into_a_new_account_and_on_sign_in():
    carried = json.dumps({"faraway/draw": 2, "gulliver/start": 3, "faraway/nope": 3, "x": "y"})
    response = Client().post(
        "/accounts/register/",
        {
            "username": "dot",
            "email": "dot@example.org",
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
            "lesson_progress": carried,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    dot = get_user_model().objects.get(username="dot")
    kept = dict(LessonProgress.objects.filter(user=dot).values_list("lesson", "stars"))
    assert kept == {"draw": 2, "start": 3}
    # Signing in from another browser: better stars raise, worse ones never lower.
    Client().post(
        "/accounts/login/",
        {
            "username": "dot",
            "password": factories.PASSWORD,
            "lesson_progress": json.dumps({"faraway/draw": 3, "gulliver/start": 1}),
        },
    )
    kept = dict(LessonProgress.objects.filter(user=dot).values_list("lesson", "stars"))
    assert kept == {"draw": 3, "start": 3}
    # Garbage carried is ignored, the sign-in goes on.
    for garbage in ("{", "[1]", "9" * 5000, json.dumps({"faraway/climb": 7})):
        login = Client().post(
            "/accounts/login/",
            {"username": "dot", "password": factories.PASSWORD, "lesson_progress": garbage},
        )
        assert login.status_code == 302
    assert LessonProgress.objects.filter(user=dot).count() == 2


def test_each_step_counts_its_starts_and_finishes_without_anyone_in_them():
    for _ in range(2):
        lesson_take(Client(), "gulliver", "challenges")
    Client().get("/learn/gulliver/challenges/")  # a third run, started and left
    rows = {
        row.step: (row.started, row.finished)
        for row in LessonStepCount.objects.filter(game="gulliver", lesson="challenges")
    }
    assert rows == {0: (3, 2), 1: (2, 2), 2: (2, 2)}
    fields = {f.name for f in LessonStepCount._meta.get_fields()}
    assert fields == {"id", "game", "lesson", "step", "started", "finished"}


def test_the_figures_page_is_for_staff_alone(ann_client):
    lesson_take(Client(), "faraway", "winning")
    staff = factories.client_for(factories.staff_make("sam"))
    page = staff.get("/staff/figures/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "<td>Winning</td><td>1</td><td>1</td><td>1</td><td>100%</td>" in body
    assert ann_client.get("/staff/figures/").status_code == 404
    assert Client().get("/staff/figures/").status_code == 404


def test_the_first_match_figures_count_new_accounts_that_finished_one(ann, bea, cal):
    finished = factories.match_make(players=[ann, bea], seed=11)
    factories.play_random(finished, random.Random(3))
    factories.match_make(players=[cal, bea], seed=12)  # in play: not finished
    old = factories.user_make("old")
    get_user_model().objects.filter(pk=old.pk).update(
        date_joined=timezone.now() - datetime.timedelta(weeks=20)
    )
    weeks = first_match_figures()
    assert len(weeks) == 8
    this_week = weeks[-1]
    assert (this_week.joined, this_week.played) == (3, 2)
    assert sum(week.joined for week in weeks) == 3


@pytest.mark.django_db(transaction=True)
def test_counts_made_at_once_are_all_kept():
    """Eight runs reaching one step at the same moment (the first of them making its row):
    eight counts, none lost; and eight finishes of one lesson at once keep one best row."""
    ann = factories.user_make("ann")

    def count() -> None:
        lesson_step_count(game="faraway", lesson="draw", step=0, counter="started")

    def finish(stars: int):
        return lambda: lesson_progress_keep(
            user_id=ann.pk, game="faraway", lesson="draw", stars=stars
        )

    factories.at_once([count] * 8)
    factories.at_once([finish(1 + i % 3) for i in range(8)])
    assert LessonStepCount.objects.get(game="faraway", lesson="draw", step=0).started == 8
    assert LessonProgress.objects.get(user=ann).stars == 3
