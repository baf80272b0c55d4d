"""What the fault tests do on a served stack: two matches, turns played over HTTP, waiting for
a bot (tests/faults/conftest.py starts the processes)."""

from __future__ import annotations

from games.models import Match, Move
from games.services import match_create
from tests import factories
from tests.faults.conftest import Stack, person, visitor_for
from tests.polling import wait_for
from tests.stack.http import Answer, Browser

# Seconds: during an outage (Redis down), each move is answered within the slowest normal move
# measured in the same test plus this (the bound).
MARGIN = 0.5


def two_matches_served(stack: Stack) -> tuple[Match, dict[int, Browser], Match, Browser]:
    """Web, worker and beat started; a Faraway match between two people (and their signed-in
    visitors by seat) and one between the first of them and a greedy bot (and her visitor)."""
    stack.web()
    stack.worker()
    stack.beat()
    ann, bea = person("ann"), person("bea")
    people = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    visitors = {s.index: visitor_for(stack, s.user) for s in people.seats.all()}
    with_bot = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=4
    )
    return people, visitors, with_bot, visitor_for(stack, ann)


def play_awaited(match: Match, visitors: dict[int, Browser]) -> Answer:
    """The awaited person's first legal move over HTTP; it must be taken (answered 200, one
    more move in the log). Its answer."""
    match.refresh_from_db()
    seat = match.awaiting[0]
    before = Move.objects.filter(match=match).count()
    answer = visitors[seat].move(match.pk, factories.legal_moves(match, seat)[0], match.version)
    assert answer.status == 200, answer.body[:500]
    assert Move.objects.filter(match=match).count() == before + 1
    return answer


def timed_moves(match: Match, visitors: dict[int, Browser], count: int) -> list[float]:
    """``count`` moves by whoever is awaited, each taken; the seconds each took over HTTP."""
    return [play_awaited(match, visitors).seconds for _ in range(count)]


def person_turn(match: Match, visitor) -> None:
    """Seat 0's whole turn over HTTP (a Faraway turn can be more than one move)."""
    match.refresh_from_db()
    assert match.awaiting == [0]
    while match.awaiting == [0]:
        play_awaited(match, {0: visitor})
        match.refresh_from_db()


def bot_answered(match: Match, timeout: float = 30) -> None:
    """Wait until the bot (seat 1) has played its turn: seat 0 is awaited, or it is over."""

    def done() -> bool:
        match.refresh_from_db()
        return match.awaiting == [0] or match.status != Match.Status.ACTIVE

    wait_for(done, f"the bot's turn in match {match.pk}", timeout=timeout)
