"""Gulliver's Travels under random legal play (hypothesis picks the table and the dice)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.engines import gulliver_words as W
from games.engines.base import PRIVATE
from games.engines.gulliver import GulliverState

E = get_engine("gulliver")
MOVE_CAP = 60_000  # far above any match seen; reaching it means the match did not end
CHECK_EVERY = 23  # the costlier checks (dump, views, samples) run on every 23rd position

tables = st.tuples(
    st.integers(min_value=2, max_value=8),  # players
    st.integers(min_value=0, max_value=2**32),  # seed for the deal and for the choices
    st.booleans(),  # challenges
    st.sampled_from([40, 60]),  # target
)


def cards(state: GulliverState) -> Counter:
    """Every card of the round, wherever it is (read off the state: no view shows them all)."""
    out = Counter(state.sentence)
    out.update(state.stack[state.sp :])
    for hand in state.hands:
        out.update(hand)
    for _, trick in state.taken:
        out.update(trick)
    return out


def fingerprint(state: GulliverState) -> tuple:
    """Everything a state holds, its step's events included, cheap enough to take every step."""
    skip = {"legal", "events"}
    fields = tuple(getattr(state, k) for k in GulliverState.__slots__ if k not in skip)
    return fields, json.dumps(state.events)


def without_events(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "events"}


def choose(state, rng: random.Random) -> tuple[int, dict]:
    """Any seat's legal move, so challenges (by seats not awaited) are made too, but rarely,
    as a person would."""
    options = [(s, m) for s in range(state.n) for m in E.legal_moves(state, s)]
    plain = [o for o in options if o[1]["type"] != "challenge"]
    if plain and (len(plain) == len(options) or rng.random() < 0.9):
        return rng.choice(plain)
    return rng.choice(options)


def play_out(n: int, seed: int, challenges: bool, target: int, on_step=None):
    rng = random.Random(seed)
    state = E.new_game(n, seed, {"challenges": challenges, "target": target})
    log: list[tuple[int | None, dict]] = []
    full = Counter(W.pack_for(n))
    for step in range(MOVE_CAP):
        assert cards(state) == full
        if E.is_over(state):
            return state, log
        if E.round_over(state):
            assert E.awaiting(state) == []
            state = E.next_round(state)
            log.append((None, {"type": "next_round"}))
            continue
        awaiting = E.awaiting(state)
        assert awaiting and all(E.legal_moves(state, s) for s in awaiting)
        if on_step is not None and step % CHECK_EVERY == 0:
            on_step(state, rng)
        seat, move = choose(state, rng)
        before = fingerprint(state)
        nxt = E.apply(state, seat, move)
        assert fingerprint(state) == before, "apply changed its input"
        log.append((seat, move))
        state = nxt
    raise AssertionError(f"no end after {MOVE_CAP} moves")


@settings(max_examples=40, deadline=None)
@given(tables)
def test_random_play_ends_and_keeps_every_card(table):
    n, seed, challenges, target = table
    state, _log = play_out(n, seed, challenges, target)
    out = E.outcome(state)
    assert out["winners"] and len(out["scores"]) == n
    top = max(out["scores"])
    assert all(out["scores"][w] == top for w in out["winners"])
    assert out["draw"] == (len(out["winners"]) > 1)
    assert E.view(state, 0)["round"] <= 100
    assert E.events(state)[-1]["type"] == "end"


@settings(max_examples=30, deadline=None)
@given(tables)
def test_replaying_the_log_reproduces_the_hash_and_dump_load_round_trips(table):
    n, seed, challenges, target = table

    def round_trip(state, rng):
        data = E.dump(state)
        again = E.load(data)
        assert E.dump(again) == data and E.state_hash(again) == E.state_hash(state)
        assert "events" not in data and E.events(again) == []
        for s in range(n):
            assert E.legal_moves(again, s) == E.legal_moves(state, s)
            assert without_events(E.view(again, s)) == without_events(E.view(state, s))

    state, log = play_out(n, seed, challenges, target, on_step=round_trip)
    replay = E.new_game(n, seed, {"challenges": challenges, "target": target})
    for seat, move in log:
        replay = E.next_round(replay) if seat is None else E.apply(replay, seat, move)
    assert E.state_hash(replay) == E.state_hash(state)
    assert E.state_hash(E.load(E.dump(state))) == E.state_hash(state)


def hide_differently(state: GulliverState, seat: int, rng: random.Random) -> GulliverState:
    """The same position with the cards ``seat`` cannot see (other hands, the stack order)
    dealt out again at random; publicly known (taken back) cards stay where they are."""
    data = E.dump(state)
    pool: list[str] = []
    for i, hand in enumerate(data["hands"]):
        if i != seat:
            hidden = Counter(hand)
            hidden.subtract(data["revealed"][i])
            pool.extend(hidden.elements())
    pool.extend(data["stack"])
    rng.shuffle(pool)
    for i, hand in enumerate(data["hands"]):
        if i != seat:
            keep = list(data["revealed"][i])
            need = len(hand) - len(keep)
            data["hands"][i] = keep + pool[:need]
            del pool[:need]
    data["stack"] = pool
    return E.load(data)


@settings(max_examples=30, deadline=None)
@given(tables)
def test_a_view_does_not_depend_on_cards_that_seat_cannot_see(table):
    n, seed, challenges, target = table
    full = Counter(W.pack_for(n))

    def compare(state, rng):
        for seat in [*range(n), None]:
            view = E.view(state, seat)
            # A loaded or sampled state was made by no step, so it has no events of its own.
            if seat is not None:
                hidden = hide_differently(state, seat, rng)
                assert without_events(E.view(hidden, seat)) == without_events(view)
            sampled = E.sample_state(view, rng)
            assert cards(sampled) == full
            assert E.view(sampled, seat) == {**view, "events": []}
            for full_event, seen in zip(E.events(state), view["events"], strict=True):
                assert PRIVATE not in seen
                for field in full_event.get(PRIVATE, ()):
                    mine = full_event["seat"] == seat
                    assert seen[field] == (full_event[field] if mine else None)
            if seat is not None and E.awaiting(sampled):
                who = E.awaiting(sampled)[0]
                for move in E.legal_moves(sampled, who):
                    E.apply(sampled, who, move)  # a sampled state plays on

    play_out(n, seed, challenges, target, on_step=compare)


def hand_counts_from_story(story: list[dict], n: int) -> list[int]:
    """Each hand's size, rebuilt from a whole match's events alone."""
    counts = [0] * n
    for event in story:
        kind = event["type"]
        if kind == "deal":
            counts = list(event["hand_counts"])
        elif kind == "draw":
            counts[event["seat"]] += 1
        elif kind in ("play", "prepend"):
            counts[event["seat"]] -= 1
        elif kind == "challenge_result" and not event["stands"]:
            counts[event["seat"]] += 1  # the card goes back to its owner
    return counts


@settings(max_examples=30, deadline=None)
@given(tables)
def test_the_steps_events_tell_the_whole_story_once(table):
    """Each step's events are its own, and strung together they tell the whole match: every
    move and deal shows up once, hand sizes and tricks rebuilt from them alone match the view,
    and the last round's end and the end carry the final scores."""
    n, seed, challenges, target = table
    rng = random.Random(seed)
    state = E.new_game(n, seed, {"challenges": challenges, "target": target})
    story = E.events(state)
    assert [e["type"] for e in story] == ["deal"]
    entries = Counter()
    while not E.is_over(state):
        if E.round_over(state):
            state = E.next_round(state)
            assert [e["type"] for e in E.events(state)] == ["deal"]
            entries["deal"] += 1
        else:
            seat, move = choose(state, rng)
            state = E.apply(state, seat, move)
            own = [e for e in E.events(state) if e["type"] == move["type"]]
            assert len(own) == 1 and own[0]["seat"] == seat
            entries[move["type"]] += 1
        story.extend(E.events(state))
    view = E.view(state, None)
    assert hand_counts_from_story(story, n) == view["hand_counts"]
    kinds = Counter(e["type"] for e in story)
    assert kinds["deal"] == entries["deal"] + 1 == kinds["round_end"] == view["round"]
    assert all(kinds[kind] == count for kind, count in entries.items() if kind != "deal")
    assert kinds["end"] == 1 and story[-1]["type"] == "end"
    assert story[-1]["scores"] == story[-2]["scores"] == E.outcome(state)["scores"]
    last_round = story[len(story) - 1 - [e["type"] for e in reversed(story)].index("deal") :]
    tricks = Counter(e["seat"] for e in last_round if e["type"] == "trick")
    assert [tricks[s] for s in range(n)] == view["tricks"]


def test_a_dump_does_not_grow_with_the_match():
    rng = random.Random(5)
    state = E.new_game(4, 9, {"target": 250})
    sizes = []
    while not E.is_over(state):
        if E.round_over(state):
            state = E.next_round(state)
        else:
            seat, move = choose(state, rng)
            state = E.apply(state, seat, move)
        sizes.append(len(json.dumps(E.dump(state))))
    assert len(sizes) >= 300
    # The old whole-log dump grew by tens of characters a move; now only the position counts.
    assert abs(sizes[299] - sizes[4]) <= 400 and max(sizes) - min(sizes) <= 400
