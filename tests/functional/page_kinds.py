"""Every kind of page the site serves, opened one after another in a real browser, each handed
to a check (an axe scan, a contrast, reflow, target or focus measure:
tests/functional/wcag_walk.py, read by test_wcag_*_browser.py and test_contrast_browser.py).

The matches and people are ``build_site``'s. ``PAGE_URLS`` names every URL pattern that serves a
page, ``NOT_PAGES`` every other one with why it is not: tests/unit/test_page_kinds_cover_urls.py
holds that each named pattern is in one of them (so a new page cannot be missed), and the walk
holds that it showed a page of every name in ``PAGE_URLS`` (``seen_url_names``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import BrowserContext, Page, expect

from accounts.models import PendingEmail, PlaySettings
from accounts.selectors.email_confirmation import confirm_token
from accounts.selectors.notify import TURN, unsubscribe_token
from competitions.league_entries import league_enter
from competitions.models import Event, EventTable
from competitions.services.cups import cup_enter
from competitions.services.ladder import ladder_challenge, ladder_join
from games import tasks
from games.lessons import lessons_for
from games.models import AnalysisStatus, Match, MatchAnalysis
from games.presentation.common import move_json
from games.services import match_cancel, match_create, match_join, match_resign
from games.services.analysis import analysis_request
from games.services.play_out import match_play_out
from tests import factories
from tests.analysis_matches import play_greedy
from tests.functional.pages import log_in
from tests.integration.cup_helpers import cup_make

# Called with the open page and the page kind's name, once the page has loaded.
Check = Callable[[Page, str], None]

# Every URL pattern (by name) that answers a GET with a page a person reads: the walk shows each.
PAGE_URLS = frozenset(
    {
        "home",
        "lobby",
        "history",
        "notices",
        "match_new",
        "play_now",
        "match_invite",
        "match_detail",
        "match_resign",
        "match_cancel",
        "match_leave",
        "match_replay",
        "rules",
        "practice_start",
        "leaderboard",
        "learn",
        "lesson",
        "staff_figures",
        "profile",
        "friends",
        "account",
        "register",
        "notification_settings",
        "time_zone",
        "unsubscribe",
        "email_confirm",
        "account_close",
        "account_delete",
        "password_reset",
        "password_reset_done",
        "password_reset_confirm",
        "password_reset_complete",
        "password_change",
        "password_change_done",
        "login",
        "league_list",
        "league_detail",
        "ladder",
        "ladder_history",
        "cup_list",
        "cup_detail",
    }
)

_FORM_POST = "a form's POST: it redirects, or its refusal is the page the form is on (walked)"
_PARTIAL = "a part of a page fetched by htmx, scanned inside the page that shows it"
_REDIRECT = "only redirects to a page walked here"

# Every other named URL pattern, with why it is no page of its own ("admin:" stands for the
# whole of Django's admin namespace).
NOT_PAGES: dict[str, str] = {
    "admin:": "Django's own admin, for the site's operators only",
    "live_stream": "the live events' stream (text/event-stream)",
    "set_language": _FORM_POST,
    "web_manifest": "the installable app's manifest (JSON)",
    "service_worker": "the service worker's script",
    "profile_self": _REDIRECT,
    "profile_moved": _REDIRECT,
    "ladder_index": _REDIRECT,
    "logout": _FORM_POST,
    "push_subscribe": _FORM_POST,
    "push_device_remove": _FORM_POST,
    "challenge_setting": _FORM_POST,
    "language": _FORM_POST,
    "play_settings": _FORM_POST,
    "email_resend": _FORM_POST,
    "data_export_download": "the export's file, downloaded (JSON)",
    "data_export": "a plain GET redirects to the account page (walked), whose section it is; "
    "its htmx GET is that section (a partial), its POST a form's",
    "rename": _FORM_POST,
    "league_enter": _FORM_POST,
    "league_withdraw": _FORM_POST,
    "league_record": "a league's record (JSON)",
    "cup_enter": _FORM_POST,
    "cup_withdraw": _FORM_POST,
    "cup_record": "a cup's record (JSON)",
    "ladder_record": "the ladder's record (JSON)",
    "js_words": "the scripts' words in the reader's language (JavaScript)",
    "ladder_join": _FORM_POST,
    "ladder_leave": _FORM_POST,
    "ladder_challenge": _FORM_POST,
    "ladder_withdraw": _FORM_POST,
    "next_table": _PARTIAL,
    "match_join": _FORM_POST,
    "match_move": _FORM_POST,
    "match_table": _PARTIAL,
    "match_phrase": _FORM_POST,
    "match_hints": _FORM_POST,
    "match_rematch": _FORM_POST,
    "match_seat_bot": _FORM_POST,
    "invitation_accept": _FORM_POST,
    "invitation_decline": _FORM_POST,
    "invitation_block": _FORM_POST,
    "match_analysis": _PARTIAL + " (the replay's analysis panel; a GET without htmx redirects)",
    "match_record": "a match's record (JSON)",
    "lesson_try": _FORM_POST,
    "turn_badge": _PARTIAL,
    "holiday_go": _FORM_POST,
    "holiday_return": _FORM_POST,
    "person_follow": _FORM_POST,
    "person_unfollow": _FORM_POST,
    "person_block": _FORM_POST,
    "person_unblock": _FORM_POST,
}


@dataclass
class Site:
    """The matches, leagues and ladder every page kind is shown with."""

    waiting: dict[str, Match]
    running: dict[str, Match]
    finished: dict[str, Match]
    analysed: Match
    resigned: Match
    cancelled: Match
    joined: Match
    league_open: Event
    league_running: Event
    cup_open: Event
    cup_running: Event


@dataclass
class Walked:
    """What a walk showed: each page kind's name, and the URL names of the pages checked."""

    kinds: list[str] = field(default_factory=list)
    seen_url_names: set[str] = field(default_factory=set)


def build_site() -> Site:
    """Ann and Bea: a waiting, a running and a finished rated match of each game (the finished
    tables carry the rating chips and the result), an analysed finished match, a running match
    cal resigned from, a waiting match ann cancelled (their tables' notes) and a waiting match of
    bea's where ann took a seat (she may leave it); an open league and a running one with
    standings (ann in it), and the Faraway ladder with ann, bea, cal and dan, dan's challenge of
    bea open."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    cal = factories.user_make("cal")
    waiting, running, finished = {}, {}, {}
    for n, game in enumerate(("faraway", "gulliver")):
        waiting[game] = match_create(
            game=game, num_players=3, created_by=ann, seed=40 + n, public=False
        )
        running[game] = play_greedy(
            factories.match_make(game=game, players=[ann, bea], seed=50 + n), until_ply=6
        )
        # No chosen seed: a match with a known deal is not rated, and the chips are wanted.
        done = play_greedy(factories.match_make(game=game, players=[ann, bea]))
        assert done.status == Match.Status.FINISHED
        finished[game] = done
    analysed = play_greedy(factories.match_make(game="faraway", players=[ann, bea], seed=11))
    analysis_request(match=analysed, seats=list(analysed.seats.all()), user=ann)
    if MatchAnalysis.objects.get(match=analysed).status != AnalysisStatus.DONE:
        tasks.match_analyse.apply((analysed.pk, analysed.version), throw=True)
    assert MatchAnalysis.objects.get(match=analysed).status == AnalysisStatus.DONE
    resigned = factories.match_make(game="faraway", players=[ann, bea, cal], seed=60)
    match_resign(match_id=resigned.pk, user=cal)
    cancelled = match_create(game="gulliver", num_players=3, created_by=ann, seed=61)
    match_cancel(match_id=cancelled.pk, user=ann)
    joined = match_create(game="faraway", num_players=3, created_by=bea, seed=62, public=True)
    match_join(match=joined, user=ann)
    dan = factories.user_make("dan")
    for person in (ann, bea, cal, dan):
        ladder_join(game="faraway", user=person)
    ladder_challenge(game="faraway", challenger=dan, target_name="bea")
    league = {"game": "faraway", "seats": 2, "circle_size": 4, "deadline_days": 3}
    league_open = Event.objects.create(name="Spring league", open_tables_most=2, **league)
    league_running = Event.objects.create(
        name="Enchanted Wood league", open_tables_most=2, **league
    )
    for person in (ann, bea, cal, dan):
        league_enter(event_id=league_running.pk, user=person)
    for table in EventTable.objects.filter(event=league_running, match__isnull=False)[:2]:
        match_play_out(match_id=table.match_id)
    cup_open = cup_make(name="Monday cup", places_most=4, seats=2, rounds=2)
    cup_running = cup_make(name="Treetop cup", places_most=4, seats=2, rounds=2)
    for person in (ann, bea, cal, dan):
        cup_enter(event_id=cup_running.pk, user=person)
    return Site(
        waiting=waiting,
        running=running,
        finished=finished,
        analysed=analysed,
        resigned=resigned,
        cancelled=cancelled,
        joined=joined,
        league_open=league_open,
        league_running=league_running,
        cup_open=cup_open,
        cup_running=cup_running,
    )


def url_name(url: str) -> str | None:
    """The URL pattern's name a page's address resolves to (None: no pattern, a 404's)."""
    try:
        return resolve(urlsplit(url).path).url_name
    except Resolver404:
        return None


def _open(page: Page, url: str, status: int = 200) -> None:
    response = page.goto(url)
    assert response is not None and response.status == status, url
    page.wait_for_load_state("load")


def walk_signed_out(page: Page, base: str, check: Check) -> None:
    """The pages a visitor sees: home, sign-in, register, reset, rules, learn, a lesson (a wrong
    try, its end), practice, 404, 403, the mails' links (unsubscribe, an address confirmed)."""
    pages = [
        ("home, signed out", "/"),
        ("login", "/accounts/login/?next=/matches/1/"),
        ("register", "/accounts/register/"),
        ("password reset", "/accounts/password_reset/"),
        ("rules (faraway)", "/rules/faraway/"),
        ("rules (gulliver)", "/rules/gulliver/"),
        ("learn, signed out", "/learn/"),
        ("practice, signed out", "/learn/gulliver/practice/"),
        ("lesson step", "/learn/gulliver/build/"),
    ]
    for kind, path in pages:
        _open(page, base + path)
        check(page, kind)
    page.locator("#table button.move[data-move*='prepend']").first.click()  # not this step's
    expect(page.locator("#lesson-answer")).to_contain_text("Try again.")
    check(page, "lesson, try again")
    moves = factories.lesson_moves(lessons_for("gulliver")[1])
    for step, move in enumerate(moves, start=1):
        page.locator(f"#table button.move[data-move='{move_json(move)}']").first.click()
        expect(page.locator("#table")).to_have_attribute("data-step", str(step))
    expect(page.locator("#lesson-stars")).to_be_visible()
    check(page, "lesson finished")
    _open(page, f"{base}/no/such/page/", status=404)
    check(page, "404")
    # A form sent back with its errors: a wrong password.
    _open(page, f"{base}/accounts/login/")
    page.get_by_label("Username").fill("nobody")
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".errorlist, .error").first).to_be_visible()
    check(page, "login refused")
    _open(page, f"{base}/accounts/password_reset/")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/password_reset/done/")
    check(page, "password reset sent")
    ann = get_user_model().objects.get(username="ann")
    uid = urlsafe_base64_encode(force_bytes(ann.pk))
    page.goto(f"{base}/accounts/reset/{uid}/{default_token_generator.make_token(ann)}/")
    expect(page.get_by_label("New password", exact=True)).to_be_visible()
    check(page, "new password")
    _open(page, f"{base}/accounts/reset/done/")
    check(page, "password reset complete")
    # The mails' links: one-click unsubscribe, and a confirmation link that is no longer good.
    _open(page, f"{base}/accounts/unsubscribe/{unsubscribe_token(ann.pk, TURN)}/")
    check(page, "unsubscribe")
    new_address = "ann.new@example.com"
    PendingEmail.objects.update_or_create(
        user=ann, defaults={"email": new_address, "requested_at": timezone.now()}
    )
    _open(page, f"{base}/accounts/email/confirm/{confirm_token(ann.pk, new_address)}/")
    expect(page.locator("#confirm-submit")).to_be_visible()
    check(page, "address confirmation")
    _open(page, f"{base}/accounts/email/confirm/not-a-token/", status=400)
    check(page, "address confirmation refused")
    # A form posted without its CSRF cookie: the 403 page.
    _open(page, f"{base}/accounts/login/")
    page.context.clear_cookies()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(factories.PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/accounts/login/")) as answer:
        page.get_by_role("button", name="Log in").click()
    assert answer.value.status == 403
    page.wait_for_load_state("load")
    check(page, "403 (CSRF)")


def walk_every_page(
    make_context: Callable[..., BrowserContext], base: str, check: Check, **context_args: Any
) -> Walked:
    """The visitor's pages, then every page a member sees, a watcher's tables and the staff's
    figures, each in its own context (``context_args``: the viewport, the emulated media).
    Returns the kinds shown and the URL names of their pages."""
    walked = Walked()

    def counted(page: Page, kind: str) -> None:
        walked.kinds.append(kind)
        name = url_name(page.url)
        if name is not None:
            walked.seen_url_names.add(name)
        check(page, kind)

    def context() -> BrowserContext:
        made = make_context(**context_args)
        # The copy buttons' "Copied" is a page kind too.
        made.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        return made

    site = build_site()
    walk_signed_out(context().new_page(), base, counted)
    _walk_signed_in(context, base, counted, site)
    return walked


def _walk_signed_in(
    context: Callable[[], BrowserContext], base: str, check: Check, site: Site
) -> None:
    page = context().new_page()
    log_in(page, base, "ann")
    pages: list[tuple[str, str, int]] = [
        ("home, signed in", "/", 200),
        ("lobby", "/matches/", 200),
        ("play now", "/play/", 200),
        ("new match", "/matches/new/", 200),
        ("learn, signed in", "/learn/", 200),
        ("practice", "/learn/faraway/practice/", 200),
    ]
    for kind, path, status in pages:
        _open(page, base + path, status)
        check(page, kind)
    for game in ("faraway", "gulliver"):
        finished = site.finished[game]
        replay = f"/matches/{finished.pk}/replay/"
        _open(page, f"{base}/matches/{site.waiting[game].pk}/")
        check(page, f"table waiting ({game})")
        page.get_by_role("button", name="Copy the invite link").click()
        expect(page.locator("#invite-link ~ [role=status]")).to_have_text("Copied")
        check(page, f"table waiting, link copied ({game})")
        _open(page, f"{base}/matches/{finished.pk}/")
        expect(page.locator("#outcome")).to_be_visible()
        expect(page.locator(".rc-rating").first).to_contain_text("now ")
        check(page, f"table finished ({game})")
        for kind, path in [
            (f"table in play, a seat ({game})", f"/matches/{site.running[game].pk}/"),
            (f"replay at the deal ({game})", f"{replay}?ply=0&as=all"),
            (f"replay ({game})", f"{replay}?ply=5&as=0"),
            (f"replay at the end ({game})", f"{replay}?ply={finished.ply}&as=all"),
        ]:
            _open(page, base + path)
            check(page, kind)
        # What the scripts show: the copy button's "Copied", autoplay's "Pause".
        page.get_by_role("button", name="Copy link to this position").click()
        expect(page.locator("#replay-share [role=status]")).to_have_text("Copied")
        page.locator("#replay-speed").select_option("2000")  # the slowest: a frame each 2 s
        page.locator("#replay-play").click()
        expect(page.locator("#replay-play")).to_have_text("Pause")
        check(page, f"replay, copied and playing ({game})")
        page.locator("#replay-play").click()
        _open(page, f"{base}/leaderboard/{game}/")
        check(page, f"leaderboard ({game})")
    # The table with the keyboard shortcuts and text mode on (ann's play settings), the panel
    # open and an answer in the text mode's log.
    PlaySettings.objects.update_or_create(
        user=get_user_model().objects.get(username="ann"),
        defaults={"keyboard_shortcuts": True, "text_mode": True},
    )
    for game in ("faraway", "gulliver"):
        _open(page, f"{base}/matches/{site.running[game].pk}/")
        page.locator("#keys-summary").click()
        page.locator("#text-command").fill("moves")
        page.locator("#text-command").press("Enter")
        expect(page.locator("#text-output")).not_to_be_empty()
        check(page, f"table in play, text mode and shortcuts ({game})")
    PlaySettings.objects.filter(user__username="ann").update(
        keyboard_shortcuts=False, text_mode=False
    )
    running = site.running["faraway"].pk
    _open(page, f"{base}/matches/{site.analysed.pk}/replay/?ply=3&as=all")
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done")
    check(page, "analysis")
    # Each page with what it must show (a selector shown), where the kind needs it.
    shown = [
        ("resign page", f"/matches/{running}/resign/", "#leave-confirm-button"),
        ("cancel page", f"/matches/{site.waiting['gulliver'].pk}/cancel/", "#leave-confirm-button"),
        ("leave page", f"/matches/{site.joined.pk}/leave/", "#leave-confirm-button"),
        ("table with a resignation", f"/matches/{site.resigned.pk}/", "#resigned-notes"),
        ("table cancelled", f"/matches/{site.cancelled.pk}/", "#cancelled-note"),
        (
            "league running, its standings",
            f"/leagues/{site.league_running.pk}/",
            "#league-standings",
        ),
        ("ladder (faraway)", "/ladder/faraway/", "#ladder"),
        (
            "cup running, its rounds and standings",
            f"/cups/{site.cup_running.pk}/",
            "#cup-standings",
        ),
    ]
    for kind, path, selector in shown:
        _open(page, base + path)
        expect(page.locator(selector).first).to_be_visible()
        check(page, kind)
    rest = [
        ("403 (replay refused)", f"/matches/{running}/replay/?as=all", 403),
        ("history", "/history/", 200),
        ("notices", "/notices/", 200),
        ("account", "/accounts/", 200),
        ("password change", "/accounts/password_change/", 200),
        ("password changed", "/accounts/password_change/done/", 200),
        ("time zone", "/accounts/time-zone/", 200),
        ("data export", "/accounts/data/", 200),
        ("close account", "/accounts/close/", 200),
        ("delete account", "/accounts/delete/", 200),
        ("notification settings", "/accounts/notifications/", 200),
        ("profile", "/players/ann/", 200),
        ("another's profile", "/players/bea/", 200),
        ("friends", "/friends/", 200),
        ("leagues", "/leagues/", 200),
        ("league open", f"/leagues/{site.league_open.pk}/", 200),
        ("cups", "/cups/", 200),
        ("cup open", f"/cups/{site.cup_open.pk}/", 200),
        ("ladder history (faraway)", "/ladder/faraway/history/", 200),
        ("ladder (gulliver), no one on it", "/ladder/gulliver/", 200),
        ("404, signed in", "/matches/999999/", 404),
    ]
    for kind, path, status in rest:
        _open(page, base + path, status)
        check(page, kind)
    # A page with the site's flash message: the table Play now seats one at.
    _open(page, f"{base}/play/")
    page.get_by_role("button", name="Play now").click()
    expect(page.locator("#messages")).to_be_visible()
    check(page, "table with a message")
    # A form the server sends back with its error: a name already taken.
    _open(page, f"{base}/accounts/")
    page.get_by_label("New name").fill("bea")
    page.get_by_label("Your password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Change my name").click()
    page.wait_for_load_state("load")
    check(page, "rename refused")

    watcher = context().new_page()
    log_in(watcher, base, "cal")
    _open(watcher, f"{base}/matches/join/{site.waiting['faraway'].invite_token}/")
    check(watcher, "invite")
    for game in ("faraway", "gulliver"):
        _open(watcher, f"{base}/matches/{site.running[game].pk}/")
        check(watcher, f"table in play, a watcher ({game})")

    factories.staff_make("sam")
    staff = context().new_page()
    log_in(staff, base, "sam")
    _open(staff, f"{base}/staff/figures/")
    check(staff, "staff figures")
