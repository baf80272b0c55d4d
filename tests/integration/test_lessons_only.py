"""A lesson's chosen pack order never reaches a real match (issue 34 item 1): the new-match
form takes no pack order, whatever is posted, so the match is dealt from its own seed."""

from __future__ import annotations

import pytest

from games.engines import get_engine
from games.lessons import games, lessons_for
from games.lessons.base import LEARNER, deal_order, lesson_start, lesson_try
from games.models import Match

pytestmark = pytest.mark.django_db


def test_the_new_match_form_ignores_a_posted_pack_order(ann, ann_client):
    engine = get_engine("faraway")
    lesson = lessons_for("faraway")[0]
    pack = deal_order(engine, lesson.hands, 1, lesson.then)
    fields = {"game": "faraway", "num_players": "2", "deadline_days": "3", "seat_1": "greedy"}
    posted = {**fields, "deck": pack, "pack": pack, "lesson": lesson.slug}
    response = ann_client.post("/matches/new/", posted)
    assert response.status_code in (200, 302)
    match = Match.objects.get()
    assert "deck" not in match.options and "pack" not in match.options
    assert set(match.options) <= {"dealer"}
    assert isinstance(match.seed, int) and not match.seed_fixed
    dealt = engine.new_game(2, match.seed, match.options)
    lesson_deal = engine.new_game_from_pack(2, pack, {"dealer": match.options.get("dealer", 0)})
    assert engine.view(dealt, None)["hand_counts"] == [6, 6]
    assert engine.dump(dealt)["seed"] == match.seed != engine.dump(lesson_deal)["seed"]


def test_playing_every_lesson_through_asks_nothing_of_the_database(django_assert_num_queries):
    """No Match row, move, rating, history, record or notice: a lesson runs on the engine
    alone, every step's wrong try and wanted move included."""
    with django_assert_num_queries(0):
        for game in games():
            engine = get_engine(game)
            for lesson in lessons_for(game):
                run = lesson_start(lesson)
                while not run.finished:
                    step = lesson.steps[run.step]
                    assert not lesson_try(run, step.wrong).ok
                    legal = engine.legal_moves(run.state, LEARNER)
                    move = step.move or next(m for m in legal if m["type"] == step.kind)
                    run = lesson_try(run, move).run


def test_a_lesson_taken_on_its_pages_writes_no_row_but_its_own(ann, ann_client):
    """Signed in, through the pages, a wrong try included: of every games table, only the
    lessons' own (the person's stars, the step counters) gain rows."""
    from django.apps import apps

    from tests import factories

    models = list(apps.get_app_config("games").get_models())
    before = {model: model.objects.count() for model in models}
    lesson = lessons_for("gulliver")[-1]
    ann_client.get(f"/learn/gulliver/{lesson.slug}/")
    factories.lesson_try_post(ann_client, "gulliver", lesson.slug, lesson.steps[0].wrong, 0)
    factories.lesson_take(ann_client, "gulliver", lesson.slug)
    grown = {m.__name__ for m in models if m.objects.count() != before[m]}
    assert grown == {"LessonProgress", "LessonStepCount"}
