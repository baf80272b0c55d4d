"""PostgreSQL restarted mid-match: a clear 503 page while it is down, then the very first
request succeeds and the match goes on, the worker included."""

from __future__ import annotations

from django.db import connection

from games.models import Move
from tests import factories
from tests.faults.play import bot_answered, person_turn, play_awaited, two_matches_served

PAGE_TEXT = "Parlour is briefly unavailable"


def test_postgres_restart_is_a_503_page_then_the_first_request_succeeds(stack):
    people, visitors, with_bot, ann_alone = two_matches_served(stack)

    for visitor in visitors.values():
        assert visitor.table(people.pk).status == 200  # CSRF cookie, a pooled connection
    play_awaited(people, visitors)
    people.refresh_from_db()
    before = (people.version, Move.objects.filter(match=people).count())
    seat = people.awaiting[0]
    move = factories.legal_moves(people, seat)[0]
    connection.close()  # the test's own connection goes down with the server

    stack.postgres.stop()
    try:
        page = visitors[seat].table(people.pk)
        posted = visitors[seat].move(people.pk, move, before[0])
        plain = visitors[seat].request("GET", "/matches/")
    finally:
        stack.postgres.start()

    for answer in (page, posted, plain):
        assert answer.status == 503, answer.body[:500]
        assert answer.headers.get("Retry-After") == "5"
        assert "Traceback" not in answer.body
    assert PAGE_TEXT in page.body and PAGE_TEXT in plain.body
    assert "nothing was changed" in posted.body  # the htmx fragment, not a whole page
    assert "<html" not in posted.body

    # The very first request after the restart, on connections the restart cut: 200.
    first = visitors[seat].table(people.pk)
    assert first.status == 200, first.body[:500]
    people.refresh_from_db()
    assert (people.version, Move.objects.filter(match=people).count()) == before
    answer = visitors[seat].move(people.pk, move, before[0])
    assert answer.status == 200, answer.body[:500]
    play_awaited(people, visitors)

    # The worker's connection was cut too: a bot still answers a person's turn.
    bot_answered(with_bot)
    person_turn(with_bot, ann_alone)
    bot_answered(with_bot)

    for match in (people, with_bot):
        factories.assert_replays(match)
