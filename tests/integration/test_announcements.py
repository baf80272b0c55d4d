"""What a screen reader is told of a table (docs/accessibility.md): each line of the log the
page carries has a key for the whole match (``li[data-line]``), the same in every render for
the same reader, so the page tells each line once; a move's answer keys its new lines as the
next full table does; the reader's own move and phrase are marked ``data-own``; and the lines
are the log's own, redacted for each reader (a seat, the other seat, a watcher)."""

from __future__ import annotations

import re

import pytest

from games import tasks
from games.models import Match
from games.services import match_create
from tests import factories
from tests.factories import LogItem, log_items

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
NAMES = {0: "ann", 1: "bea"}


def _page(client, match: Match) -> list[LogItem]:
    return log_items(client.get(f"/matches/{match.pk}/").content.decode())


def _faraway(ann, bea, ann_client, bea_client) -> tuple[Match, dict]:
    match = factories.match_make(game="faraway", players=[ann, bea], seed=2)
    return match, {0: ann_client, 1: bea_client}


def test_every_line_has_its_own_key_and_a_render_again_keeps_them(ann, bea, ann_client, bea_client):
    match, clients = _faraway(ann, bea, ann_client, bea_client)
    for _ in range(6):
        seat = factories.awaited_seat(match)
        factories.post_move(clients[seat], match, factories.legal_moves(match, seat)[0])
    match.refresh_from_db()
    first = _page(bea_client, match)
    assert len(first) > 6
    assert len({item.key for item in first}) == len(first)
    assert _page(bea_client, match) == first  # the same version again: the same keys
    # The poll's partial (a page a version behind) keys its lines as the whole page does.
    poll = bea_client.get(f"/matches/{match.pk}/table/?version=1", headers=HTMX)
    assert log_items(poll.content.decode()) == first


def test_a_moves_answer_keys_its_lines_as_every_later_table_does(ann, bea, ann_client, bea_client):
    match, clients = _faraway(ann, bea, ann_client, bea_client)
    seat = factories.awaited_seat(match)
    mover, other = clients[seat], clients[1 - seat]
    before = {item.key: item.text for item in _page(other, match)}
    answer = factories.post_move(mover, match, {"type": "draw", "source": "pack"})
    told = log_items(answer.content.decode())  # the new lines only, newest first
    assert told and not set(before).intersection(item.key for item in told)
    assert told[-1].own and not any(item.own for item in told[:-1])  # consequences are news
    match.refresh_from_db()
    assert [i for i in _page(mover, match) if i.key in {t.key for t in told}] == told
    after = _page(other, match)
    new = [item for item in after if item.key not in before]
    assert new and {item.key for item in new} <= {item.key for item in told}
    assert not any(item.own for item in after)  # nothing of hers in it
    assert all(before[i.key] == i.text for i in after if i.key in before)  # a key keeps its words


def test_the_lines_told_are_redacted_for_each_reader(
    ann, bea, cal, ann_client, bea_client, cal_client
):
    match, clients = _faraway(ann, bea, ann_client, bea_client)
    seat = factories.awaited_seat(match)
    name = NAMES[seat]
    answer = factories.post_move(clients[seat], match, {"type": "draw", "source": "pack"})
    drawn = log_items(answer.content.decode())[-1]
    assert re.fullmatch(rf"{name} drew ((?:Penalty P|\d ).+) from the pack\.", drawn.text)
    match.refresh_from_db()
    for reader in (clients[1 - seat], cal_client):  # the other seat, a watcher
        heard = {item.key: item for item in _page(reader, match)}
        assert heard[drawn.key].text == f"{name} drew from the pack."
        assert not heard[drawn.key].own


def test_each_phrase_is_its_own_line_though_its_words_repeat(ann, bea, ann_client, bea_client):
    match, _ = _faraway(ann, bea, ann_client, bea_client)
    for key in ("good_luck", "thanks", "good_luck"):
        said = ann_client.post(f"/matches/{match.pk}/phrase/", {"phrase": key}, headers=HTMX)
        assert said.status_code == 200
    match.refresh_from_db()
    heard = [item for item in _page(bea_client, match) if item.said]
    assert [item.text for item in heard] == [
        "ann: “Good luck”",
        "ann: “Thanks”",
        "ann: “Good luck”",
    ]
    assert len({item.key for item in heard}) == 3 and not any(item.own for item in heard)
    own = [item for item in _page(ann_client, match) if item.said]
    assert [item.key for item in own] == [item.key for item in heard]
    assert all(item.own for item in own)


def test_a_rounds_score_is_a_new_line_of_its_own(ann, ann_client):
    """Gulliver's round end (each seat's held cards and score) is told like a move: its line has
    a key no render before it had."""
    match = match_create(
        game="gulliver",
        num_players=3,
        created_by=ann,
        bots={0: "greedy", 1: "greedy", 2: "greedy"},
        creator_plays=False,
    )
    before: list[LogItem] = []
    for _ in range(500):
        match.refresh_from_db()
        if not match.awaiting:
            break
        before = _page(ann_client, match)
        tasks.bot_turn.apply((match.pk, match.version), throw=True)
    after = _page(ann_client, match)
    seen = {item.key for item in before}
    new = [item for item in after if item.key not in seen]
    scored = [item for item in new if item.text.startswith("Round 1 is over")]
    assert len(scored) == 1 and scored[0].key.startswith(f"{match.ply}.")
    assert not any(item.own for item in after)  # a watcher owns nothing
