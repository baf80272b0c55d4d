"""Table phrases (docs/phrases.md): the list, the rules of saying one, who sees it, where the
log puts it, and what it costs the table, the poll and a move."""

from __future__ import annotations

import datetime
import html
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import NotificationSettings
from accounts.services.relations import block_add
from games.engines import registered
from games.models import Match, TablePhrase
from games.phrases import COMMON_PHRASES, PHRASES_PER_MINUTE, game_phrases
from games.services import Rejected
from games.services.phrases import NOT_ON_LIST, NOT_SEATED, REPEATED, TOO_MANY, phrase_say
from tests import factories

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def _say(client, match: Match, key: str, *, htmx: bool = True):
    headers = HTMX if htmx else {}
    return client.post(f"/matches/{match.pk}/phrase/", {"phrase": key}, headers=headers)


def _log(client, match: Match) -> list[str]:
    """The table log's lines as the person sees them, newest first."""
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert page.count('id="event-log"') == 1
    log = page[page.index('id="event-log"') :]
    log = log[: log.index("</ol>")]
    items = factories.log_items(log)
    # a phrase's line, and only a phrase's, is marked as said
    assert all(item.said == ("“" in item.text) for item in items)
    return [item.text for item in items]


def _quoted(name: str, words: str) -> str:
    return f"{name}: “{words}”"


# The list ------------------------------------------------------------------------------------


def test_every_game_offers_the_six_common_phrases_then_its_own_with_distinct_keys():
    assert [words for _, words in COMMON_PHRASES] == [
        "Good luck",
        "Well played",
        "Thanks",
        "Oops",
        "Your turn!",
        "Good game",
    ]
    for engine in registered():
        phrases = game_phrases(engine.name)
        keys = [key for key, _ in phrases]
        assert phrases[: len(COMMON_PHRASES)] == COMMON_PHRASES
        assert len(keys) == len(set(keys)), engine.name
        assert all(len(key) <= 30 for key in keys)  # TablePhrase.key
    assert len(game_phrases("faraway")) > len(COMMON_PHRASES)
    assert len(game_phrases("gulliver")) > len(COMMON_PHRASES)


# Saying one ----------------------------------------------------------------------------------


def test_a_seat_says_a_phrase_without_making_the_match_stale(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=3)
    version = match.version
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    match.refresh_from_db()
    assert (match.version, match.phrase_count) == (version, 1)
    row = TablePhrase.objects.get(match=match)
    assert (row.user_id, row.seat, row.ply, row.key) == (ann.pk, 0, match.ply, "good_luck")


def _refused(match: Match, user, key: str, status: int, message: str) -> None:
    before = (TablePhrase.objects.count(), Match.objects.get(pk=match.pk).phrase_count)
    with pytest.raises(Rejected) as caught:
        phrase_say(match_id=match.pk, user=user, key=key)
    assert (caught.value.status, caught.value.message) == (status, message)
    assert (TablePhrase.objects.count(), Match.objects.get(pk=match.pk).phrase_count) == before


def test_refusals_change_nothing(ann, bea, cal):
    match = factories.match_make(players=[ann, bea], seed=3)
    _refused(match, cal, "good_luck", 403, NOT_SEATED)
    _refused(match, ann, "hello there", 400, NOT_ON_LIST)
    _refused(match, ann, "fair_winds", 400, NOT_ON_LIST)  # Gulliver's, not the Faraway Tree's
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    _refused(match, ann, "good_luck", 409, REPEATED)
    phrase_say(match_id=match.pk, user=bea, key="good_luck")  # another person may say it


def test_at_most_three_a_minute_then_again(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=3)
    keys = ["good_luck", "thanks", "oops", "well_played"]
    for key in keys[:PHRASES_PER_MINUTE]:
        phrase_say(match_id=match.pk, user=ann, key=key)
    _refused(match, ann, keys[PHRASES_PER_MINUTE], 429, TOO_MANY)
    phrase_say(match_id=match.pk, user=bea, key="thanks")  # a limit per person
    earlier = datetime.timedelta(seconds=61)
    first = TablePhrase.objects.filter(user=ann).order_by("id").first()
    TablePhrase.objects.filter(pk=first.pk).update(said_at=first.said_at - earlier)
    phrase_say(match_id=match.pk, user=ann, key=keys[PHRASES_PER_MINUTE])


def test_no_phrase_at_a_waiting_or_cancelled_table(ann, bea):
    waiting = factories.match_make(players=[ann], seats=2)
    _refused(
        waiting, ann, "good_luck", 409, "Phrases are said at a table in play or just finished."
    )
    Match.objects.filter(pk=waiting.pk).update(status=Match.Status.CANCELLED)
    _refused(
        waiting, ann, "good_luck", 409, "Phrases are said at a table in play or just finished."
    )


def test_good_game_at_a_finished_table(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=3)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    phrase_say(match_id=match.pk, user=bea, key="good_game")
    assert TablePhrase.objects.filter(match=match, key="good_game").exists()


# The view ------------------------------------------------------------------------------------


def test_plain_form_redirects_and_htmx_swaps_the_table_in(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=3)
    plain = _say(ann_client, match, "good_luck", htmx=False)
    assert plain.status_code == 302 and plain["Location"] == f"/matches/{match.pk}/"
    swapped = _say(ann_client, match, "thanks")
    body = swapped.content.decode()
    assert swapped.status_code == 200 and body.lstrip().startswith('<section id="table"')
    assert _quoted("ann", "Thanks") in body and _quoted("ann", "Good luck") in body
    assert f"?version={match.version}&amp;phrases=2" in body


@pytest.mark.parametrize("htmx", [True, False])
def test_refusals_answer_the_table_with_the_message(ann, bea, ann_client, htmx):
    match = factories.match_make(players=[ann, bea], seed=3)
    _say(ann_client, match, "oops")
    again = _say(ann_client, match, "oops", htmx=htmx)
    assert again.status_code == 409
    assert str(REPEATED) in again.content.decode()
    garbage = _say(ann_client, match, "x" * 500, htmx=htmx)
    assert garbage.status_code == 400
    assert "Pick one of the table&#x27;s phrases." in garbage.content.decode()
    assert TablePhrase.objects.count() == 1


def test_a_fourth_phrase_by_htmx_is_a_429_whose_table_htmx_swaps_in(ann, bea, ann_client):
    """Issue 33 bug 4: the 429 carries the table with the documented words, and the page's
    htmx config swaps a 429 in (it did not: the words never showed, a generic notice did)."""
    match = factories.match_make(players=[ann, bea], seed=3)
    for key in ("good_luck", "well_played", "thanks"):
        assert _say(ann_client, match, key).status_code == 200
    refused = _say(ann_client, match, "oops")
    assert refused.status_code == 429
    body = refused.content.decode()
    assert body.lstrip().startswith('<section id="table"')
    assert f'id="move-error">{TOO_MANY}<' in body
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    config = json.loads(
        html.unescape(re.search(r'name="htmx-config" content=\'([^\']*)\'', page)[1])
    )
    swapped = [r for r in config["responseHandling"] if r["swap"]]
    first = next(r for r in config["responseHandling"] if re.fullmatch(r["code"], "429"))
    assert first in swapped and first.get("error") is False
    assert TablePhrase.objects.filter(match=match).count() == 3


def test_outsiders_get_404_on_a_private_match_and_403_on_a_public_one(ann, bea, cal_client):
    private = factories.match_make(players=[ann, bea], seed=3, public=False)
    assert _say(cal_client, private, "good_luck").status_code == 404
    public = factories.match_make(players=[ann, bea], seed=3)
    refused = _say(cal_client, public, "good_luck")
    assert refused.status_code == 403 and str(NOT_SEATED) in refused.content.decode()
    assert TablePhrase.objects.count() == 0


def test_the_picker_is_offered_to_seats_only(ann, bea, ann_client, cal_client):
    match = factories.match_make(players=[ann, bea], seed=3)
    seated = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="phrase-picker"' in seated
    for key, words in game_phrases("faraway"):
        assert f'<option value="{key}">{words}</option>' in seated
    assert 'id="phrase-picker"' not in cal_client.get(f"/matches/{match.pk}/").content.decode()


# Who sees it ---------------------------------------------------------------------------------


def test_seats_see_phrases_watchers_only_where_the_creator_allowed(
    ann, bea, cal, ann_client, bea_client, cal_client
):
    match = factories.match_make(players=[ann, bea], seed=3)
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    line = _quoted("ann", "Good luck")
    assert line in _log(bea_client, match) and line in _log(ann_client, match)
    assert line not in _log(cal_client, match)
    Match.objects.filter(pk=match.pk).update(phrases_watchers=True)
    assert line in _log(cal_client, match)
    Match.objects.filter(pk=match.pk).update(public=False)  # private: cal may not watch at all
    assert cal_client.get(f"/matches/{match.pk}/").status_code == 404


def test_muted_and_blocked_people_see_none(ann, bea, cal, ann_client, bea_client, cal_client):
    match = factories.match_make(players=[ann, bea, cal], seed=3)
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    phrase_say(match_id=match.pk, user=bea, key="thanks")
    ann_line, bea_line = _quoted("ann", "Good luck"), _quoted("bea", "Thanks")
    NotificationSettings.objects.create(user=cal, mute_phrases=True)
    cal_log = _log(cal_client, match)
    assert ann_line not in cal_log and bea_line not in cal_log
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    assert bea_line not in _log(ann_client, match)  # the blocker does not see the blocked
    bea_log = _log(bea_client, match)
    assert ann_line not in bea_log and bea_line in bea_log  # nor the blocked the blocker


def test_the_mute_box_is_on_the_notifications_page(ann, ann_client):
    page = ann_client.get("/accounts/notifications/").content.decode()
    assert 'name="mute_phrases"' in page
    ann_client.post("/accounts/notifications/", {"mute_phrases": "on"})
    assert NotificationSettings.objects.get(user=ann).mute_phrases is True


def test_the_new_match_form_lets_watchers_see_phrases(ann, ann_client):
    form = ann_client.get("/matches/new/").content.decode()
    assert 'name="phrases_watchers"' in form
    ann_client.post(
        "/matches/new/",
        {"game": "faraway", "num_players": 2, "visibility": "public", "phrases_watchers": "on"},
    )
    assert Match.objects.get(created_by=ann).phrases_watchers is True


# Where the log puts it -----------------------------------------------------------------------


def test_a_phrase_sits_after_the_move_it_followed(ann, bea, ann_client, bea_client):
    match = factories.match_make(players=[ann, bea], seed=3)
    phrase_say(match_id=match.pk, user=ann, key="good_luck")  # after the deal
    clients = {0: ann_client, 1: bea_client}
    seat = factories.awaited_seat(match)
    factories.post_move(clients[seat], match, {"type": "draw", "source": "pack"})
    match.refresh_from_db()
    phrase_say(match_id=match.pk, user=bea, key="oops")  # after that move
    log = _log(ann_client, match)  # newest first
    name = ["ann", "bea"][seat]
    drew = next(i for i, line in enumerate(log) if line.startswith(f"{name} drew"))
    assert log[0] == _quoted("bea", "Oops")
    assert log.index(_quoted("bea", "Oops")) < drew < log.index(_quoted("ann", "Good luck"))
    assert log.index(_quoted("ann", "Good luck")) < len(log) - 1  # after the deal's lines


# What it costs -------------------------------------------------------------------------------


def _counted(client, url: str, **kwargs) -> tuple[int, list[str], object]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **kwargs)
    return len(queries), [q["sql"] for q in queries.captured_queries], response


def _phrase_reads(sqls: list[str]) -> list[str]:
    """The statements that read phrases, the blocks or the mute box (asked in a WHERE)."""
    return [
        sql
        for sql in sqls
        if "tablephrase" in sql
        or "accounts_block" in sql
        or "mute_phrases" in sql.partition("WHERE")[2]
    ]


def test_the_table_and_the_poll_read_nothing_more_without_phrases(ann, bea, ann_client):
    quiet = factories.match_make(players=[ann, bea], seed=3)
    talky = factories.match_make(players=[ann, bea], seed=3)
    phrase_say(match_id=talky.pk, user=bea, key="good_luck")
    n_quiet, sqls, _ = _counted(ann_client, f"/matches/{quiet.pk}/table/", headers=HTMX)
    assert _phrase_reads(sqls) == []
    n_talky, _, response = _counted(ann_client, f"/matches/{talky.pk}/table/", headers=HTMX)
    assert _quoted("bea", "Good luck") in response.content.decode()
    assert n_talky == n_quiet + 3  # the mute box, the blocks, the rows
    talky.refresh_from_db()
    n_poll, _, poll = _counted(
        ann_client, f"/matches/{talky.pk}/table/?version={talky.version}&phrases=1", headers=HTMX
    )
    assert (poll.status_code, n_poll) == (204, 3)  # session, user, one match row
    n_poll, _, poll = _counted(
        ann_client, f"/matches/{quiet.pk}/table/?version={quiet.version}", headers=HTMX
    )
    assert (poll.status_code, n_poll) == (204, 3)


def test_a_new_phrase_ends_the_204s_of_every_open_table(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=3)
    url = f"/matches/{match.pk}/table/?version={match.version}"
    assert ann_client.get(url, headers=HTMX).status_code == 204
    phrase_say(match_id=match.pk, user=bea, key="good_luck")
    assert ann_client.get(url, headers=HTMX).status_code == 200  # "phrases" missing: 0
    assert ann_client.get(f"{url}&phrases=0", headers=HTMX).status_code == 200
    assert ann_client.get(f"{url}&phrases=1", headers=HTMX).status_code == 204


@pytest.mark.django_db(transaction=True)
def test_a_move_costs_the_same_at_a_table_with_phrases_and_refetches_them_once():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    clients = {ann.pk: factories.client_for(ann), bea.pk: factories.client_for(bea)}
    counts = []
    for talk in (False, True):
        match = factories.match_make(players=[ann, bea], seed=3)
        if talk:
            phrase_say(match_id=match.pk, user=ann, key="good_luck")
            match.refresh_from_db()
        mover = match.seats.get(index=factories.awaited_seat(match)).user_id
        with CaptureQueriesContext(connection) as queries:
            response = factories.post_move(
                clients[mover], match, {"type": "draw", "source": "pack"}
            )
        assert response.status_code == 200
        counts.append(len(queries))
        body = response.content.decode()
        match.refresh_from_db()
        polls = f"?version={match.version}&amp;phrases=-1" if talk else f'?version={match.version}"'
        assert polls in body
    assert counts[0] == counts[1] <= 8, counts


@pytest.mark.django_db(transaction=True)
def test_a_phrase_racing_a_move_leaves_the_move_current():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=3)
    seat = factories.awaited_seat(match)
    mover, talker = (ann, bea) if seat == 0 else (bea, ann)
    move_client = factories.client_for(mover)
    version = match.version
    moved, said = factories.at_once(
        [
            lambda: factories.post_move(
                move_client, match, {"type": "draw", "source": "pack"}, version=version
            ).status_code,
            lambda: phrase_say(match_id=match.pk, user=talker, key="good_luck").key,
        ]
    )
    assert (moved, said) == (200, "good_luck")
    match.refresh_from_db()
    assert (match.version > version, match.phrase_count) == (True, 1)


# The replay ----------------------------------------------------------------------------------


def _replay_said(client, match: Match, query: str = "") -> list[tuple[int, str]]:
    """(ply of the entry it follows, words) of each phrase in the replay's move list."""
    page = client.get(f"/matches/{match.pk}/replay/{query}").content.decode()
    moves = page[page.index('id="move-list"') :]
    found = []
    for item in re.findall(r"<li>(<a .*?</a>.*?)</li>", moves, flags=re.S):
        ply = int(re.search(r'data-ply="(\d+)"', item).group(1))
        found += [(ply, line) for line in re.findall(r'<p class="said">(.*?)</p>', item)]
    return found


def test_the_replay_lists_phrases_after_their_move_to_whom_may_see_them(
    ann, bea, cal, ann_client, bea_client, cal_client
):
    match = factories.match_make(players=[ann, bea], seed=3)
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    seat = factories.awaited_seat(match)
    factories.post_move(
        {0: ann_client, 1: bea_client}[seat], match, {"type": "draw", "source": "pack"}
    )
    phrase_say(match_id=match.pk, user=bea, key="oops")
    both = [(0, _quoted("ann", "Good luck")), (1, _quoted("bea", "Oops"))]
    assert _replay_said(bea_client, match) == both
    assert _replay_said(bea_client, match, "?as=public") == []  # a spectator's eyes
    assert _replay_said(cal_client, match) == []
    Match.objects.filter(pk=match.pk).update(phrases_watchers=True)
    assert _replay_said(cal_client, match) == both
    block_add(blocker_id=cal.pk, blocked_id=ann.pk)  # the kept list follows the block at once
    assert _replay_said(cal_client, match) == both[1:]
    NotificationSettings.objects.create(user=bea, mute_phrases=True)
    assert _replay_said(bea_client, match) == []


def test_the_replay_reads_no_phrase_of_a_match_without(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=3)
    _, sqls, response = _counted(ann_client, f"/matches/{match.pk}/replay/")
    assert response.status_code == 200
    assert _phrase_reads(sqls) == []
