"""The engines' refusal reasons reach a person in their own language (docs/engine-contract.md,
"Reasons"; docs/translation.md): a refused move's answer, the table's reasons on a click and a
lesson's "try again" are worded from the engine's language-free reason for the reader."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import translation

from games.engines import get_engine
from games.lessons import lesson_find, lesson_start
from games.presentation.reasons import reason_words
from tests import factories

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}
FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9,en;q=0.5"}


def _awaited_client(match, ann, bea, language: dict) -> Client:
    seat = factories.awaited_seat(match)
    client = factories.client_for([ann, bea][seat])
    client.defaults.update(language)
    return client


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (GERMAN, "Erst ziehen: Ihr Zug beginnt mit dem Ziehen."),
        (FRENCH, "Piochez d\u2019abord\u00a0: votre tour commence par la pioche."),
        ({}, "Draw first: your turn starts with the draw."),
    ],
)
def test_a_move_the_engine_refuses_is_answered_in_the_readers_language(ann, bea, language, words):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    client = _awaited_client(match, ann, bea, language)
    hand = get_engine("faraway").load(match.state).hands[match.awaiting[0]]
    before = (match.version, match.state)
    refused = factories.post_move(client, match, {"type": "discard", "card": hand[0]}, htmx=False)
    assert refused.status_code == 422
    said = re.search(r'id="move-error">([^<]*)</p>', refused.content.decode()).group(1)
    assert html.unescape(said) == words
    match.refresh_from_db()
    assert (match.version, match.state) == before


def test_the_tables_reasons_on_a_click_are_in_the_readers_language(ann, bea):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    client = _awaited_client(match, ann, bea, GERMAN)
    answer = factories.post_move(client, match, {"type": "draw", "source": "pack"})
    assert answer.status_code == 200
    pack = re.search(r'<div class="pile pack[^>]*>', answer.content.decode()).group(0)
    assert 'data-why="Sie haben in diesem Zug schon gezogen."' in pack


def test_a_lessons_try_again_gives_the_hint_and_the_engines_reason_in_german():
    client = Client(**GERMAN)
    client.get("/learn/faraway/draw/")
    step = lesson_find("faraway", "draw").steps[0]
    engine = get_engine("faraway")
    reason = engine.explain(lesson_start(lesson_find("faraway", "draw")).state, 0, step.wrong)
    with translation.override("de"):
        hint, said = translation.gettext(step.hint), reason_words(reason)
    assert hint != step.hint and said != reason_words(reason)
    response = factories.lesson_try_post(client, "faraway", "draw", step.wrong, 0, **GERMAN)
    body = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert f"{hint} {said}" in body
    assert step.hint not in body
