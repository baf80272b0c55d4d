"""Match records through the site: ``/matches/<id>/record.json``, ``verify_record`` and the
commitment on the table (docs/records.md)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.engines import get_engine, records, replay
from games.models import Match, Move
from games.services import match_create
from tests import factories
from tests.integration.test_table import _faraway_decks

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _get(client, match: Match, query: str = ""):
    return client.get(f"/matches/{match.pk}/record.json{query}")


def _record(client, match: Match) -> dict:
    response = _get(client, match)
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content)


def _played_out(user, on_commit, *, public: bool = False) -> Match:
    """A finished Faraway match of ``user`` against a greedy bot, ``user``'s moves posted
    through the table and the bot's played by its tasks after each commit."""
    with on_commit(execute=True):
        match = match_create(
            game="faraway",
            num_players=2,
            created_by=user,
            bots={1: "greedy"},
            seed=11,
            public=public,
        )
    client = Client()
    client.force_login(user)
    rng = random.Random(4)
    for _ in range(2000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        move = rng.choice(factories.legal_moves(match, match.awaiting[0]))
        with on_commit(execute=True):
            response = factories.post_move(client, match, move)
        assert response.status_code == 200
    raise AssertionError("the match did not end")


def _bots_gulliver(user, on_commit) -> Match:
    """A finished Gulliver match of three bots, watched by its creator: several deals."""
    with on_commit(execute=True):
        match = match_create(
            game="gulliver",
            num_players=3,
            created_by=user,
            bots={0: "greedy", 1: "greedy", 2: "random"},
            creator_plays=False,
            options={"target": 60},
            seed=1,
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


# -- a finished match's record verifies --------------------------------------------------


def test_a_finished_matchs_record_holds_everything_and_verifies(
    ann, ann_client, django_capture_on_commit_callbacks, tmp_path
):
    match = _played_out(ann, django_capture_on_commit_callbacks)
    factories.assert_replays(match)
    response = _get(ann_client, match, "?download=1")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f"attachment; filename=parlour-faraway-{match.pk}.json"
    )
    assert "no-store" not in response["Cache-Control"]
    body = response.content.decode()
    assert body.startswith('{\n  "commitment": ')  # indent 2, sorted keys
    record = json.loads(body)
    moves = list(Move.objects.filter(match=match).order_by("ply"))
    assert record["format"] == records.FORMAT and record["format_version"] == 2
    assert (record["game"], record["game_title"]) == ("faraway", "The Faraway Tree")
    assert record["rules_version"] == get_engine("faraway").rules_version
    assert record["num_players"] == 2 and record["options"] == match.options
    assert "dealer" in record["options"]
    assert (record["seed"], record["salt"]) == (match.seed, match.salt)
    assert record["commitment"] == match.commitment
    assert record["status"] == "finished" and record["url"] == f"/matches/{match.pk}/"
    assert record["viewer_seat"] == 0
    assert record["seats"] == [
        {"index": 0, "name": "ann", "kind": "person", "bot_level": None, "username": "ann"},
        {
            "index": 1,
            "name": "Greedy bot 2",
            "kind": "bot",
            "bot_level": "greedy",
            "username": None,
        },
    ]
    assert [(e["ply"], e["seat"], e["move"], e["hash"]) for e in record["entries"]] == [
        (m.ply, m.seat, m.payload, m.chain_hash) for m in moves
    ]
    assert all(
        re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", e["time"])
        for e in record["entries"]
    )
    standings = [(s.result, s.score, s.rank) for s in match.seats.order_by("index")]
    assert [(s["result"], s["score"], s["rank"]) for s in record["outcome"]["standings"]] == (
        standings
    )

    path = tmp_path / "record.json"
    path.write_bytes(response.content)
    out = io.StringIO()
    call_command("verify_record", str(path), stdout=out)
    printed = out.getvalue()
    assert f"commitment {match.commitment}" in printed
    assert f"{len(moves)} entries replayed" in printed
    assert "The record holds" in printed

    run = subprocess.run(
        [sys.executable, "-m", "games.verify_record", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "The record holds" in run.stdout


def test_a_gulliver_record_with_several_deals_verifies(
    ann, ann_client, django_capture_on_commit_callbacks, tmp_path
):
    match = _bots_gulliver(ann, django_capture_on_commit_callbacks)
    record = _record(ann_client, match)
    deals = [e for e in record["entries"] if e["seat"] is None]
    assert len(deals) == match.rounds - 1 > 0
    assert record["viewer_seat"] is None  # the creator only watched
    assert records.record_verify(record).ok
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record))
    call_command("verify_record", str(path), stdout=io.StringIO())


def test_verify_record_names_the_first_mismatch_and_exits_non_zero(
    ann, ann_client, django_capture_on_commit_callbacks, tmp_path
):
    match = _bots_gulliver(ann, django_capture_on_commit_callbacks)
    record = _record(ann_client, match)
    entry = record["entries"][4]
    entry["hash"] = "0" * 64
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    out = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_record", str(path), stdout=out)
    assert failed.value.returncode == 1
    assert str(failed.value).startswith("FAIL  entry 5 (")
    assert str(failed.value).endswith("hash differs.")
    assert "ok    commitment" in out.getvalue()

    path.write_text("{ not json")
    with pytest.raises(CommandError) as unreadable:
        call_command("verify_record", str(path), stdout=io.StringIO())
    assert unreadable.value.returncode == 2
    assert "not JSON" in str(unreadable.value)
    with pytest.raises(CommandError) as missing:
        call_command("verify_record", str(tmp_path / "nowhere.json"), stdout=io.StringIO())
    assert missing.value.returncode == 2


def test_verify_record_reads_standard_input_and_refuses_a_running_record(
    ann, bea, ann_client, tmp_path
):
    match = factories.match_make(players=[ann, bea])
    body = _get(ann_client, match).content
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    run = subprocess.run(
        [sys.executable, "manage.py", "verify_record", "-"],
        cwd=ROOT,
        input=body,
        capture_output=True,
        check=False,
        env={**env, "PARLOUR_DATA_DIR": str(tmp_path)},
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert b"cannot be replayed" in run.stderr


# -- a running match's record shows nothing hidden ---------------------------------------


def test_a_running_record_has_no_seed_salt_unkeyed_hash_or_secret_option(
    ann, bea, ann_client, bea_client
):
    deck = list(reversed(_faraway_decks(3)[0]))
    match = factories.match_make(players=[ann, bea], options={"deck": deck})
    seat = factories.awaited_seat(match)
    client = [ann_client, bea_client][seat]
    response = factories.post_move(client, match, {"type": "draw", "source": "pack"})
    assert response.status_code == 200
    match.refresh_from_db()
    response = _get(ann_client, match)
    assert response["Cache-Control"] == "private, no-store"
    body = response.content.decode()
    record = json.loads(body)
    engine = get_engine("faraway")
    start = replay.start_hash(engine, 2, match.seed, match.options)
    links = list(Move.objects.filter(match=match).values_list("chain_hash", flat=True))
    assert links
    for secret in [str(match.seed), match.salt, start, match.head_hash, *links]:
        assert secret not in body
    assert '"deck"' not in body
    assert record["options"] == {"dealer": match.options["dealer"]}
    assert (record["seed"], record["salt"], record["start_hash"]) == (None, None, None)
    assert record["outcome"] is None and record["status"] == "active"
    assert [e["keyed_hash"] for e in record["entries"]] == [
        records.keyed_hash(match.salt, h) for h in links
    ]
    assert record["commitment"] == match.commitment
    assert not records.record_verify(record).ok


def _normalised(record_text: str) -> str:
    """A record without what differs between two matches by construction: ids, times, the
    commitment and the keyed hashes (both differ by the matches' salts)."""
    text = re.sub(r"/matches/\d+/", "/matches/N/", record_text)
    text = re.sub(r'"\d{4}-\d\d-\d\dT[\d:.]+Z"', '"TIME"', text)
    text = re.sub(r'"(commitment|keyed_hash)": "[0-9a-f]{64}"', r'"\1": "H"', text)
    return text


def test_a_seats_record_is_identical_when_only_unseen_cards_differ(
    ann, bea, ann_client, bea_client
):
    seed = 3
    matches = [
        factories.match_make(players=[ann, bea], seed=seed, options={"deck": deck})
        for deck in _faraway_decks(seed)
    ]
    engine = get_engine("faraway")
    hands = [engine.load(m.state).hands[1] for m in matches]
    assert sorted(hands[0]) != sorted(hands[1])

    def ann_sees(match: Match) -> str:
        return _normalised(_get(ann_client, match).content.decode())

    before = [ann_sees(m) for m in matches]
    assert before[0] == before[1]
    clients = [ann_client, bea_client]
    for match in matches:
        seat = factories.awaited_seat(match)
        response = factories.post_move(clients[seat], match, {"type": "draw", "source": "pack"})
        assert response.status_code == 200
    after = [ann_sees(m) for m in matches]
    assert after[0] == after[1]
    # The normalising keeps the log: the new entry shows (the checks above are not vacuous).
    assert after[0] != before[0] and '"source": "pack"' in after[0]


# -- who may have a record -----------------------------------------------------------------


def test_a_private_matchs_record_is_a_404_to_outsiders_and_served_to_members(
    ann, bea, cal, ann_client, bea_client, cal_client, client
):
    match = factories.match_make(players=[ann, bea], public=False)
    assert _get(cal_client, match).status_code == 404
    assert _get(cal_client, match, "?download=1").status_code == 404
    assert _record(bea_client, match)["viewer_seat"] == 1
    assert _record(ann_client, match)["viewer_seat"] == 0
    anonymous = _get(client, match)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert cal_client.get("/matches/999999/record.json").status_code == 404
    assert ann_client.post(f"/matches/{match.pk}/record.json").status_code == 405


def test_a_creator_who_only_watches_a_private_match_has_its_record(ann, ann_client, cal_client):
    match = match_create(
        game="faraway",
        num_players=2,
        created_by=ann,
        bots={0: "random", 1: "random"},
        creator_plays=False,
    )
    assert _record(ann_client, match)["viewer_seat"] is None
    assert _get(cal_client, match).status_code == 404


def test_a_public_running_match_gives_a_spectator_the_public_record(
    ann, bea, ann_client, cal_client
):
    match = factories.match_make(players=[ann, bea], public=True)
    spectator = _record(cal_client, match)
    assert spectator["viewer_seat"] is None
    assert spectator["seed"] is None and spectator["salt"] is None
    player = _record(ann_client, match)
    assert {**player, "viewer_seat": None} == spectator


def test_a_waiting_match_has_a_record_without_entries(ann, ann_client):
    match = match_create(game="gulliver", num_players=3, created_by=ann, public=True)
    record = _record(ann_client, match)
    assert record["status"] == "waiting" and record["entries"] == []
    assert record["started_at"] is None and record["seed"] is None
    assert [s["name"] for s in record["seats"]] == ["ann"]


def test_the_record_costs_the_same_queries_at_every_length(
    ann, ann_client, django_capture_on_commit_callbacks
):
    short = match_create(game="faraway", num_players=2, created_by=ann, bots={1: "greedy"})
    long = _bots_gulliver(ann, django_capture_on_commit_callbacks)
    assert long.ply > 50 > short.ply
    counts = []
    for match in (short, long):
        with CaptureQueriesContext(connection) as queries:
            assert _get(ann_client, match).status_code == 200
        counts.append(len(queries))
        moves = [q["sql"] for q in queries if Move._meta.db_table in q["sql"]]
        assert len(moves) == 1 and '"events"' not in moves[0]
    assert counts[0] == counts[1]


# -- the commitment on the table -----------------------------------------------------------


def test_the_commitment_partial_shows_the_fingerprint_but_never_a_running_seed(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=987654321)
    page = render_to_string("games/_commitment.html", {"match": match})
    assert match.commitment[:16] in page
    assert f'<code id="commitment-full">{match.commitment}</code>' in page
    assert "<details" in page
    assert f"/matches/{match.pk}/record.json" in page
    assert "987654321" not in page and "987,654,321" not in page
    assert match.salt not in page
    assert 'id="seed"' not in page


def test_the_commitment_partial_reveals_seed_and_salt_once_finished(
    ann, django_capture_on_commit_callbacks
):
    match = _played_out(ann, django_capture_on_commit_callbacks)
    page = render_to_string("games/_commitment.html", {"match": match})
    assert f'<code id="seed">{match.seed}</code>' in page
    assert f'<code id="salt">{match.salt}</code>' in page
    assert match.commitment in page
    assert "hashlib.sha256(bytes.fromhex(" in page and "verify_record" in page
    # The line printed on the page computes the commitment shown beside it.
    line = re.search(r'python3 -c "([^"]+)"', page).group(1).replace("&#x27;", "'")
    run = subprocess.run([sys.executable, "-c", line], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == match.commitment
