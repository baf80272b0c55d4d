"""Test data made through the real services (no mocks): users, matches, table HTML helpers."""

from __future__ import annotations

import html
import json
import random
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from games.engines import get_engine, records, replay
from games.engines.base import seeded_rng
from games.engines.resignation import is_resignation, resigned_order, resigned_standings
from games.models import Match, Move
from games.services import match_create, match_join, match_next_round, move_submit

PASSWORD = "tea-with-moon-face-42"


def user_make(username: str, *, email: str = "", password: str = PASSWORD):
    User = get_user_model()
    user = User.objects.create_user(username=username, email=email or f"{username}@example.com")
    user.set_password(password)
    user.save()
    return user


def staff_make(username: str):
    """A superuser (staff, every permission), password ``PASSWORD``: the admin's reader."""
    user = user_make(username)
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def client_for(user) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def match_make(
    *,
    game: str = "faraway",
    players: list[Any],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    seats: int | None = None,
    public: bool = True,
) -> Match:
    """A match created by ``players[0]`` and joined by the rest, in order (started when full).

    ``seed`` fixes the deal. Public by default, as the new-match form offers it.
    """
    match = match_create(
        game=game,
        num_players=seats or len(players),
        created_by=players[0],
        options=options,
        seed=seed,
        public=public,
    )
    for user in players[1:]:
        match_join(match=match, user=user)
    match.refresh_from_db()
    return match


def watched_match_make(creator: Any, *, public: bool) -> Match:
    """A Gulliver match of two bots, ``creator`` only watching it (a member all the same)."""
    return match_create(
        game="gulliver",
        num_players=2,
        created_by=creator,
        bots={0: "random", 1: "greedy"},
        creator_plays=False,
        public=public,
    )


def dealer_for(seed: int, num_players: int) -> int:
    """The dealer ``match_start`` will draw for this seed (the site's rule, restated)."""
    return seeded_rng(seed, "dealer").randrange(num_players)


def awaited_seat(match: Match) -> int:
    match.refresh_from_db()
    return match.awaiting[0]


def offered_moves(page: str) -> list[dict[str, Any]]:
    """The moves a table page offers as buttons (``data-move``), decoded."""
    return [json.loads(html.unescape(m)) for m in re.findall(r'data-move="([^"]+)"', page)]


def move_key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def legal_moves(match: Match, seat: int) -> list[dict[str, Any]]:
    engine = get_engine(match.game)
    return engine.legal_moves(engine.load(match.state), seat)


def post_move(
    client: Client,
    match: Match,
    move: dict[str, Any],
    *,
    version: int | None = None,
    htmx: bool = True,
):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        f"/matches/{match.pk}/move/",
        {"move": json.dumps(move), "version": match.version if version is None else version},
        headers=headers,
    )


@dataclass(frozen=True)
class LogItem:
    """One line of a table's log as a page carries it (``li[data-line]``)."""

    key: str
    text: str
    own: bool  # the reader's own act (data-own): not told as news (static/js/announce.js)
    said: bool  # a phrase (class "said")


LOG_ITEM = re.compile(r'<li( class="said")? data-line="([^"]*)"( data-own)?>(.*?)</li>', flags=re.S)


def log_items(page: str) -> list[LogItem]:
    """The log's lines in ``page`` (a whole page, a partial, a move's answer), as it lists
    them: newest first."""
    log = page[page.index('id="event-log"') :] if 'id="event-log"' in page else page
    return [
        LogItem(key=key, text=html.unescape(text.strip()), own=bool(own), said=bool(said))
        for said, key, own, text in LOG_ITEM.findall(log)
    ]


def normalise_table_html(page: str) -> str:
    """Table HTML without what differs between two matches by construction (ids, tokens, the
    seed commitment: random salt, so it differs even for one seed)."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", page)
    page = re.sub(r'"X-CSRFToken": "[^"]+"', "csrf", page)
    page = re.sub(r"/matches/\d+/", "/matches/N/", page)
    page = re.sub(r"/live/\?match=\d+", "/live/?match=N", page)
    page = re.sub(r"#\d+", "#N", page)
    page = re.sub(r"\?after=\d+", "?after=N", page)  # the next table's link (next_table.js)
    page = re.sub(r'(id="commitment-(?:short|full)">)[0-9a-f]+', r"\1C", page)
    return page


def assert_replays(match: Match) -> Any:
    """The stored log replays through the one fold to every stored link of the hash chain, the
    snapshot, every replay checkpoint, the round count, the seed commitment and, once over, the
    result columns; returns the final state."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    rows = list(Move.objects.filter(match=match).order_by("ply"))
    assert [r.ply for r in rows] == list(range(1, match.ply + 1))
    entries = [(r.seat, r.payload) for r in rows]
    args = (engine, match.num_players, match.seed, match.options)
    assert replay.verify(*args, entries, [r.chain_hash for r in rows]) is None
    assert match.head_hash == (rows[-1].chain_hash if rows else replay.start_hash(*args))
    state = engine.new_game(match.num_players, match.seed, match.options)
    for state, row in zip(replay.frames(*args, entries), rows, strict=True):
        if is_resignation(row.seat, row.payload):  # the site's entry: its own event
            assert [(e["type"], e["seat"]) for e in row.events] == [("resign", row.seat)]
        else:
            assert engine.events(state) == row.events
        due = row.ply % Move.CHECKPOINT_EVERY == 0
        assert row.checkpoint == (engine.dump(state) if due else None)
    assert match.rounds == 1 + sum(1 for r in rows if r.seat is None)
    assert match.commitment == records.seed_commitment(match.salt, match.seed)
    assert engine.dump(state) == match.state
    seats = list(match.seats.all())
    resigned = resigned_order({s.index: s.resigned_ply for s in seats})
    assert resigned == [r.seat for r in rows if is_resignation(r.seat, r.payload)]
    if match.status == Match.Status.FINISHED:
        over = engine.is_over(state)
        assert over or resigned  # only resignations end a match before its game
        table = resigned_standings(
            engine.outcome(state), match.num_players, resigned, game_over=over
        )
        for seat in seats:
            got = (seat.result, seat.score, seat.rank, seat.awaited_since)
            want = table[seat.index]
            assert got == (want.result, want.score, want.rank, None)
    return state


def play_random(
    match: Match,
    rng: random.Random,
    *,
    plies: int | None = None,
    after_each: Callable[[Match], None] | None = None,
) -> Match:
    """Play ``match`` (people at every seat) through the services with random legal moves,
    ``plies`` entries or to the end; Gulliver's next deal is logged as the server would.
    ``after_each`` sees the match after every entry (and after the deal, at ply 0)."""
    engine = get_engine(match.game)
    seats = {s.index: s for s in match.seats.all()}
    match.refresh_from_db()
    if after_each is not None:
        after_each(match)
    while match.status == Match.Status.ACTIVE and (plies is None or match.ply < plies):
        state = engine.load(match.state)
        if engine.round_over(state):
            match_next_round(match=match, expected_version=match.version)
        else:
            seat = engine.awaiting(state)[0]
            move = rng.choice(engine.legal_moves(state, seat))
            move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)
        if after_each is not None:
            after_each(match)
    return match


def at_once(jobs: list[Callable[[], Any]], *, timeout: float = 60.0) -> list[Any]:
    """A race: each job in a thread of its own, all released together by one barrier; their
    results in the jobs' order. The first exception a job raised is raised here. Each thread
    closes its database connection, so the test database can be flushed afterwards."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(index: int, job: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = job()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    if errors:
        raise errors[0]
    return results


def lesson_moves(lesson: Any) -> list[dict[str, Any]]:
    """A perfect run of ``lesson``: each step's wanted move (a ``kind`` step's first legal move
    of its kind), as the learner makes them."""
    from games.lessons import lesson_start, lesson_try

    engine = get_engine(lesson.game)
    run, made = lesson_start(lesson), []
    for step in lesson.steps:
        legal = engine.legal_moves(run.state, 0)
        move = step.move or next(m for m in legal if m.get("type") == step.kind)
        made.append(move)
        run = lesson_try(run, move).run
    return made


def lesson_hidden_cards(run: Any) -> set[str]:
    """The cards the other seats of a lesson's ``run`` hold that the learner's view shows
    nowhere: what no page of the lesson may show at that point."""
    from games.lessons import lesson_view

    engine = get_engine(run.lesson.game)
    seen = json.dumps(lesson_view(run))
    return {
        card
        for seat in range(1, run.lesson.num_players)
        for card in engine.view(run.state, seat).get("hand") or []
        if f'"{card}"' not in seen
    }


LESSON_CARD = re.compile(r'data-card="([^"]+)"')


def lesson_try_post(client: Client, game: str, slug: str, move: object, version: int, **extra):
    data = {"move": move if isinstance(move, str) else json.dumps(move), "version": str(version)}
    return client.post(f"/learn/{game}/{slug}/try/", data, HTTP_HX_REQUEST="true", **extra)


def lesson_take(client: Client, game: str, slug: str) -> str:
    """A perfect run of a lesson through its pages; the last answer's HTML. Every answer is
    held to show no card the learner may not see at that point."""
    from games.lessons import lesson_find, lesson_start, lesson_try

    lesson = lesson_find(game, slug)
    page = client.get(f"/learn/{game}/{slug}/")
    assert page.status_code == 200
    run = lesson_start(lesson)
    assert not set(LESSON_CARD.findall(page.content.decode())) & lesson_hidden_cards(run)
    body = ""
    for version, move in enumerate(lesson_moves(lesson)):
        response = lesson_try_post(client, game, slug, move, version)
        body = response.content.decode()
        assert response.status_code == 200, body[:400]
        run = lesson_try(run, move).run
        assert not set(LESSON_CARD.findall(body)) & lesson_hidden_cards(run), slug
    return body
