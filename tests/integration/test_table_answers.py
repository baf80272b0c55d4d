"""The table answers every click (issue 33): a card or pile that offers no move carries the
reason in words (the engine's own refusal, or who is awaited), and only the clicker's hand and
public facts go into it."""

from __future__ import annotations

import html
import re

import pytest

from games.engines import get_engine
from games.models import Match
from games.presentation.reasons import reason_words, refusals_words
from tests import factories

pytestmark = pytest.mark.django_db


def _page(client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _reasons(page: str) -> list[str]:
    return [html.unescape(r) for r in re.findall(r'data-why="([^"]*)"', page)]


def _clients(match: Match, ann, bea, ann_client, bea_client):
    """(the awaited seat's user and client, the other's)."""
    seat = factories.awaited_seat(match)
    users = [(ann, ann_client), (bea, bea_client)]
    return users[seat], users[1 - seat]


def test_faraway_before_the_draw_every_card_says_draw_first_and_the_pack_draws(
    ann, bea, ann_client, bea_client
):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    (_, mover), (other_user, other) = _clients(match, ann, bea, ann_client, bea_client)
    page = _page(mover, match)
    hand = re.search(r'<section class="hand".*?</section>', page, re.S).group(0)
    assert _reasons(hand), "an unplayable card carries its reason"
    assert set(_reasons(hand)) == {"Draw first: your turn starts with the draw."}
    assert hand.count('aria-disabled="true"') == len(_reasons(hand))
    assert 'aria-describedby="why-hand-0"' in hand and 'id="why-hand-0"' in hand
    # The pack acts: a click presses the offered draw.
    assert (
        'data-click-move="{&quot;source&quot;:&quot;pack&quot;,&quot;type&quot;:&quot;draw&quot;}"'
        in page
    )
    # The other seat's cards and piles say whose turn it is, by name.
    awaited = (ann if other_user is bea else bea).username
    theirs = set(_reasons(_page(other, match)))
    assert theirs == {f"It is not your turn: waiting for {awaited}."}


def test_faraway_after_the_draw_the_pack_says_you_have_drawn(ann, bea, ann_client, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    (_, mover), _ = _clients(match, ann, bea, ann_client, bea_client)
    response = factories.post_move(mover, match, {"type": "draw", "source": "pack"})
    assert response.status_code == 200
    # The move's own answer carries the reasons too (no query added: test_moves counts them).
    answer = response.content.decode()
    pack = re.search(r'<div class="pile pack[^>]*>', answer).group(0)
    assert 'data-why="You have already drawn this turn."' in pack
    assert "data-click-move" not in answer
    match.refresh_from_db()
    engine = get_engine("faraway")
    state = engine.load(match.state)
    seat = factories.awaited_seat(match)
    expected = refusals_words(engine.refusals(state, seat))
    page = _page(mover, match)
    for card, why in expected.items():
        if card in state.hands[seat]:
            assert f'data-why="{html.escape(why)}"' in page


def test_gulliver_a_word_that_cannot_go_in_gives_the_referees_reason(
    ann, bea, ann_client, bea_client
):
    for seed in range(40):
        match = factories.match_make(game="gulliver", players=[ann, bea], seed=seed)
        engine = get_engine("gulliver")
        state = engine.load(match.state)
        seat = factories.awaited_seat(match)
        refused = {
            card: reason_words(engine.explain(state, seat, {"type": "play", "card": card}))
            for card in state.hands[seat]
            if {"type": "play", "card": card} not in engine.legal_moves(state, seat)
            and card not in engine.view(state, seat)["prependable"]
        }
        if refused:
            break
    else:
        pytest.fail("no deal left the first player a card that cannot start the sentence")
    (_, mover), (_, other) = _clients(match, ann, bea, ann_client, bea_client)
    reasons = _reasons(_page(mover, match))
    assert sorted(reasons) == sorted(
        why for card in state.hands[seat] for c, why in refused.items() if c == card
    )
    assert all(why.startswith("A sentence starts with a noun") for why in reasons)
    assert all(r.startswith("It is not your turn") for r in _reasons(_page(other, match)))


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_a_spectator_and_a_replay_carry_no_reasons(game, ann, bea, ann_client, cal_client):
    match = factories.match_make(game=game, players=[ann, bea], seed=3)
    assert "data-why" not in _page(cal_client, match)
    replay = ann_client.get(f"/matches/{match.pk}/replay/?ply=0")
    assert replay.status_code == 200
    assert "data-why" not in replay.content.decode()


# -- the play settings (docs/accounts.md, "Play settings") ---------------------------------------


def test_play_settings_default_save_show_and_refuse_garbage(ann, ann_client):
    from accounts.models import PlaySettings
    from accounts.selectors.play_settings import play_choices

    assert play_choices(ann.pk).confirm_moves == "auto"
    assert play_choices(ann.pk).next_table_at_once is False
    page = ann_client.get("/accounts/").content.decode()
    assert 'id="account-play"' in page and "On a touch screen only" in page
    response = ann_client.post(
        "/accounts/play/", {"confirm_moves": "on", "next_table_at_once": "on"}
    )
    assert response.status_code == 302 and response["Location"].endswith("#account-play")
    assert play_choices(ann.pk).confirm_moves == "on"
    assert play_choices(ann.pk).next_table_at_once is True
    for garbage in ({"confirm_moves": "sometimes"}, {}, {"confirm_moves": ["on", "x" * 5000]}):
        refused = ann_client.post("/accounts/play/", garbage)
        assert refused.status_code == 400
        assert "Nothing changed" in refused.content.decode()
    assert list(PlaySettings.objects.values_list("confirm_moves", "next_table_at_once")) == [
        ("on", True)
    ]
    off = ann_client.post("/accounts/play/", {"confirm_moves": "off"})
    assert off.status_code == 302
    assert play_choices(ann.pk) == type(play_choices(ann.pk))("off", False)


def test_the_table_page_carries_the_seats_play_settings_and_a_spectators_none(
    ann, bea, ann_client, cal_client
):
    from accounts.services.play_settings import play_settings_save

    play_settings_save(user_id=ann.pk, confirm_moves="on", next_table_at_once=True)
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    page = _page(ann_client, match)
    assert 'data-confirm-moves="on"' in page and 'data-next-at-once="true"' in page
    assert f'data-url="/notices/next/?after={match.pk}"' in page
    watcher = _page(cal_client, match)
    assert "play-choices" not in watcher and 'id="next-table"' not in watcher


def test_the_move_post_carries_no_play_settings(ann, bea, ann_client, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    (_, mover), _ = _clients(match, ann, bea, ann_client, bea_client)
    answer = factories.post_move(mover, match, {"type": "draw", "source": "pack"})
    assert answer.status_code == 200
    assert "play-choices" not in answer.content.decode()


def test_a_deleted_accounts_play_settings_go(ann):
    from accounts.models import PlaySettings
    from accounts.services.deletion import account_delete
    from accounts.services.play_settings import play_settings_save

    play_settings_save(user_id=ann.pk, confirm_moves="off", next_table_at_once=True)
    account_delete(user=ann)
    assert not PlaySettings.objects.filter(user_id=ann.pk).exists()


# -- the next table waiting -------------------------------------------------------------------


def test_next_table_names_the_longest_waiting_other_match_and_counts_them(
    ann, bea, cal, ann_client, bea_client, cal_client
):
    from games.selectors.notices import next_table

    matches = [
        factories.match_make(game="faraway", players=[ann, bea], seed=seed) for seed in range(8)
    ]
    ann_waits = [m for m in matches if factories.awaited_seat(m) == 0]
    assert len(ann_waits) >= 3
    here, *others = ann_waits
    found = next_table(ann.pk, after=here.pk)
    assert found is not None and found.waiting == len(others)
    # Longest waiting first, as the notices' turns list orders them.
    seats = {s.match_id: s.awaited_since for s in ann.seats.filter(match__in=others)}
    assert found.match_id == min(others, key=lambda m: (seats[m.pk], m.pk)).pk
    response = ann_client.get(f"/notices/next/?after={here.pk}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    link = response.content.decode()
    assert f'href="/matches/{found.match_id}/"' in link
    assert f"Next table waiting ({len(others)})" in link
    # Without ``after`` every waiting match counts; garbage reads as none.
    for after in ("", "garbage", "-1", "9" * 40):
        whole = ann_client.get(f"/notices/next/?after={after}").content.decode()
        assert f"Next table waiting ({len(ann_waits)})" in whole
    # cal sits nowhere: nothing waits for him, and nothing of ann's is named.
    assert cal_client.get("/notices/next/").content.decode().strip() == ""
