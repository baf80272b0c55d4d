"""The replay fold and the hash chain (docs/engine-contract.md, Hashes and Replaying)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalMove, get_engine, replay
from games.engines.base import canonical_json, same_json
from tests.unit.engines.helpers import random_play
from tests.unit.engines.refused import refused

OPTIONS = {"faraway": {}, "gulliver": {"target": 150, "challenges": True}}


def random_record(game: str, num_players: int, seed: int) -> list[replay.Entry]:
    """A whole match's entries under random play (Gulliver's deals as seatless entries)."""
    return random_play(game, num_players, seed, OPTIONS[game])[0]


def args(game: str, num_players: int, seed: int) -> tuple:
    return get_engine(game), num_players, seed, OPTIONS[game]


records = st.tuples(
    st.sampled_from(["faraway", "gulliver"]),
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=0, max_value=2**32),
)


def test_chain_hash_is_sha256_of_the_documented_bytes():
    previous = "ab" * 32
    state_hash = "cd" * 32
    move = {"type": "draw", "source": "pack"}
    text = previous + "\n" + '[1,{"source":"pack","type":"draw"}]' + "\n" + state_hash
    assert replay.chain_hash(previous, 1, move, state_hash) == (
        hashlib.sha256(text.encode("utf-8")).hexdigest()
    )
    deal = f'{previous}\n[null,{{"type":"next_round"}}]\n{state_hash}'
    assert replay.chain_hash(previous, None, replay.NEXT_ROUND, state_hash) == (
        hashlib.sha256(deal.encode("utf-8")).hexdigest()
    )
    # canonical JSON keeps non-ASCII as it is, encoded as UTF-8
    words = {"type": "play", "card": "Brobdingnag \u00e9"}
    expected = f"{previous}\n{canonical_json([0, words])}\n{state_hash}"
    assert "\u00e9" in expected
    assert replay.chain_hash(previous, 0, words, state_hash) == (
        hashlib.sha256(expected.encode("utf-8")).hexdigest()
    )


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_start_hash_frames_and_hashes_follow_the_chain_step_by_step(game):
    engine, n, seed, options = args(game, 3, 17)
    entries = random_record(game, n, seed)
    state = engine.new_game(n, seed, options)
    link = engine.state_hash(state)
    assert replay.start_hash(engine, n, seed, options) == link
    frames = list(replay.frames(engine, n, seed, options, entries))
    links = list(replay.hashes(engine, n, seed, options, entries))
    assert len(frames) == len(links) == len(entries)
    for (seat, move), frame, got in zip(entries, frames, links, strict=True):
        state = engine.next_round(state) if seat is None else engine.apply(state, seat, move)
        link = replay.chain_hash(link, seat, move, engine.state_hash(state))
        assert engine.dump(frame) == engine.dump(state)
        assert engine.events(frame) == engine.events(state)
        assert got == link
    assert engine.is_over(frames[-1])
    if game == "gulliver":
        assert (None, replay.NEXT_ROUND) in entries


@settings(max_examples=20, deadline=None)
@given(records, st.randoms(use_true_random=False))
def test_a_random_record_verifies_and_any_change_is_named_by_its_ply(record, rng):
    game, n, seed = record
    engine, *_ = a = args(game, n, seed)
    entries = random_record(game, n, seed)
    links = list(replay.hashes(*a, entries))
    assert replay.verify(*a, entries, links) is None
    assert replay.verify(*a, entries, links, replay.start_hash(*a)) is None

    ply = rng.randrange(1, len(entries) + 1)
    forged = list(links)
    forged[ply - 1] = "0" * 64
    assert replay.verify(*a, entries, forged) == ply

    # another legal move at that ply (if there is one): legal, but not what was recorded
    before = list(replay.frames(*a, entries[: ply - 1]))
    state = before[-1] if before else engine.new_game(n, seed, OPTIONS[game])
    seat, move = entries[ply - 1]
    others = [] if seat is None else [m for m in engine.legal_moves(state, seat) if m != move]
    if others:
        changed = [*entries[: ply - 1], (seat, rng.choice(others)), *entries[ply:]]
        assert replay.verify(*a, changed, links) == ply
    # an illegal entry is named too
    illegal = [*entries[: ply - 1], (seat, {"type": "shout"}), *entries[ply:]]
    assert replay.verify(*a, illegal, links) == ply


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_records_of_different_lengths_fail_at_the_ply_after_the_shorter(game):
    a = args(game, 2, 5)
    entries = random_record(game, 2, 5)
    links = list(replay.hashes(*a, entries))
    assert replay.verify(*a, entries[:-3], links) == len(entries) - 2
    assert replay.verify(*a, entries, links[:-3]) == len(entries) - 2
    assert replay.verify(*a, [], []) is None
    assert replay.verify(*a, entries[:1], []) == 1


def test_a_different_start_breaks_the_first_link():
    a = args("faraway", 2, 8)
    entries = random_record("faraway", 2, 8)
    links = list(replay.hashes(*a, entries))
    assert replay.verify(*a, entries, links, "f" * 64) == 1
    other = args("faraway", 2, 9)
    assert replay.verify(*other, entries, links) == 1


def test_step_refuses_a_seatless_entry_that_is_not_a_deal():
    engine = get_engine("gulliver")
    state = engine.new_game(2, 1)
    with pytest.raises(IllegalMove):
        replay.step(engine, state, None, {"type": "draw"})
    with refused("still being played"):
        replay.step(engine, state, None, replay.NEXT_ROUND)
    faraway = get_engine("faraway")
    with refused("no rounds"):
        replay.step(faraway, faraway.new_game(2, 1), None, replay.NEXT_ROUND)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ({"positions": [0]}, {"positions": [0]}, True),
        ({"positions": [0]}, {"positions": [False]}, False),
        ({"positions": [1]}, {"positions": [1.0]}, False),
        ({"accept": True}, {"accept": 1}, False),
        ({"a": 1, "b": [2]}, {"b": [2], "a": 1}, True),
        ({"a": 1}, {"a": 1, "b": None}, False),
        ([1, 2], [2, 1], False),
    ],
)
def test_same_json_tells_json_types_apart(a, b, same):
    assert same_json(a, b) is same
