"""One registry of games (``games.engines``): the models, the forms, the bots, the presentation
and the templates all offer exactly the games it names, under the titles it gives."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.template.loader import get_template
from django.utils import timezone

from games import bots, presentation, queue, tasks
from games.engines import ENGINE_NAMES, GAME_TITLES, get_engine, records, registered
from games.forms import MatchNewForm
from games.models import Match, Move
from games.services import match_create, match_join, move_submit
from tests import third_game as third_game_module


def test_the_match_model_offers_exactly_the_registered_games_and_titles():
    assert dict(Match.Game.choices) == GAME_TITLES
    assert tuple(GAME_TITLES) == ENGINE_NAMES
    assert all(get_engine(name).title == title for name, title in GAME_TITLES.items())


def test_the_new_match_form_offers_the_registered_games():
    assert dict(MatchNewForm().fields["game"].choices) == GAME_TITLES


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_every_registered_game_has_bots_a_presentation_and_templates(game):
    assert set(presentation.BUILDERS) == set(bots.GAME_BOTS) == set(bots.KNOWLEDGE)
    assert set(bots.GAME_BOTS) == set(ENGINE_NAMES)
    engine = get_engine(game)
    state = engine.new_game(engine.min_players, 1, {})
    seat = engine.awaiting(state)[0]
    view = engine.view(state, seat)
    for level in bots.LEVELS:
        move = bots.choose_move(game, level, view, seed=1, budget=bots.Budget(iterations=2))
        assert move in engine.legal_moves(state, seat)
    names = [f"p{i}" for i in range(engine.min_players)]
    table = presentation.table_build(game, view=view, names=names, log=[])
    get_template(table["board_template"])  # raises if the game's board template is missing


HTMX = {"HX-Request": "true"}


@pytest.fixture
def third_game(settings, tmp_path):
    """The test-only game "Last Token" in every registry, with a rules page of its own."""
    (tmp_path / f"{third_game_module.NAME}.md").write_text("# Last Token\n\nTake one or two.\n")
    for shipped in ENGINE_NAMES:
        (tmp_path / f"{shipped}.md").write_text(f"# {shipped}\n")
    settings.PARLOUR_RULES_DIR = tmp_path
    with third_game_module.registered_third_game() as engine:
        yield engine


def test_a_third_game_plugs_into_every_page(
    third_game, ann, bea, ann_client, bea_client, cal_client
):
    """Adding a game is registering its engine and its presentation: no page, form, selector,
    service or template names a game (docs/architecture.md, "Adding a game")."""
    name = third_game.name
    home = ann_client.get("/").content.decode()
    assert third_game.title in home and third_game.summary in home
    assert f'href="/rules/{name}/"' in home  # the navigation and the home page's card
    assert "Take one or two." in ann_client.get(f"/rules/{name}/").content.decode()
    form = ann_client.get("/matches/new/").content.decode()
    assert f'value="{name}"' in form and "Tokens in the pile" in form

    made = ann_client.post(
        "/matches/new/",
        {"game": name, "num_players": 2, "pile": 5, "seat_0": "me", "seat_1": "person"},
    )
    assert made.status_code == 302, made.content.decode()
    match = Match.objects.get(game=name)
    assert match.options == {"pile": 5}
    invite = f"/matches/join/{match.invite_token}/"
    assert bea_client.get(invite).status_code == 200
    assert bea_client.post(invite).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE

    table = f"/matches/{match.pk}/"
    clients = {0: ann_client, 1: bea_client}
    assert "The pile holds 5 tokens." in ann_client.get(table).content.decode()
    assert cal_client.get(table).status_code == 200  # a spectator of a public match
    assert ann_client.get(f"{table}table/?version=0", headers=HTMX).status_code == 200
    while match.status == Match.Status.ACTIVE:
        seat = match.awaiting[0]
        move = '{"count":1,"type":"take"}'
        answer = clients[seat].post(
            f"{table}move/", {"move": move, "version": match.version}, headers=HTMX
        )
        assert answer.status_code == 200, answer.content.decode()
        match.refresh_from_db()
    assert match.ply == 5 and match.status == Match.Status.FINISHED
    finished = ann_client.get(table).content.decode()
    assert "ann won." in finished  # five single takes: the first seat takes the last

    replay = f"/matches/{match.pk}/replay/"
    for query in ({}, {"ply": 0}, {"ply": 3, "as": "all"}, {"ply": 2, "as": "1"}):
        assert ann_client.get(replay, query).status_code == 200, query
        assert ann_client.get(replay, query, headers=HTMX).status_code == 200, query
    assert "bea took 1." in ann_client.get(replay).content.decode()
    assert ann_client.get(f"/matches/{match.pk}/analysis/", headers=HTMX).status_code == 200
    record = ann_client.get(f"/matches/{match.pk}/record.json").json()
    assert record["game"] == name and len(record["entries"]) == 5
    assert records.record_verify(record).ok  # the verifier replays it from the registry too

    history = ann_client.get("/history/", {"game": name}).content.decode()
    assert f'data-match-id="{match.pk}"' in history and third_game.title in history
    assert ann_client.get("/matches/").status_code == 200
    profile = ann_client.get("/players/bea/")
    assert profile.status_code == 200 and third_game.score_help in profile.content.decode()
    assert ann_client.get(f"/leaderboard/{name}/").status_code == 200


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_every_registered_game_says_what_its_score_counts(game):
    assert get_engine(game).score_help.strip()


def test_a_third_game_can_be_resigned_and_its_record_verifies(
    third_game, ann, bea, cal, ann_client, bea_client
):
    """Resigning names no game (docs/leaving.md): the third game's table offers it, the greedy
    bot plays the resigned seat of a three-seat match, the second resignation ends it, and the
    record verifies through the registry."""
    match = match_create(
        game=third_game.name, num_players=3, created_by=ann, options={"pile": 9}, public=True
    )
    for user in (bea, cal):
        match_join(match=match, user=user)
    table = f"/matches/{match.pk}/"
    assert 'id="resign-link"' in bea_client.get(table).content.decode()
    confirm = bea_client.get(f"{table}resign/").content.decode()
    assert "the greedy bot plays your seat" in confirm
    assert bea_client.post(f"{table}resign/", {"confirm": "yes"}).status_code == 302
    assert "bea resigned; the greedy bot plays that seat." in (
        ann_client.get(table).content.decode()
    )
    assert ann_client.post(f"{table}resign/", {"confirm": "yes"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    ranks = {s.index: (s.result, s.rank) for s in match.seats.all()}
    assert ranks == {2: ("won", 1), 0: ("lost", 2), 1: ("lost", 3)}
    record = ann_client.get(f"{table}record.json").json()
    assert records.record_verify(record).ok


def test_a_third_games_vote_closes_at_its_deadline_with_the_silent_seats_ballot(
    third_game, ann, bea, ann_client, bea_client
):
    """The vote path names no game (docs/engine-contract.md, "Votes"): Last Token's tally is
    open for its one voter, its deadline runs a day without a turn deadline, and the deadline
    sweep casts the ballot the engine says a silent seat casts."""
    match = match_create(
        game=third_game.name, num_players=2, created_by=ann, options={"pile": 7, "tally": 1}
    )
    match_join(match=match, user=bea)
    match.refresh_from_db()
    seats = {s.index: s for s in match.seats.select_related("user")}
    taker = seats[match.awaiting[0]]
    move_submit(
        match=match, seat=taker, move={"type": "take", "count": 1}, expected_version=match.version
    )
    match.refresh_from_db()
    voter = seats[match.awaiting[0]]
    assert voter.index != taker.index
    assert match.deadline_at is not None and match.deadline_at > timezone.now() + timedelta(
        hours=23
    )
    clients = {ann.pk: ann_client, bea.pk: bea_client}
    table = clients[voter.user_id].get(f"/matches/{match.pk}/").content.decode()
    assert "Agree" in table and "Disagree" in table

    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert tasks.enforce_deadlines.apply(throw=True).get() == 1  # the ballot; no turn deadline
    match.refresh_from_db()
    closed = Move.objects.get(match=match, auto=Move.Auto.VOTE_CLOSED)
    assert (closed.seat, closed.payload) == (voter.index, {"type": "tally", "agree": True})
    assert match.awaiting == [voter.index] and match.deadline_at is None  # their own turn now
    page = clients[taker.user_id].get(f"/matches/{match.pk}/").content.decode()
    assert f"{voter.user.username} agreed to the count." in page


def test_bots_hold_back_after_a_third_games_disputable_move(
    third_game, ann, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A bot answering a person's move the engine calls disputable (a tallied take) is sent
    after the window; its own moves, and a take no tally follows, are answered at once."""
    settings.PARLOUR_BOT_WINDOW = 5
    sent: list[tuple[str, float | None]] = []
    send = queue.enqueue

    def spy(name, *args, countdown=None, **kwargs):
        sent.append((name, countdown))
        return send(name, *args, countdown=countdown, **kwargs)

    monkeypatch.setattr(queue, "enqueue", spy)
    for tally, windows in ((1, [5.0, 0.0]), (None, [0.0])):
        options = {"pile": 9} if tally is None else {"pile": 9, "tally": tally}
        match = match_create(
            game=third_game.name, num_players=2, created_by=ann, options=options, bots={1: "greedy"}
        )
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE and match.awaiting == [0]
        sent.clear()
        seat = match.seats.get(index=0)
        with django_capture_on_commit_callbacks(execute=True):
            move_submit(
                match=match,
                seat=seat,
                move={"type": "take", "count": 1},
                expected_version=match.version,
            )
        bot_turns = [countdown for name, countdown in sent if name == queue.BOT_TURN]
        assert bot_turns == windows, tally
        match.refresh_from_db()
        assert match.awaiting == [0]  # the bot tallied (agreeing) and took its turn
        bot_moves = Move.objects.filter(match=match, seat=1).order_by("ply")
        expected = [{"type": "take", "count": 2}]
        if tally:
            expected.insert(0, {"type": "tally", "agree": True})
        assert [m.payload for m in bot_moves] == expected


def test_the_games_option_names_are_distinct():
    """The new-match form puts every game's options side by side under their own names."""
    names = [o.name for e in registered() for o in e.options]
    assert len(names) == len(set(names))
