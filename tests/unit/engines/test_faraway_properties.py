"""Properties of the Faraway Tree engine over random legal play (bounded hypothesis runs)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.engines.faraway_cards import PACK

ENG = get_engine("faraway")
BOUNDED = settings(max_examples=40, deadline=None)
MAX_MOVES = 6000  # the turn cap (2,000 turns) bounds a game far below this

games = st.tuples(
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=0, max_value=2**40),
    st.integers(min_value=0, max_value=3),
)


def cards_in(dump: dict) -> Counter:
    cards = Counter()
    for hand in dump["hands"]:
        cards.update(hand)
    for high in dump["rows"]:
        cards.update(str(i) for i in range(1, high + 1))
    cards.update(dump["pack"])
    cards.update(dump["discards"])
    cards.update(p["card"] for p in dump["penalties"] if p)
    cards.update(dump["aside"])
    return cards


def play_out(n: int, seed: int, dealer: int, pick_seed: int, check=None):
    """Random legal play to the end; returns the final state, move log and visited states."""
    rng = random.Random(pick_seed)
    state = ENG.new_game(n, seed, {"dealer": dealer % n})
    log, states = [], [state]
    for _ in range(MAX_MOVES):
        if ENG.is_over(state):
            break
        (seat,) = ENG.awaiting(state)
        move = rng.choice(ENG.legal_moves(state, seat))
        if check:
            check(state, seat, move)
        state = ENG.apply(state, seat, move)
        log.append((seat, move))
        states.append(state)
    return state, log, states


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_random_play_never_raises_always_ends_and_keeps_44_cards(game, pick):
    n, seed, dealer = game
    step = [0]

    def check(state, seat, move):
        step[0] += 1
        dump = ENG.dump(state) if step[0] % 7 == 0 else None
        if dump is not None:
            assert cards_in(dump) == Counter(PACK)
            assert sum(len(h) for h in dump["hands"]) <= 44
        for other in range(n):
            assert ENG.awaiting(state) == [seat]
            if other != seat:
                assert ENG.legal_moves(state, other) == []
        if dump is not None:
            assert ENG.dump(state) == dump

    final, _, _ = play_out(n, seed, dealer, pick, check)
    assert ENG.is_over(final)
    assert cards_in(ENG.dump(final)) == Counter(PACK)
    outcome = ENG.outcome(final)
    assert outcome["draw"] == (outcome["winners"] == [])
    assert outcome["scores"] == [len(r) for r in ENG.view(final, None)["rows"]]
    if outcome["winners"]:
        assert outcome["scores"][outcome["winners"][0]] == 9


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_apply_never_mutates_its_input_even_when_branching(game, pick):
    n, seed, dealer = game
    rng = random.Random(pick)
    final, log, states = play_out(n, seed, dealer, pick)
    for i in sorted(rng.sample(range(len(log)), min(6, len(log)))):
        state = states[i]
        before = ENG.dump(state)
        seat, move = log[i]
        for other in ENG.legal_moves(state, seat):
            # a branch must not disturb the main line, nor inherit the main line's later events
            branch = ENG.apply(state, seat, other)
            assert ENG.dump(branch) == ENG.dump(ENG.apply(ENG.load(before), seat, other))
        assert ENG.dump(state) == before
        assert ENG.dump(ENG.apply(state, seat, move)) == ENG.dump(states[i + 1])
    assert ENG.events(final) == ENG.dump(final)["events"]


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_dump_load_round_trips_and_replay_reproduces_the_hash(game, pick):
    n, seed, dealer = game
    final, log, states = play_out(n, seed, dealer, pick)
    for state in (states[0], states[len(states) // 2], final):
        dump = ENG.dump(state)
        again = ENG.load(dump)
        assert ENG.dump(again) == dump
        assert ENG.state_hash(again) == ENG.state_hash(state)
        assert dump["rules_version"] == ENG.rules_version
    middle = ENG.load(ENG.dump(states[len(states) // 2]))
    for seat, move in log[len(states) // 2 :]:
        middle = ENG.apply(middle, seat, move)
    assert ENG.state_hash(middle) == ENG.state_hash(final)

    replay = ENG.new_game(n, seed, {"dealer": dealer % n})
    for seat, move in log:
        replay = ENG.apply(replay, seat, move)
    assert ENG.state_hash(replay) == ENG.state_hash(final)


def permute_hidden(dump: dict, seat: int, rng: random.Random) -> dict:
    """The same position with every card ``seat`` cannot see dealt again at random. The whole
    discard pile is public (every card in it was laid face up), so it stays as it is."""
    out = {**dump, "hands": [list(h) for h in dump["hands"]]}
    others = [s for s in range(dump["num_players"]) if s != seat]
    hidden = [c for s in others for c in out["hands"][s]] + out["pack"]
    rng.shuffle(hidden)
    pos = 0
    for s in others:
        k = len(out["hands"][s])
        out["hands"][s] = hidden[pos : pos + k]
        pos += k
    out["pack"] = hidden[pos:]
    out["seed"] = rng.getrandbits(40)
    return out


def without_events(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "events"}


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_a_view_does_not_change_with_cards_that_seat_cannot_see(game, pick):
    n, seed, dealer = game
    rng = random.Random(pick)
    _, _, states = play_out(n, seed, dealer, pick)
    for state in rng.sample(states[:-1], min(5, len(states) - 1)):
        for seat in (*range(n), None):
            hidden_from = 0 if seat is None else seat
            other = ENG.load(permute_hidden(ENG.dump(state), hidden_from, rng))
            if seat is None:
                other = ENG.load(permute_hidden(ENG.dump(other), (hidden_from + 1) % n, rng))
            assert ENG.view(other, seat) == ENG.view(state, seat)


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_sample_state_agrees_with_the_view_and_can_be_played_on(game, pick):
    n, seed, dealer = game
    rng = random.Random(pick)
    _, _, states = play_out(n, seed, dealer, pick)
    for state in rng.sample(states[:-1], min(4, len(states) - 1)):
        (seat,) = ENG.awaiting(state)
        for viewer in {seat, rng.randrange(n)}:
            view = ENG.view(state, viewer)
            sampled = ENG.sample_state(view, random.Random(rng.random()))
            assert without_events(ENG.view(sampled, viewer)) == without_events(view)
            assert cards_in(ENG.dump(sampled)) == Counter(PACK)
            # a determinization is a real position: random play from it runs to the end
            for _ in range(MAX_MOVES):
                if ENG.is_over(sampled):
                    break
                (mover,) = ENG.awaiting(sampled)
                sampled = ENG.apply(sampled, mover, rng.choice(ENG.legal_moves(sampled, mover)))
            assert ENG.is_over(sampled)
