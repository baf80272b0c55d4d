"""Properties of the Faraway Tree engine over random legal play (bounded hypothesis runs)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.engines.base import PRIVATE
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
        assert ENG.events(ENG.apply(state, seat, move)) == ENG.events(states[i + 1])
    assert "events" not in ENG.dump(final)


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
    discard pile is public (every card in it was laid face up), and so are the cards a seat is
    known to hold (taken from it in view of all): both stay where they are."""
    out = {**dump, "hands": [list(h) for h in dump["hands"]]}
    others = [s for s in range(dump["num_players"]) if s != seat]
    unseen = {s: Counter(out["hands"][s]) - Counter(dump["known_cards"][s]) for s in others}
    hidden = [c for s in others for c in unseen[s].elements()] + out["pack"]
    rng.shuffle(hidden)
    pos = 0
    for s in others:
        k = sum(unseen[s].values())
        out["hands"][s] = list(dump["known_cards"][s]) + hidden[pos : pos + k]
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
            # A loaded state was made by no step, so it has no events: compare the rest, and
            # check the step's events hide every private field of another seat's event.
            assert without_events(ENG.view(other, seat)) == without_events(ENG.view(state, seat))
            assert ENG.view(other, seat)["events"] == []
            shown = ENG.view(state, seat)["events"]
            for full, seen in zip(ENG.events(state), shown, strict=True):
                assert PRIVATE not in seen
                for field in full.get(PRIVATE, ()):
                    assert seen[field] == (full[field] if full["seat"] == seat else None)


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_known_cards_survive_dump_and_load_and_stay_in_their_hands(game, pick):
    n, seed, dealer = game
    _, _, states = play_out(n, seed, dealer, pick)
    for state in states[::5]:
        view = ENG.view(state, None)
        again = ENG.load(json.loads(json.dumps(ENG.dump(state))))
        assert ENG.view(again, None)["known_cards"] == view["known_cards"]
        for known, hand in zip(view["known_cards"], ENG.dump(state)["hands"], strict=True):
            assert known == sorted(known) and not Counter(known) - Counter(hand)


def known_from_story(events: list[dict], n: int) -> list[list[str]]:
    """The table's knowledge by its definition, read off a whole game's events."""
    known = [Counter() for _ in range(n)]
    for event in events:
        seat = event["seat"]
        if event["type"] == "draw" and event["source"] == "discard":
            known[seat].update(event["cards"])
        elif event["type"] in ("play", "penalty", "discard") and known[seat][event["card"]]:
            known[seat][event["card"]] -= 1
    return [sorted(k.elements()) for k in known]


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_the_steps_events_tell_the_whole_story_once(game, pick):
    """Each step's events are that step's alone, and strung together they tell the whole game:
    hands, rows, the discard pile, the pack count and the known cards rebuilt from them alone
    match the final position, and every move shows up as exactly one event of its own."""
    n, seed, dealer = game
    final, log, states = play_out(n, seed, dealer, pick)
    story = ENG.events(states[0])
    assert [e["type"] for e in story] == ["deal", *["hand"] * n, "turn_up"]
    for (seat, move), after in zip(log, states[1:], strict=True):
        step = ENG.events(after)
        own = [e for e in step if e["type"] == move["type"]]
        assert len(own) == 1 and own[0]["seat"] == seat
        story.extend(step)
    hands = [Counter() for _ in range(n)]
    rows = [0] * n
    pile: list[str] = []  # top last
    pack = 44 - 6 * n - 1
    for event in story:
        kind, seat = event["type"], event["seat"]
        if kind == "hand":
            hands[seat].update(event["cards"])
        elif kind == "turn_up":
            pile.append(event["card"])
        elif kind == "draw":
            hands[seat].update(event["cards"])
            if event["source"] == "pack":
                pack -= event["count"]
            else:
                taken = {len(pile) - 1 - p for p in event["positions"]}
                assert [pile[i] for i in sorted(taken, reverse=True)] == event["cards"]
                pile = [c for i, c in enumerate(pile) if i not in taken]
        elif kind in ("play", "penalty", "discard"):
            hands[seat][event["card"]] -= 1
            rows[seat] += kind == "play"
            if kind == "discard":
                pile.append(event["card"])
        elif kind == "reshuffle":
            assert event["count"] == len(pile)
            pack, pile = event["count"] - 1, [event["up"]]
    dump = ENG.dump(final)
    assert [sorted(h.elements()) for h in hands] == [sorted(h) for h in dump["hands"]]
    assert rows == dump["rows"]
    assert pile[::-1] == dump["discards"] and pack == len(dump["pack"])
    assert known_from_story(story, n) == ENG.view(final, None)["known_cards"]
    moves_by_type = Counter(move["type"] for _, move in log)
    events_by_type = Counter(e["type"] for e in story)
    assert all(events_by_type[kind] == count for kind, count in moves_by_type.items())


def test_a_dump_does_not_grow_with_the_match():
    rng = random.Random(3)
    state = ENG.new_game(4, 11)
    sizes = []
    while not ENG.is_over(state):
        (seat,) = ENG.awaiting(state)
        state = ENG.apply(state, seat, rng.choice(ENG.legal_moves(state, seat)))
        sizes.append(len(json.dumps(ENG.dump(state))))
    assert len(sizes) >= 300
    # The old whole-log dump grew by about 50 characters a move; now only the position counts.
    assert abs(sizes[299] - sizes[4]) <= 400 and max(sizes) - min(sizes) <= 400


def victims_by_the_rule(view: dict) -> dict[str, int]:
    """docs/rulings.md restated on a view: each Penalty in hand goes to the nearest seat to the
    viewer's left whose highest story card bears its number and who carries no Penalty."""
    seat, n = view["seat"], view["num_players"]
    out = {}
    for card in view["hand"]:
        if card.startswith("P"):
            for k in range(1, n):
                other = (seat + k) % n
                if len(view["rows"][other]) == int(card[1:]) and view["penalties"][other] is None:
                    out[card] = other
                    break
    return out


@BOUNDED
@given(games, st.integers(min_value=0, max_value=2**32))
def test_penalty_victims_name_the_seat_apply_hits(game, pick):
    n, seed, dealer = game
    final, log, states = play_out(n, seed, dealer, pick)
    assert ENG.view(states[0], None)["penalty_victims"] == {}
    assert all(ENG.view(final, s)["penalty_victims"] == {} for s in range(n))
    for state, (seat, _move) in zip(states, log, strict=False):
        for viewer in range(n):
            view = ENG.view(state, viewer)
            assert view["penalty_victims"] == victims_by_the_rule(view)
        view = ENG.view(state, seat)
        if view["phase"] != "play" or view["penalty_played"]:
            continue
        victims = view["penalty_victims"]
        penalties = [m for m in view["legal_moves"] if m["type"] == "penalty"]
        assert {m["card"] for m in penalties} == set(victims)
        for move in penalties:
            events = ENG.events(ENG.apply(state, seat, move))
            assert [e["victim"] for e in events if e["type"] == "penalty"] == [
                victims[move["card"]]
            ]


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
            assert ENG.view(sampled, viewer) == {**view, "events": []}
            assert cards_in(ENG.dump(sampled)) == Counter(PACK)
            # a determinization is a real position: random play from it runs to the end
            for _ in range(MAX_MOVES):
                if ENG.is_over(sampled):
                    break
                (mover,) = ENG.awaiting(sampled)
                sampled = ENG.apply(sampled, mover, rng.choice(ENG.legal_moves(sampled, mover)))
            assert ENG.is_over(sampled)
