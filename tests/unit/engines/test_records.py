"""Match records and their verifier, without the site (docs/records.md).

Records here are built by the same ``record_build`` the site uses, from games played out by
random legal moves; each test then changes one thing and checks the verifier names it.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import verify_record
from games.engines import faraway_cards, get_engine, records, replay
from games.engines.results import standings
from tests.unit.engines.helpers import random_play

SALT = "5a" * records.SALT_BYTES
SEED = 2024
ROOT = Path(__file__).resolve().parents[3]
OPTIONS = {
    "faraway": {"dealer": 1},
    "gulliver": {"dealer": 0, "target": 60, "challenges": True},
}


def _play(game: str, num_players: int, seed: int) -> tuple[list[replay.Entry], Any]:
    """A whole match under random legal play (Gulliver's deals as seatless entries)."""
    return random_play(game, num_players, seed, OPTIONS[game])


def _record(game: str = "faraway", num_players: int = 3, *, over: bool = True) -> dict:
    """The record of a played-out match, through JSON as a reader would have it."""
    engine = get_engine(game)
    entries, final = _play(game, num_players, SEED)
    links = replay.hashes(engine, num_players, SEED, OPTIONS[game], entries)
    outcome = engine.outcome(final)
    record = records.record_build(
        engine=engine,
        num_players=num_players,
        options=OPTIONS[game],
        seats=[
            records.RecordSeat(index=0, name="ann", username="ann"),
            *(
                records.RecordSeat(index=i, name=f"Greedy bot {i + 1}", bot_level="greedy")
                for i in range(1, num_players)
            ),
        ],
        entries=[
            records.RecordEntry(seat=seat, move=move, chain_hash=link, time=f"t{ply}")
            for ply, ((seat, move), link) in enumerate(zip(entries, links, strict=True), 1)
        ],
        seed=SEED,
        salt=SALT,
        commitment=records.seed_commitment(SALT, SEED),
        over=over,
        outcome=outcome,
        table=standings(outcome, num_players),
        status="finished" if over else "active",
    )
    return json.loads(json.dumps(record))


@pytest.fixture(scope="module")
def faraway() -> dict:
    return _record("faraway", 3)


@pytest.fixture(scope="module")
def gulliver() -> dict:
    return _record("gulliver", 3)


def _failure(record: dict) -> records.VerifyReport:
    report = records.record_verify(record)
    assert not report.ok
    assert report.problem
    return report


def _states_before(game: str, record: dict) -> list[Any]:
    """The state before each entry of ``record`` (index k: before entry k + 1)."""
    engine = get_engine(game)
    state = engine.new_game(record["num_players"], record["seed"], record["options"])
    before = []
    for entry in record["entries"]:
        before.append(state)
        state = replay.step(engine, state, entry["seat"], entry["move"])
    return before


# -- the format and the commitment ----------------------------------------------------------


def test_the_commitment_and_keyed_hash_are_the_documented_bytes():
    salt = bytes(range(32)).hex()
    assert records.seed_commitment(salt, 42) == hashlib.sha256(bytes(range(32)) + b"42").hexdigest()
    link = "ab" * 32
    keyed = hmac.new(bytes(range(32)), link.encode("ascii"), hashlib.sha256).hexdigest()
    assert records.keyed_hash(salt, link) == keyed


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_an_untouched_record_passes_every_check(game, faraway, gulliver):
    record = {"faraway": faraway, "gulliver": gulliver}[game]
    report = records.record_verify(record)
    assert report.ok, report.problem
    assert report.exit_code == 0
    assert report.problem is None and report.ply is None
    text = "\n".join(report.checked)
    for check in ("format", "rules version", "player count", "commitment", "start hash"):
        assert check in text
    assert f"{len(record['entries'])} entries replayed" in text
    assert report.lines()[-1].startswith("The record holds")


def test_gullivers_record_holds_the_servers_deals_as_seatless_entries(gulliver):
    deals = [e for e in gulliver["entries"] if e["seat"] is None]
    assert deals and all(e["move"] == {"type": "next_round"} for e in deals)


def test_a_finished_record_reveals_seed_salt_and_every_hash(faraway):
    assert faraway["format"] == records.FORMAT == "parlour-match-record"
    assert faraway["format_version"] == records.FORMAT_VERSION == 2
    assert (faraway["seed"], faraway["salt"]) == (SEED, SALT)
    assert faraway["options"] == OPTIONS["faraway"]
    assert all(e["hash"] and e["keyed_hash"] for e in faraway["entries"])
    assert [e["ply"] for e in faraway["entries"]] == list(range(1, len(faraway["entries"]) + 1))
    assert faraway["seats"][1] == {
        "index": 1,
        "name": "Greedy bot 2",
        "kind": "bot",
        "bot_level": "greedy",
        "username": None,
    }
    assert set(faraway["outcome"]) == {"winners", "draw", "scores", "standings"}


def test_a_running_record_withholds_seed_salt_hashes_and_secret_options():
    engine = get_engine("faraway")
    options = {"dealer": 0, "deck": list(reversed(faraway_cards.PACK))}
    state = engine.new_game(2, SEED, options)
    entries: list[replay.Entry] = []
    for _ in range(5):
        seat = engine.awaiting(state)[0]
        entries.append((seat, engine.legal_moves(state, seat)[0]))
        state = replay.step(engine, state, *entries[-1])
    links = list(replay.hashes(engine, 2, SEED, options, entries))
    record = records.record_build(
        engine=engine,
        num_players=2,
        options=options,
        seats=[records.RecordSeat(0, "ann", username="ann"), records.RecordSeat(1, "bea")],
        entries=[records.RecordEntry(s, m, h) for (s, m), h in zip(entries, links, strict=True)],
        seed=SEED,
        salt=SALT,
        commitment=records.seed_commitment(SALT, SEED),
        over=False,
        viewer_seat=0,
    )
    assert record["seed"] is None and record["salt"] is None and record["start_hash"] is None
    assert record["options"] == {"dealer": 0}
    assert record["outcome"] is None
    assert all(e["hash"] is None for e in record["entries"])
    assert [e["keyed_hash"] for e in record["entries"]] == [
        records.keyed_hash(SALT, h) for h in links
    ]
    text = json.dumps(record)
    assert SALT not in text
    assert not any(h in text for h in links)
    report = records.record_verify(record)
    assert report.refused and report.exit_code == 2
    assert "cannot be replayed" in report.problem


# -- tampering, each caught and named --------------------------------------------------------


def test_a_changed_move_is_caught_at_its_entry(faraway):
    engine = get_engine("faraway")
    before = _states_before("faraway", faraway)
    # A discard swapped for another legal discard: the engine accepts it, the hash does not.
    ply, other = next(
        (k + 1, alt)
        for k, entry in enumerate(faraway["entries"])
        if entry["move"]["type"] == "discard"
        for alt in engine.legal_moves(before[k], entry["seat"])
        if alt["type"] == "discard" and alt != entry["move"]
    )
    record = copy.deepcopy(faraway)
    record["entries"][ply - 1]["move"] = other
    report = _failure(record)
    seat = record["entries"][ply - 1]["seat"]
    move = json.dumps(other, sort_keys=True, separators=(",", ":"))
    assert report.problem == f"entry {ply} (seat {seat}, {move}): hash differs."
    assert report.ply == ply and report.exit_code == 1


def test_a_move_the_engine_refuses_is_named(faraway):
    record = copy.deepcopy(faraway)
    record["entries"][3]["move"] = {"type": "play", "card": "no such card"}
    report = _failure(record)
    assert report.ply == 4
    assert report.problem.startswith("entry 4 (seat ")
    assert "the engine refuses it" in report.problem
    assert report.exit_code == 1


def test_a_changed_seat_is_caught_at_its_entry(faraway):
    record = copy.deepcopy(faraway)
    entry = record["entries"][6]
    entry["seat"] = (entry["seat"] + 1) % record["num_players"]
    report = _failure(record)
    assert report.ply == 7 and report.problem.startswith(f"entry 7 (seat {entry['seat']}, ")
    assert report.exit_code == 1
    record["entries"][6]["seat"] = 9
    assert "there is no seat 9" in _failure(record).problem


def test_a_seatless_entry_other_than_the_deal_is_refused(gulliver):
    record = copy.deepcopy(gulliver)
    record["entries"][0]["seat"] = None
    report = _failure(record)
    assert report.ply == 1 and report.problem.startswith("entry 1 (server, ")
    assert "refuses" in report.problem


def test_a_changed_seed_or_salt_breaks_the_commitment(faraway):
    for key, value in (("seed", SEED + 1), ("salt", "6b" * records.SALT_BYTES)):
        record = copy.deepcopy(faraway)
        record[key] = value
        report = _failure(record)
        assert report.problem.startswith("Commitment differs")
        assert report.ply is None and report.exit_code == 1


def test_a_changed_seed_with_a_matching_commitment_deals_another_game(faraway):
    record = copy.deepcopy(faraway)
    record["seed"] = SEED + 1
    record["commitment"] = records.seed_commitment(SALT, SEED + 1)
    assert _failure(record).problem.startswith("Start hash differs")


def test_a_changed_commitment_is_caught(faraway):
    record = copy.deepcopy(faraway)
    record["commitment"] = "0" * 64
    assert _failure(record).problem.startswith("Commitment differs")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"dealer": 2}, "Start hash differs"),
        ({"dealer": 7}, "The engine refuses the player count or options"),
        ({"colour": "red"}, "The engine refuses the player count or options"),
    ],
)
def test_a_changed_option_is_caught(faraway, change, expected):
    record = copy.deepcopy(faraway)
    record["options"].update(change)
    assert _failure(record).problem.startswith(expected)


def test_a_changed_target_in_gulliver_is_caught(gulliver):
    record = copy.deepcopy(gulliver)
    record["options"]["target"] = 250
    assert _failure(record).problem.startswith("Start hash differs")


def test_a_changed_player_count_is_caught(faraway):
    record = copy.deepcopy(faraway)
    record["num_players"] = 2
    report = _failure(record)
    assert report.problem == "Player count 2 differs from the 3 seats listed."
    assert report.exit_code == 1
    # Dropping a seat as well deals a different game.
    record["seats"] = record["seats"][:2]
    assert _failure(record).problem.startswith("Start hash differs")


@pytest.mark.parametrize("key", ["hash", "keyed_hash"])
def test_a_changed_hash_is_caught_at_its_entry(faraway, key):
    record = copy.deepcopy(faraway)
    entry = record["entries"][10]
    entry[key] = "f" * 64
    report = _failure(record)
    assert report.ply == 11
    what = "hash" if key == "hash" else "keyed hash"
    assert report.problem.startswith("entry 11 (seat ")
    assert report.problem.endswith(f": {what} differs.")


def test_a_changed_start_hash_is_caught(faraway):
    record = copy.deepcopy(faraway)
    record["start_hash"] = "e" * 64
    assert _failure(record).problem.startswith("Start hash differs")


def test_renumbered_dropped_or_added_entries_are_caught(faraway):
    record = copy.deepcopy(faraway)
    record["entries"][4]["ply"] = 99
    assert _failure(record).problem.endswith("numbered 99, not 5.")
    record = copy.deepcopy(faraway)
    del record["entries"][4]
    assert _failure(record).ply == 5
    record = copy.deepcopy(faraway)
    record["entries"].pop()
    assert "do not end the match" in _failure(record).problem
    record = copy.deepcopy(faraway)
    extra = dict(record["entries"][-1], ply=len(record["entries"]) + 1)
    record["entries"].append(extra)
    report = _failure(record)
    assert report.ply == len(record["entries"]) and "refuses" in report.problem


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("winners",), [9], "Outcome: winners differ"),
        (("draw",), True, "Outcome: draw differ"),
        (("scores", 0), 99, "Outcome: scores differ"),
        (("standings", 1, "rank"), 7, "Outcome: seat 1's standing differs"),
        (("standings", 2, "result"), "drawn", "Outcome: seat 2's standing differs"),
        (("standings", 0, "score"), -1, "Outcome: seat 0's standing differs"),
    ],
)
def test_a_changed_outcome_is_caught(faraway, path, value, expected):
    record = copy.deepcopy(faraway)
    target = record["outcome"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    report = _failure(record)
    assert report.problem.startswith(expected), report.problem
    assert report.exit_code == 1


def test_a_record_without_its_outcome_is_caught(faraway):
    record = copy.deepcopy(faraway)
    record["outcome"] = None
    assert "has no outcome" in _failure(record).problem


# -- records this verifier will not check ----------------------------------------------------


def test_another_rules_version_is_refused_with_a_clear_message(faraway):
    engine = get_engine("faraway")
    record = copy.deepcopy(faraway)
    record["rules_version"] = engine.rules_version + 1
    report = _failure(record)
    assert report.refused and report.exit_code == 2
    assert report.problem.startswith(
        f"Recorded under rules version {engine.rules_version + 1} of faraway; this verifier"
        f" plays version {engine.rules_version}."
    )


def test_another_format_version_or_format_is_refused(faraway):
    record = copy.deepcopy(faraway)
    record["format_version"] = 3
    report = _failure(record)
    assert report.refused and "Format version 3 is not known" in report.problem
    record = copy.deepcopy(faraway)
    record["format"] = "chess-pgn"
    assert _failure(record).refused


def test_an_unknown_game_is_refused(faraway):
    record = copy.deepcopy(faraway)
    record["game"] = "snap"
    report = _failure(record)
    assert report.refused and "snap" in report.problem


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[1, 2]",
        "{}",
        '"a string"',
        "[" * 100_000,
    ],
)
def test_text_that_is_not_a_record_is_refused_plainly(text):
    report = records.record_verify_text(text)
    assert not report.ok and report.refused and report.exit_code == 2
    assert report.problem.startswith(("Not a record", "Malformed record"))


@pytest.mark.parametrize(
    ("mangle", "expected"),
    [
        (lambda r: r.pop("entries"), "has no 'entries'"),
        (lambda r: r.update(seed="2024"), "'seed' should be int or null"),
        (lambda r: r.update(seed=True), "'seed' should be int or null"),
        (lambda r: r.update(num_players="3"), "'num_players' should be int"),
        (lambda r: r.update(entries={}), "'entries' should be list"),
        (lambda r: r["entries"].__setitem__(0, "draw"), "entry 1 is not an object"),
        (lambda r: r["entries"][2].update(move="draw"), "entry 3's 'move' should be dict"),
        (lambda r: r["entries"][2].pop("hash"), "entry 3 has no 'hash'"),
        (lambda r: r["seats"].__setitem__(1, None), "seat 1 is not an object"),
        (lambda r: r.update(outcome=[]), "'outcome' should be dict or null"),
        (lambda r: r["outcome"].pop("scores"), "the outcome has no 'scores'"),
    ],
)
def test_a_malformed_record_is_refused_plainly(faraway, mangle, expected):
    record = copy.deepcopy(faraway)
    mangle(record)
    report = _failure(record)
    assert report.refused and report.exit_code == 2
    assert report.problem.startswith("Malformed record")
    assert expected in report.problem


def test_a_salt_that_is_not_hex_is_caught(faraway):
    record = copy.deepcopy(faraway)
    record["salt"] = "zz" * 32
    assert "lowercase hex" in _failure(record).problem


# -- the command line without Django: games.verify_record ----------------------------------


def test_main_prints_each_check_and_returns_the_status(faraway, tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(faraway))
    assert verify_record.main([str(good)]) == 0
    out = capsys.readouterr().out
    assert out.count("\nok    ") >= 7 and "The record holds" in out
    bad = copy.deepcopy(faraway)
    bad["entries"][2]["keyed_hash"] = "0" * 64
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert verify_record.main([str(tmp_path / "bad.json")]) == 1
    assert "FAIL  entry 3 (seat " in capsys.readouterr().out
    assert verify_record.main([str(tmp_path / "missing.json")]) == 2
    assert "Cannot read" in capsys.readouterr().err


def test_python_m_runs_without_django(faraway, tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(faraway))
    run = subprocess.run(
        [sys.executable, "-m", "games.verify_record", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "The record holds" in run.stdout
    # Standard input, and no Django module loaded along the way.
    probe = (
        "import sys, games.verify_record as v; code = v.main(['-']);"
        " assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django loaded';"
        " sys.exit(code)"
    )
    bad = copy.deepcopy(faraway)
    bad["rules_version"] = 0
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        input=json.dumps(bad),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "REFUSED  Recorded under rules version 0 of faraway" in run.stdout
