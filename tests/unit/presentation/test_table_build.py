"""``table_build``: the event log from the logged moves, the notes, the cap, the read-only table,
the penalty labels and the templates the table names. Views come from the engines or by hand."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from games.engines import ENGINE_NAMES, faraway_cards, get_engine
from games.presentation import BUILDERS, EVENT_LOG_LENGTH, LogEntry, gulliver, table_build
from games.presentation.common import auto_note
from tests.unit.presentation.helpers import NAMES, random_play
from tests.unit.purity import FRAMEWORK_ROOTS, GAMES, forbidden_imports

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
GAMES_OPTIONS = [("faraway", {}), ("gulliver", {"target": 60, "challenges": True})]


def _pass(seat: int) -> dict:
    return {"type": "pass", "seat": seat}


def _gulliver_table(log: list[LogEntry], seat: int | None = 0) -> dict:
    engine = get_engine("gulliver")
    view = engine.view(engine.new_game(2, 1, {"target": 60}), seat)
    return table_build("gulliver", view=view, names=NAMES[:2], log=log)


def test_there_is_one_builder_per_engine():
    assert set(BUILDERS) == set(ENGINE_NAMES)


def test_presentation_imports_no_framework():
    """A view and a log in, words out: the replay viewer and the e-mails use it outside a
    request, and the selectors, not presentation, decide what a seat may read. Its one use of
    Django is gettext (``django.utils.translation``), which needs no request either: words
    come out in the language active (docs/translation.md)."""
    found = forbidden_imports(GAMES / "presentation", FRAMEWORK_ROOTS)
    assert [f for f in found if not f.endswith(" imports django.utils.translation")] == []


def test_an_auto_note_follows_the_first_line_of_its_entry():
    log = [
        LogEntry(0, [_pass(0)]),
        LogEntry(1, [_pass(1), {"type": "draw", "seat": 1, "card": None}], auto="deadline"),
        LogEntry(0, [{"type": "vote", "seat": 0, "accept": True}], auto="vote_closed"),
    ]
    assert _gulliver_table(log)["events"] == [
        "Ann passed.",
        "Bea passed.",
        auto_note("deadline", "Bea"),
        "Bea drew from the stack.",
        "Ann voted: it stands.",
        auto_note("vote_closed", "Ann"),
    ]
    assert auto_note("deadline", "Bea") == ("The greedy bot played for Bea (turn deadline passed).")


def test_a_note_keeps_its_place_when_its_first_event_says_nothing_to_this_seat():
    # Seat 1's private deal reads as nothing to seat 0; the note still sits right after it.
    hidden = {"type": "hand", "seat": 1, "cards": None}
    log = [LogEntry(1, [hidden, {"type": "play", "seat": 1, "card": "1"}], auto="deadline")]
    engine = get_engine("faraway")
    view = engine.view(engine.new_game(2, 3, {}), 0)
    lines = table_build("faraway", view=view, names=NAMES[:2], log=log)["events"]
    assert lines == [auto_note("deadline", "Bea"), "Bea laid 1 The Enchanted Wood."]


def test_the_log_shows_the_latest_events_only():
    # Two events per entry, each entry noted: the cap counts events, not entries or lines.
    entries = EVENT_LOG_LENGTH // 2 + 5
    log = [
        LogEntry(i % 2, [_pass(i % 2), {"type": "out", "seat": i % 2}], auto="deadline")
        for i in range(entries)
    ]
    log.insert(0, LogEntry(None, [{"type": "round_end", "round": 1}]))
    lines = _gulliver_table(log)["events"]
    events = [line for line in lines if not line.startswith("The greedy bot")]
    assert len(events) == EVENT_LOG_LENGTH
    assert not any(line.startswith("Round 1") for line in lines)  # the oldest fell off
    assert events[-1] == f"{NAMES[(entries - 1) % 2]} has played their last card."
    assert len(lines) - len(events) == EVENT_LOG_LENGTH // 2  # one note per whole entry kept


def test_the_cap_cuts_an_entry_after_its_first_event_and_drops_its_note():
    log = [LogEntry(1, [_pass(1), _pass(1)], auto="deadline")]
    log += [LogEntry(0, [_pass(0)]) for _ in range(EVENT_LOG_LENGTH - 1)]
    lines = _gulliver_table(log)["events"]
    assert lines == ["Bea passed."] + ["Ann passed."] * (EVENT_LOG_LENGTH - 1)


def test_a_short_log_shows_every_event_from_the_deal_on():
    state, log = random_play("faraway", 2, 5, {}, viewer=0, max_steps=4)
    engine = get_engine("faraway")
    lines = table_build("faraway", view=engine.view(state, 0), names=NAMES[:2], log=log)["events"]
    assert lines[0] == f"{NAMES[engine.view(state, 0)['dealer']]} dealt 6 cards to each player."
    assert lines[1].startswith("Ann was dealt ")
    assert not any(line.startswith("Bea was dealt") for line in lines)  # Bea's hand stays hers


@pytest.mark.parametrize(("game", "options"), GAMES_OPTIONS)
def test_a_read_only_table_offers_no_moves(game, options):
    engine = get_engine(game)
    state, log = random_play(game, 3, 2, options, viewer=None, max_steps=12)
    seat = engine.awaiting(state)[0]
    log = [LogEntry(entry.seat, engine.redact(entry.events, seat)) for entry in log]
    view = engine.view(state, seat)
    assert view["legal_moves"]
    live = table_build(game, view=view, names=NAMES[:3], log=log)
    still = table_build(game, view=view, names=NAMES[:3], log=log, interactive=False)
    assert live["bar_moves"] or any(slot.moves for slot in live["hand"])
    slots = still["hand"] + still.get("discards", [])
    assert still["bar_moves"] == [] and all(slot.moves == [] for slot in slots)
    assert [s.face for s in still["hand"]] == [s.face for s in live["hand"]]
    assert still["players"] == live["players"] and still["events"] == live["events"]
    assert "data-move" not in _render(still)


def test_the_round_result_comes_from_the_step_that_ended_the_round():
    engine = get_engine("gulliver")
    state, log = random_play("gulliver", 3, 4, {"target": 60}, viewer=0, until=engine.round_over)
    assert engine.round_over(state)
    expected = gulliver.event_line(
        next(e for e in log[-1].events if e["type"] == "round_end"), NAMES[:3]
    )
    assert expected.startswith("Round 1 is over")
    # A state read back from storage carries no events: the log's newest entry has them.
    stored = engine.view(engine.load(engine.dump(state)), 0)
    assert stored["events"] == []
    table = table_build("gulliver", view=stored, names=NAMES[:3], log=log)
    assert table["round_over"] and table["round_result"] == expected
    # A state straight from the step (a replay frame) carries them itself.
    live = table_build("gulliver", view=engine.view(state, 0), names=NAMES[:3], log=[])
    assert live["round_result"] == expected


def _faraway_penalty_view(victims: dict[str, int]) -> dict:
    """Seat 0 holding P3, a view written by hand: who it hits is the engine's word alone."""
    return {
        "seat": 0,
        "hand": ["P3", "2"],
        "hand_counts": [2, 5, 5],
        "rows": [["1"], ["1", "2", "3"], ["1", "2", "3"]],
        "penalties": [None, None, None],
        "discards": ["4"],
        "awaiting": [0],
        "legal_moves": [{"type": "penalty", "card": "P3"}, {"type": "discard", "card": "2"}],
        "penalty_victims": victims,
        "over": False,
    }


@pytest.mark.parametrize(("victims", "short"), [({"P3": 2}, "on Cal"), ({"P3": 1}, "on Bea")])
def test_the_penalty_button_names_the_victim_the_view_gives(victims, short):
    table = table_build("faraway", view=_faraway_penalty_view(victims), names=NAMES[:3], log=[])
    (button,) = table["hand"][0].moves
    assert button.label == f"Penalty {short}"
    assert button.aria_label == f"Play {faraway_cards.card_name('P3')} {short}"


def test_without_a_victim_in_the_view_the_penalty_button_names_nobody():
    table = table_build("faraway", view=_faraway_penalty_view({}), names=NAMES[:3], log=[])
    (button,) = table["hand"][0].moves
    assert button.label == "Penalty"


@pytest.mark.parametrize(("game", "options"), GAMES_OPTIONS)
def test_the_templates_the_table_names_exist(game, options):
    state, log = random_play(game, 2, 0, options, viewer=0)
    table = table_build(game, view=get_engine(game).view(state, 0), names=NAMES[:2], log=log)
    assert (TEMPLATES / table["board_template"]).is_file()
    faces = [face for p in table["players"] for face in p.get("row") or p["final_hand"] or []]
    assert faces
    assert all((TEMPLATES / face["template"]).is_file() for face in faces)


def test_the_gulliver_header_cell_prints_the_finished_label_and_badges():
    table = _gulliver_table([])
    dealer = next(p["index"] for p in table["players"] if p["is_dealer"])
    cells = re.findall(r'data-seat="\d">\s*<th scope="row">(.*?)</th>', _render(table))
    assert [cell.split(" <")[0] for cell in cells] == ["Ann (you)", "Bea"]
    for seat, cell in enumerate(cells):
        badges = re.findall(r' <span class="([^"]+)">([^<]+)</span>', cell)
        expected = [("badge", "dealer")] if seat == dealer else []
        if NAMES[seat] in table["awaiting_names"]:
            expected.append(("badge turn", "to move"))
        assert badges == expected


def test_cards_are_drawn_by_their_own_games_template():
    faraway_html = _render(
        table_build("faraway", view=_faraway_penalty_view({}), names=NAMES[:3], log=[])
    )
    assert 'class="card fw fw-penalty fw-n3" role="img"' in faraway_html
    assert 'class="card fw fw-story fw-n1 small" role="img" aria-label="1 ' in faraway_html
    gulliver_html = _render(_gulliver_table([]))
    gulliver_card = r'class="card gv pos-[a-z]+" role="img" aria-label="[^"]+, [^"]+"'
    assert re.search(gulliver_card, gulliver_html)
    assert "fw-" not in gulliver_html and "card gv" not in faraway_html


def _render(table: dict) -> str:
    context = {"table": table, "match": SimpleNamespace(pk=1, version=1)}
    return render_to_string(table["board_template"], context, request=RequestFactory().get("/"))
