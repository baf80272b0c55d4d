"""Told without looking (docs/accessibility.md): a screen reader hears each new line of the
table's log once in the page's status region (#announce-news, role=status), outside the
swapped #table, and "Your turn" in its alert region (#announce-alert, role=alert): a bot's
move within 2 s of the person's, another person's move made over HTTP, a phrase, the same
words twice, and nothing for a re-render of the same version. Each test reads the regions as
the accessibility tree gives them to a screen reader."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from games.models import Match
from games.services import match_create
from tests import factories
from tests.functional.pages import STREAMING_JS, TablePage, log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.services("redis"),
]

# When the status region first told a line starting with ``who`` (Date.now()), and when the
# person last clicked.
TIMES_JS = """who => {
  window.__toldAt = null;
  const region = document.getElementById('announce-news');
  new MutationObserver(() => {
    const heard = [...region.children].some(p => p.textContent.startsWith(who));
    if (heard && window.__toldAt === null) window.__toldAt = Date.now();
  }).observe(region, {childList: true});
  document.addEventListener('click', () => { window.__clickedAt = Date.now(); }, true);
}"""
# The log's lines the page shows, oldest first, as the announcements tell them.
LOG_JS = """() => [...document.querySelectorAll('#event-log li[data-line]')].reverse()
  .map(li => ({key: li.dataset.line, text: li.textContent.trim(),
    own: li.hasAttribute('data-own')}))"""


def told(page: Page, region: str = "status") -> list[str]:
    """What the page's status (or alert) region has said, oldest first, as the accessibility
    tree gives it to a screen reader."""
    name = "What just happened" if region == "status" else "Alerts"
    tree = page.get_by_role(region, name=name).aria_snapshot().splitlines()[1:]
    return [line.strip().removeprefix("- paragraph: ").strip('"') for line in tree]


def _open(base: str, make_context: Any, user: str, match: Match) -> Page:
    page = make_context().new_page()
    log_in(page, base, user)
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)
    return page


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _play_turn(client: Client, match: Match, seat: int) -> None:
    """``seat`` plays first legal moves over HTTP until another seat is awaited."""
    match.refresh_from_db()
    while match.awaiting and match.awaiting[0] == seat:
        move = factories.legal_moves(match, seat)[0]
        assert factories.post_move(client, match, move).status_code == 200
        match.refresh_from_db()


def _awaiting(match: Match, clients: dict[int, Client], seat: int) -> None:
    match.refresh_from_db()
    while match.awaiting[0] != seat:
        _play_turn(clients[match.awaiting[0]], match, match.awaiting[0])


def _say(client: Client, match: Match, key: str) -> None:
    answer = client.post(
        f"/matches/{match.pk}/phrase/", {"phrase": key}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200


def test_a_bots_move_is_told_within_two_seconds_of_the_persons(live_site, make_context):
    ann = factories.user_make("ann")
    match = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=7, public=True
    )
    page = _open(live_site, make_context, "ann", match)
    expect(page.locator("#announce-alert")).to_have_text("Your turn.")  # on load: no old lines
    assert told(page) == []
    page.evaluate(TIMES_JS, "Greedy bot")
    table = TablePage(page, "ann")
    before = {line["key"] for line in page.evaluate(LOG_JS)}
    while True:  # ann's whole turn, as she clicks it; the bot answers its last step
        answered = table.play(table.snapshot().moves[0])
        match.refresh_from_db()
        if match.awaiting != [0] or match.version > answered.version:
            break  # the bot's turn: awaited, or played already
    page.wait_for_function("() => window.__toldAt !== null", timeout=5000)
    waited = page.evaluate("() => window.__toldAt - window.__clickedAt")
    print(f"the bot's move told {waited} ms after ann's last click")
    assert waited <= 2000
    page.wait_for_function("() => document.querySelector('#table').dataset.yourTurn === 'true'")
    new = [line for line in page.evaluate(LOG_JS) if line["key"] not in before]
    expect(page.get_by_role("status", name="What just happened")).to_contain_text(new[-1]["text"])
    assert told(page) == [line["text"] for line in new if not line["own"]]
    assert any(line["own"] for line in new)  # ann's own play: answered by her press, not news
    assert told(page, "alert") == ["Your turn.", "Your turn."]


def test_another_persons_move_is_told_once_then_your_turn(live_site, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=5)
    clients = {0: _client(ann), 1: _client(bea)}
    _awaiting(match, clients, 0)
    page = _open(live_site, make_context, "bea", match)
    assert told(page) == [] and told(page, "alert") == []
    before = {line["key"] for line in page.evaluate(LOG_JS)}
    _play_turn(clients[0], match, 0)
    expect(page.locator("#announce-alert")).to_have_text("Your turn.")
    new = [line for line in page.evaluate(LOG_JS) if line["key"] not in before]
    assert new and not any(line["own"] for line in new)
    assert told(page) == [line["text"] for line in new]
    # The same version rendered again (a poll answered in full) tells nothing more.
    version = page.evaluate("() => document.querySelector('#table').dataset.version")
    page.evaluate(
        "id => { window.__swapped = false; document.addEventListener('htmx:afterSettle', "
        "() => { window.__swapped = true; }); htmx.ajax('GET', `/matches/${id}/table/`, "
        "{target: '#table', swap: 'outerHTML'}); }",
        match.pk,
    )
    page.wait_for_function("() => window.__swapped")
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.querySelector('#table').dataset.version") == version
    assert told(page) == [line["text"] for line in new]
    assert told(page, "alert") == ["Your turn."]


def test_phrases_are_told_and_the_same_words_twice_are_told_twice(live_site, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=5)
    page = _open(live_site, make_context, "bea", match)
    ann_client = _client(ann)
    said = []
    for key, words in (
        ("good_luck", "Good luck"),
        ("thanks", "Thanks"),
        ("good_luck", "Good luck"),
    ):
        _say(ann_client, match, key)
        said.append(f"ann: “{words}”")
        expect(page.locator("#announce-news p")).to_have_count(len(said))
    assert told(page) == said
    # bea's own phrase is her press's answer, not news.
    page.locator("#phrase-key").select_option(label="Well played")
    page.locator("#phrase-say").click()
    expect(page.locator("#event-log li").first).to_have_text("bea: “Well played”")
    page.wait_for_timeout(200)
    assert told(page) == said


def test_a_refused_move_is_told_as_an_alert(live_site, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=5)
    _awaiting(match, {0: _client(ann), 1: _client(bea)}, 0)
    page = _open(live_site, make_context, "ann", match)
    expect(page.get_by_role("alert", name="Alerts")).to_have_text("Your turn.")
    # A page a version behind (another tab moved meanwhile): its move is refused in words.
    page.evaluate(
        "() => document.querySelectorAll('#table input[name=version]')"
        ".forEach(i => { i.value = String(Number(i.value) - 1); })"
    )
    page.locator("#table button.move[data-move]").first.click()
    refusal = page.locator("#move-error")
    expect(refusal).to_be_visible()
    expect(page.locator("#announce-alert p")).to_have_count(2)
    assert told(page, "alert") == ["Your turn.", refusal.inner_text().strip()]
    assert told(page) == []


def test_a_watcher_hears_the_public_lines(live_site, make_context):
    """A watcher of a public match (whose stream may carry the shared table itself) hears each
    seat's moves in their public words: a pack draw without its card."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    factories.user_make("cal")
    match = factories.match_make(players=[ann, bea], seed=5)
    clients = {0: _client(ann), 1: _client(bea)}
    _awaiting(match, clients, 0)
    page = _open(live_site, make_context, "cal", match)
    before = {line["key"] for line in page.evaluate(LOG_JS)}
    _play_turn(clients[0], match, 0)
    match.refresh_from_db()
    page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version) >= v", arg=match.version
    )
    new = [line for line in page.evaluate(LOG_JS) if line["key"] not in before]
    expect(page.locator("#announce-news p")).to_have_count(len(new))
    assert told(page) == [line["text"] for line in new]
    assert "ann drew from the pack." in told(page)
    assert told(page, "alert") == []
