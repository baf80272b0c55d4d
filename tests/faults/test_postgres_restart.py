"""PostgreSQL restarted mid-match: a clear 503 page while it is down, then the very first
request succeeds and the match goes on, the worker included."""

from __future__ import annotations

from django.db import connection

from games.models import Match, Move
from games.services import match_create
from tests import factories
from tests.faults.conftest import person, visitor_for
from tests.faults.processes import wait_until

PAGE_TEXT = "Parlour is briefly unavailable"


def _play_awaited(match: Match, visitors: dict[int, object]) -> None:
    """The awaited person's first legal move over HTTP; it must be taken."""
    match.refresh_from_db()
    seat = match.awaiting[0]
    answer = visitors[seat].move(match.pk, factories.legal_moves(match, seat)[0], match.version)
    assert answer.status == 200, answer.body[:500]


def person_turn(match: Match, visitor) -> None:
    """Seat 0's whole turn over HTTP (a Faraway turn can be more than one move)."""
    match.refresh_from_db()
    assert match.awaiting == [0]
    while match.awaiting == [0]:
        _play_awaited(match, {0: visitor})
        match.refresh_from_db()


def bot_answered(match: Match, timeout: float = 30) -> None:
    """Wait until the bot (seat 1) has played its turn: seat 0 is awaited, or it is over."""

    def done() -> bool:
        match.refresh_from_db()
        return match.awaiting == [0] or match.status != Match.Status.ACTIVE

    wait_until(done, f"the bot's turn in match {match.pk}", timeout=timeout)


def test_postgres_restart_is_a_503_page_then_the_first_request_succeeds(stack):
    stack.web()
    stack.worker()
    stack.beat()
    ann, bea = person("ann"), person("bea")
    people = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    visitors = {s.index: visitor_for(stack, s.user) for s in people.seats.all()}
    with_bot = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=4
    )
    ann_alone = visitor_for(stack, ann)

    for visitor in visitors.values():
        assert visitor.table(people.pk).status == 200  # CSRF cookie, a pooled connection
    _play_awaited(people, visitors)
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
    _play_awaited(people, visitors)

    # The worker's connection was cut too: a bot still answers a person's turn.
    bot_answered(with_bot)
    person_turn(with_bot, ann_alone)
    bot_answered(with_bot)

    for match in (people, with_bot):
        factories.assert_replays(match)
