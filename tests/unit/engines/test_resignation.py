"""Resignations, pure (docs/leaving.md): when they end a match, the standings they leave, the
replay step and the record verifier's reading of them."""

from __future__ import annotations

import copy
import json

import pytest

from games.engines import get_engine, records, replay
from games.engines.base import IllegalMove
from games.engines.resignation import (
    RESIGN,
    ends_match,
    is_resignation,
    resigned_order,
    resigned_outcome,
    resigned_standings,
)
from games.engines.results import Standing, standings
from tests.unit.engines.helpers import random_play

SALT = "3c" * records.SALT_BYTES
SEED = 77


def test_only_a_seats_exact_resign_entry_is_a_resignation():
    assert is_resignation(0, {"type": "resign"})
    assert not is_resignation(None, {"type": "resign"})
    assert not is_resignation(1, {"type": "resign", "extra": 1})
    assert not is_resignation(1, {"type": "pass"})


def test_the_order_of_resignation_is_the_order_of_their_plies():
    assert resigned_order({0: 9, 1: None, 2: 4, 3: 12}) == [2, 0, 3]


@pytest.mark.parametrize(
    ("num", "resigned", "people", "ends"),
    [
        (3, [1], {0, 1, 2}, False),  # two people play on
        (3, [1, 2], {0, 1, 2}, True),  # one seat left
        (2, [0], {0, 1}, True),  # a table of two
        (3, [0], {0, 2}, False),  # a person and a bot play on
        (3, [0], {0}, True),  # only bots left
        (4, [0, 1], {0, 1, 2}, False),  # a person and a bot play on
    ],
)
def test_a_match_ends_when_one_seat_or_no_person_is_left(num, resigned, people, ends):
    assert ends_match(num_players=num, resigned=resigned, people=people) is ends


def test_without_resignations_the_standings_are_the_games():
    outcome = {"winners": [2], "draw": False, "scores": [3, 5, 9]}
    assert resigned_standings(outcome, 3, [], game_over=True) == standings(outcome, 3)


def test_an_early_end_shares_first_place_and_ranks_resigners_by_their_order():
    outcome = {"winners": [], "draw": False, "scores": [4, 1, 7, 2]}
    table = resigned_standings(outcome, 4, [3, 0], game_over=False)
    assert table == [
        Standing("lost", 4, 3),
        Standing("drawn", 1, 1),
        Standing("drawn", 7, 1),
        Standing("lost", 2, 4),
    ]
    assert resigned_outcome(outcome, table) == {
        "winners": [1, 2],
        "draw": True,
        "scores": [4, 1, 7, 2],
    }
    alone = resigned_standings(outcome, 4, [3, 0, 2], game_over=False)
    assert alone[1] == Standing("won", 1, 1)
    assert resigned_outcome(outcome, alone)["winners"] == [1]


def test_a_resigner_the_game_made_win_still_loses():
    outcome = {"winners": [0], "draw": False, "scores": [10, 6, 8]}
    table = resigned_standings(outcome, 3, [0], game_over=True)
    assert table == [Standing("lost", 10, 3), Standing("lost", 6, 2), Standing("won", 8, 1)]


def test_a_draw_at_the_end_is_shared_by_the_seats_still_playing():
    outcome = {"winners": [], "draw": True, "scores": [3, 3, 3]}
    table = resigned_standings(outcome, 3, [1], game_over=True)
    assert [(s.result, s.rank) for s in table] == [("drawn", 1), ("lost", 3), ("drawn", 1)]


def test_resignations_that_do_not_fit_are_refused():
    outcome = {"winners": [], "draw": False, "scores": [0, 0]}
    with pytest.raises(ValueError):
        resigned_standings(outcome, 2, [1, 1], game_over=False)


def test_a_resignation_steps_to_the_same_position_without_events():
    engine = get_engine("faraway")
    state = engine.new_game(3, 5, {"dealer": 0})
    after = replay.step(engine, state, 1, dict(RESIGN))
    assert engine.state_hash(after) == engine.state_hash(state)
    assert engine.events(after) == []


def test_nobody_resigns_a_finished_game():
    engine = get_engine("faraway")
    _, final = random_play("faraway", 2, 3, {"dealer": 0})
    with pytest.raises(IllegalMove):
        replay.step(engine, final, 0, dict(RESIGN))


# -- the verifier ------------------------------------------------------------------------------


def _record(entries: list, kinds: list[str], *, version: int = records.FORMAT_VERSION) -> dict:
    """A finished record of a Faraway match of ``len(kinds)`` seats whose log is ``entries``,
    ended by resignations, its outcome as the site would store it."""
    engine = get_engine("faraway")
    num = len(kinds)
    options = {"dealer": 0}
    state = engine.new_game(num, SEED, options)
    for seat, move in entries:
        state = replay.step(engine, state, seat, move)
    # each seat once, so that a forged second resignation can be written down at all
    resigned = list(dict.fromkeys(seat for seat, move in entries if is_resignation(seat, move)))
    table = resigned_standings(engine.outcome(state), num, resigned, game_over=False)
    record = records.record_build(
        engine=engine,
        num_players=num,
        options=options,
        seats=[
            records.RecordSeat(index=i, name=f"s{i}", username=f"u{i}")
            if kind == "person"
            else records.RecordSeat(index=i, name=f"b{i}", bot_level="greedy")
            for i, kind in enumerate(kinds)
        ],
        entries=[
            records.RecordEntry(seat=seat, move=move, chain_hash=link, auto="resigned")
            for (seat, move), link in zip(
                entries, replay.hashes(engine, num, SEED, options, entries), strict=True
            )
        ],
        seed=SEED,
        salt=SALT,
        commitment=records.seed_commitment(SALT, SEED),
        over=True,
        outcome=resigned_outcome(engine.outcome(state), table),
        table=table,
        status="finished",
    )
    record["format_version"] = version
    return json.loads(json.dumps(record))


def _opening(seat: int) -> list:
    """The first turn of ``seat`` when it leads (dealer 0: seat 1 leads at three seats)."""
    engine = get_engine("faraway")
    state = engine.new_game(3, SEED, {"dealer": 0})
    draw = engine.legal_moves(state, seat)[0]
    state = engine.apply(state, seat, draw)
    return [(seat, draw), (seat, engine.legal_moves(state, seat)[0])]


def test_a_record_ended_by_resignations_verifies():
    entries = [*_opening(1), (2, dict(RESIGN)), (0, dict(RESIGN))]
    report = records.record_verify(_record(entries, ["person", "person", "person"]))
    assert report.ok, report.problem
    assert "ok    resigned, in order: seat 2, seat 0; that ended the match" in report.lines()


def test_a_record_whose_resignation_was_tampered_with_fails():
    entries = [*_opening(1), (2, dict(RESIGN)), (0, dict(RESIGN))]
    record = _record(entries, ["person", "person", "person"])
    swapped = copy.deepcopy(record)
    swapped["entries"][2]["seat"] = 0
    swapped["entries"][3]["seat"] = 2
    report = records.record_verify(swapped)
    assert report.exit_code == 1 and report.ply == 3
    short = copy.deepcopy(record)
    short["entries"].pop()  # one resignation alone does not end a table of three people
    short["outcome"] = record["outcome"]
    report = records.record_verify(short)
    assert report.exit_code == 1 and "do not end the match" in report.problem


def test_a_bot_a_double_resignation_and_moves_after_the_end_fail():
    bot = _record([(2, dict(RESIGN)), (0, dict(RESIGN))], ["person", "person", "bot"])
    assert "seat 2 is a bot" in records.record_verify(bot).problem
    twice = _record([(2, dict(RESIGN)), (2, dict(RESIGN))], ["person", "person", "person"])
    assert "already resigned" in records.record_verify(twice).problem
    after = _record(
        [(2, dict(RESIGN)), (0, dict(RESIGN)), *_opening(1)], ["person", "person", "person"]
    )
    assert "already ended the match" in records.record_verify(after).problem


def test_format_version_1_reads_as_before_but_knows_no_resignation():
    entries = [(2, dict(RESIGN)), (0, dict(RESIGN))]
    old = _record(entries, ["person", "person", "person"], version=1)
    report = records.record_verify(old)
    assert report.exit_code == 1 and "version 1 has no resignations" in report.problem
    engine = get_engine("faraway")
    played, final = random_play("faraway", 2, SEED, {"dealer": 0})
    outcome = engine.outcome(final)
    plain = records.record_build(
        engine=engine,
        num_players=2,
        options={"dealer": 0},
        seats=[records.RecordSeat(index=i, name=f"s{i}", username=f"u{i}") for i in range(2)],
        entries=[
            records.RecordEntry(seat=seat, move=move, chain_hash=link)
            for (seat, move), link in zip(
                played, replay.hashes(engine, 2, SEED, {"dealer": 0}, played), strict=True
            )
        ],
        seed=SEED,
        salt=SALT,
        commitment=records.seed_commitment(SALT, SEED),
        over=True,
        outcome=outcome,
        table=standings(outcome, 2),
        status="finished",
    )
    plain["format_version"] = 1
    assert records.record_verify(json.loads(json.dumps(plain))).ok
