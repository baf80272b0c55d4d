"""Hostile requests at every URL: no answer is ever a 5xx, and a refusal changes nothing.

Every URL pattern the resolver knows is enumerated, so a new route fails
``test_every_route_has_a_fuzz_strategy`` until it is given path-parameter strategies here. Each
example is one request built by hypothesis: a method, the path parameters (real match ids of
public, private, finished, waiting and other people's matches; unknown and huge ids; tokens,
usernames, unicode and huge values), a query string, a body (form fields of the move, match and
account forms; JSON of wrong types, deep nesting, NaN, huge sizes; raw bytes), headers (htmx's,
CSRF garbage, Referer, Cookie garbage, Accept-Language, X-Forwarded-For, a wrong Host), and who
sends it (anonymous, a seat, an outsider, staff), with CSRF checks enforced or not.

Each example runs in a savepoint that is rolled back afterwards, so every example starts from
the same world and a failure shrinks to one reproducible request. Before and after, the rows a
request could change are read (matches with version and snapshot, seats, the move log, users,
ratings, notices, notification settings, time zones, languages, admin log); the answer must be
below 500, and when it is a refusal (a 4xx, or a redirect to a sign-in page) the rows must be
exactly as before.

What the strategies leave out, because no real server could deliver it to Django: header values
outside latin-1 (a WSGI server decodes header bytes as latin-1; text here is encoded as UTF-8
and decoded as latin-1, as a server would pass it on) and line breaks or NUL bytes inside a
header value (no HTTP/1.1 parser passes those). Paths are percent-encoded, as on the wire.

``PARLOUR_FUZZ_EXAMPLES`` (default 3,000) is the number of requests shared out over the routes;
the move property sends an eighth of it more, about 3,400 requests in all (a minute or two on
SQLite on a 2-core machine). ``PARLOUR_FUZZ_EXAMPLES=30000`` fuzzes ten times longer. The
module prints ``fuzz: N requests, M server errors`` when it ends.
"""

from __future__ import annotations

import json
import os
import random
import re
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings as django_settings
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Count, Max, Sum
from django.http import HttpResponse
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from accounts.models import (
    AccountClosure,
    Block,
    ChallengeSetting,
    DataExport,
    Follow,
    Holiday,
    LanguageSetting,
    NameChange,
    NotificationSettings,
    PendingEmail,
    PlaySettings,
    PushSubscription,
    TimeZoneSetting,
)
from accounts.selectors import notify
from accounts.selectors.email_confirmation import confirm_token
from accounts.services.data_export import data_export_request, data_export_write
from accounts.services.email_confirmation import email_pending_hold
from competitions.league_entries import league_enter
from competitions.league_sweep import leagues_sweep
from competitions.models import (
    CupSeries,
    Entry,
    Event,
    EventNotice,
    EventTable,
    Ladder,
    LadderChallenge,
    LadderEvent,
    LadderNotice,
    LadderRung,
)
from competitions.services.cup_sweep import cup_tend, occurrence_make
from competitions.services.cups import cup_enter
from competitions.services.ladder import ladder_challenge, ladder_join
from games.models import (
    Invitation,
    LessonProgress,
    LessonStepCount,
    Match,
    MatchNotice,
    Move,
    Rating,
    RatingChange,
    Seat,
    TablePhrase,
)
from games.services import match_create
from games.services.invitations import match_challenge_create, rematch_offer
from tests import factories
from tests.push_service import Browser, device_make

pytestmark = pytest.mark.django_db

# --- The routes -------------------------------------------------------------------------------

# Every route of the site outside the admin, by name, with the strategy of each path parameter.
# A route added to the URLconf and missing here fails test_every_route_has_a_fuzz_strategy.
SITE_ROUTES: dict[str, dict[str, str]] = {
    "home": {},
    "lobby": {},
    "history": {},
    "notices": {},
    "match_new": {},
    "play_now": {},
    "match_invite": {"token": "invite"},
    "match_detail": {"pk": "match"},
    "match_join": {"pk": "match"},
    "match_move": {"pk": "match"},
    "match_table": {"pk": "match"},
    "match_phrase": {"pk": "match"},
    "match_hints": {"pk": "match"},
    "match_resign": {"pk": "match"},
    "match_cancel": {"pk": "match"},
    "match_leave": {"pk": "match"},
    "match_replay": {"pk": "match"},
    "match_record": {"pk": "match"},
    "match_analysis": {"pk": "match"},
    "match_rematch": {"pk": "match"},
    "match_seat_bot": {"pk": "match"},
    "invitation_accept": {"pk": "invitation"},
    "invitation_decline": {"pk": "invitation"},
    "invitation_block": {"pk": "invitation"},
    "rules": {"game": "game"},
    "leaderboard": {"game": "game"},
    # Lessons (docs/lessons.md): the Learn page, a lesson, its tries; the staff's figures.
    "learn": {},
    "lesson": {"game": "game", "slug": "lesson"},
    "lesson_try": {"game": "game", "slug": "lesson"},
    "staff_figures": {},
    "practice_start": {"game": "game"},
    "register": {},
    "profile_self": {},
    "notification_settings": {},
    "account": {},
    "time_zone": {},
    "language": {},  # the account page's choice (docs/translation.md)
    "set_language": {},  # the footer's switch, for anyone
    "holiday_go": {},
    "holiday_return": {},
    "account_close": {},
    "account_delete": {},
    "data_export": {},
    "data_export_download": {"pk": "export"},
    "turn_badge": {},
    "live_stream": {},
    "unsubscribe": {"token": "unsubscribe"},
    "email_confirm": {"token": "email_confirm"},
    "email_resend": {},
    "rename": {},
    "login": {},
    "logout": {},
    "password_change": {},
    "password_change_done": {},
    "password_reset": {},
    "password_reset_done": {},
    "password_reset_confirm": {"uidb64": "uidb64", "token": "reset_token"},
    "password_reset_complete": {},
    "profile_moved": {"username": "username"},
    "profile": {"username": "username"},
    "person_follow": {"username": "username"},
    "person_unfollow": {"username": "username"},
    "person_block": {"username": "username"},
    "person_unblock": {"username": "username"},
    "friends": {},
    "challenge_setting": {},
    "play_settings": {},
    "next_table": {},
    # Web push (docs/notifications.md): a device's subscription, its removal, the app's shell.
    "push_subscribe": {},
    "push_device_remove": {"pk": "device"},
    "web_manifest": {},
    "service_worker": {},
    # The words the scripts write, in one language (docs/translation.md).
    "js_words": {},
    # The ladder (docs/competitions.md, "Ladder"): a game's page, its history and its posts.
    "ladder_index": {},
    "ladder": {"game": "game"},
    "ladder_history": {"game": "game"},
    "ladder_record": {"game": "game"},
    "ladder_join": {"game": "game"},
    "ladder_leave": {"game": "game"},
    "ladder_challenge": {"game": "game"},
    "ladder_withdraw": {"game": "game", "challenge_id": "ladder_challenge"},
    # Leagues (docs/competitions.md): the list, a league's page, entering, withdrawing, record.
    "league_list": {},
    "league_detail": {"pk": "league"},
    "league_enter": {"pk": "league"},
    "league_withdraw": {"pk": "league"},
    "league_record": {"pk": "league"},
    # Cups (docs/competitions.md, "Cups"): the list, a cup's page, entering, withdrawing, record.
    "cup_list": {},
    "cup_detail": {"pk": "cup"},
    "cup_enter": {"pk": "cup"},
    "cup_withdraw": {"pk": "cup"},
    "cup_record": {"pk": "cup"},
}

# The admin site's own routes; each registered model adds the routes of ADMIN_MODEL_ACTIONS and
# one unnamed redirect (``<object_id>/`` to its change page). A model registered later gets the
# admin's strategies without an edit here: Django's admin is not this project's code.
ADMIN_SITE_ROUTES = {
    "admin:index",
    "admin:login",
    "admin:logout",
    "admin:password_change",
    "admin:password_change_done",
    "admin:autocomplete",
    "admin:jsi18n",
    "admin:view_on_site",
    "admin:app_list",
}
ADMIN_MODEL_ACTIONS = ("changelist", "add", "history", "delete", "change")
ADMIN_EXTRA_ROUTES = {"admin:auth_user_password_change"}
ADMIN_UNNAMED = {"admin/(?P<url>.*)$"}  # the catch-all that redirects to the admin's login

UNROUTED = "(no route)"  # paths the resolver does not know at all


@dataclass(frozen=True)
class Route:
    """One URL pattern: its key (the name, or the pattern for an unnamed one) and its text."""

    key: str
    pattern: str


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            pattern = prefix + str(entry.pattern)
            name = entry.name and (f"{namespace}:{entry.name}" if namespace else entry.name)
            yield Route(key=name or pattern, pattern=pattern)


def resolver_routes() -> dict[str, Route]:
    """Every route the URLconf serves, by key."""
    return {route.key: route for route in _walk(get_resolver().url_patterns)}


def expected_route_keys() -> set[str]:
    """The routes this file has strategies for (the admin's derived from its registry)."""
    keys = set(SITE_ROUTES) | ADMIN_SITE_ROUTES | ADMIN_EXTRA_ROUTES | ADMIN_UNNAMED
    for model in admin.site._registry:
        opts = model._meta
        base = f"admin:{opts.app_label}_{opts.model_name}"
        keys |= {f"{base}_{action}" for action in ADMIN_MODEL_ACTIONS}
        keys.add(f"admin/{opts.app_label}/{opts.model_name}/<path:object_id>/")
    return keys


def test_every_route_has_a_fuzz_strategy() -> None:
    """A new URL cannot escape the fuzzing: it fails here until SITE_ROUTES names it."""
    assert set(resolver_routes()) == expected_route_keys()


# --- The world every example starts from ------------------------------------------------------


@dataclass
class World:
    """Users with signed-in sessions, matches in every state, and their tokens and moves."""

    sessions: dict[str, str]  # role -> session key ("anonymous" has none)
    match_ids: list[int]
    unknown_match_id: int
    invite_tokens: list[str]
    unsubscribe_tokens: list[str]
    confirm_tokens: list[str]
    usernames: list[str]
    uidb64s: list[str]
    reset_tokens: list[str]
    object_ids: list[str]
    content_type_ids: list[str]
    # Move-form values worth sending: the legal moves of every seat of every running match,
    # with their version, and the versions that are stale or from the future.
    moves: list[str]
    versions: list[str]
    passwords: list[str]
    export_ids: list[str]  # ann's data export, ready to download
    # ann's challenges to bea and cal (a private waiting match), and bea's rematch offer to ann
    invitation_ids: list[str]
    device_ids: list[str]  # ann's push device, and bea's
    league_ids: list[int]  # an open league bea entered, a running one and a finished one
    # cal's ladder challenge of bea (ann, bea and cal are on the Faraway ladder, in that order)
    ladder_challenge_ids: list[str] = field(default_factory=list)
    cup_ids: list[int] = field(default_factory=list)  # open (bea in), running, finished cups


ROLES = ("anonymous", "ann", "bea", "cal", "staff")


def _confirmation_links(ann: Any, bea: Any) -> list[str]:
    """ann waits to confirm a new address, bea one that ann has confirmed already: their links,
    and one for an address no one waits for."""
    email_pending_hold(ann, email="ann.new@example.org")
    email_pending_hold(bea, email=ann.email.upper())
    return [
        confirm_token(ann.pk, "ann.new@example.org"),
        confirm_token(bea.pk, ann.email.upper()),
        confirm_token(bea.pk, "never@example.org"),
    ]


def _session_key(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def world(db, settings, tmp_path) -> World:
    """ann (seat 0, the creator) and bea (seat 1) at a public running Faraway match, a private
    running Gulliver match and a finished match; cal outside every match (a spectator of the
    public ones); staff a superuser; waiting matches public and private (bea sits at the
    private one too), and one only bots play, watched by its creator."""
    settings.DATA_DIR = tmp_path  # ann's data export is written there
    ann, bea, cal = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    staff = factories.staff_make("staff")
    public_running = factories.match_make(players=[ann, bea], seed=11, public=True)
    private_running = factories.match_make(
        game="gulliver", players=[ann, bea], seed=12, public=False, options={"challenges": True}
    )
    factories.play_random(public_running, random.Random(3), plies=3)
    finished = factories.match_make(players=[ann, bea], seed=13, public=True)
    factories.play_random(finished, random.Random(4))
    waiting_public = factories.match_make(players=[ann], seats=2, public=True)
    waiting_private = factories.match_make(players=[ann, bea], seats=3, public=False)
    bots_only = match_create(
        game="faraway",
        num_players=2,
        created_by=cal,
        bots={0: "random", 1: "greedy"},
        creator_plays=False,
        public=False,
    )
    challenged = match_challenge_create(
        created_by=ann, challenges={1: bea, 2: cal}, game="faraway", num_players=3
    )
    rematch = rematch_offer(match_id=finished.pk, user=bea)
    matches = [public_running, private_running, finished, waiting_public, waiting_private]
    invited = [challenged, Match.objects.get(pk=rematch.match_id)]  # after bots_only in the ids
    for match in matches:
        match.refresh_from_db()
    moves, versions = [], []
    for match in (public_running, private_running):
        for seat in range(match.num_players):
            moves += [json.dumps(m) for m in factories.legal_moves(match, seat)]
        versions += [str(match.version + d) for d in (-1, 0, 1)]
    users = [ann, bea, cal, staff]
    object_ids = [str(m.pk) for m in matches] + [str(u.pk) for u in users]
    object_ids += [str(m.pk) for m in Move.objects.filter(match=finished)[:3]]
    return World(
        sessions={user.username: _session_key(user) for user in (ann, bea, cal, staff)},
        match_ids=[m.pk for m in [*matches, bots_only, *invited]],
        unknown_match_id=max(m.pk for m in matches) + 1000,
        invite_tokens=[m.invite_token for m in [*matches, bots_only, *invited]],
        unsubscribe_tokens=[notify.unsubscribe_token(u.pk, k) for u in users for k in notify.KINDS],
        confirm_tokens=_confirmation_links(ann, bea),
        usernames=[u.username for u in users],
        uidb64s=[urlsafe_base64_encode(force_bytes(u.pk)) for u in users],
        reset_tokens=[default_token_generator.make_token(u) for u in users],
        object_ids=object_ids,
        content_type_ids=[str(ct.pk) for ct in ContentType.objects.all()[:6]],
        moves=moves,
        versions=versions,
        passwords=[factories.PASSWORD, "wrong-password"],
        export_ids=[str(data_export_write(export_id=data_export_request(user=ann).pk).pk)],
        invitation_ids=[str(pk) for pk in Invitation.objects.values_list("pk", flat=True)],
        device_ids=[str(device_make(user).pk) for user in (ann, bea)],
        league_ids=_leagues(ann, bea, cal),
        ladder_challenge_ids=[str(_ladder_make(ann, bea, cal).pk)],
        cup_ids=_cups(ann, bea, cal),
    )


def _ladder_make(ann: Any, bea: Any, cal: Any) -> LadderChallenge:
    """ann, bea and cal on the Faraway ladder, and cal's challenge of bea (after the world's
    other invitations were read, so its invitation is the ladder's own)."""
    for person in (ann, bea, cal):
        ladder_join(game="faraway", user=person)
    return ladder_challenge(game="faraway", challenger=cal, target_name="bea")


def _leagues(ann: Any, bea: Any, cal: Any) -> list[int]:
    """An open league bea entered, a running one of ann, bea and cal, and a finished one."""
    open_one = Event.objects.create(
        name="Open", game="faraway", seats=2, circle_size=5, deadline_days=1
    )
    league_enter(event_id=open_one.pk, user=bea)
    leagues = [open_one.pk]
    for name in ("Running", "Finished"):
        event = Event.objects.create(
            name=name, game="faraway", seats=2, circle_size=3, deadline_days=1, open_tables_most=1
        )
        for user in (ann, bea, cal):
            league_enter(event_id=event.pk, user=user)
        leagues.append(event.pk)
    finished = Event.objects.get(pk=leagues[-1])
    leagues_sweep(now=finished.ends_at)
    return leagues


def _cups(ann: Any, bea: Any, cal: Any) -> list[int]:
    """A cup open to enter bea entered, a running one of ann, bea and cal (one table and a
    bye), and a finished one."""
    series = CupSeries.objects.create(
        name="Fuzz cup",
        game="faraway",
        seats=2,
        rounds=1,
        places_most=3,
        places_least=2,
        deadline_days=1,
    )
    cups = []
    for people in ((ann, bea, cal), (ann, bea, cal), (bea,)):
        event = occurrence_make(series_id=series.pk)
        for user in people:
            cup_enter(event_id=event.pk, user=user)
        cups.append(event.pk)
    finished = Event.objects.get(pk=cups[0])
    cup_tend(event_id=finished.pk, now=finished.ends_at)
    return [cups[2], cups[1], cups[0]]


# --- Hostile values ---------------------------------------------------------------------------

# Any text a browser or a script could send (no lone surrogates: they cannot be encoded at all).
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
NASTY = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "a\x00b",
        "null",
        "None",
        "undefined",
        "true",
        "NaN",
        "-Infinity",
        "1e309",
        "-1",
        "0",
        "-0",
        "00000000000000000001",
        "1.5",
        "0x1f",
        "١٢٣",  # Arabic-Indic digits: str.isdigit() says yes, and int() reads them
        "\U0001d7d7",  # MATHEMATICAL BOLD DIGIT NINE
        "9" * 30,
        "9" * 5000,  # past Python's int() digit limit
        "2147483648",
        "9223372036854775808",
        "'; DROP TABLE games_match; --",
        "<script>alert(1)</script>",
        "{{ 7*7 }}",
        "../../../etc/passwd",
        "%00",
        "%ff%fe",
        "http://[::1",
        "//evil.example/",
        "javascript:alert(1)",
        "\u202e\u200b\ufeff",
        "ß" * 300,
        "é\u0301",
    ]
)
HUGE = st.builds(
    lambda ch, n: ch * n,
    st.sampled_from(["a", "9", "é", "[", "%", "\x00", "🂡"]),
    st.integers(1, 1 << 16),
)
VALUE = st.one_of(NASTY, ANY_TEXT, st.integers().map(str), HUGE)


def _json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(1 << 70), max_value=1 << 70),
        st.floats(allow_nan=True, allow_infinity=True),
        ANY_TEXT,
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
        max_leaves=max_leaves,
    )


JSON_VALUES = _json_values()  # any JSON document, NaN and Infinity included


def _deep(depth: int, kind: str) -> str:
    if kind == "list":
        return "[" * depth + "]" * depth
    if kind == "dict":
        return '{"type": ' * depth + '"x"' + "}" * depth
    return '{"type": "draw", "source": ' + "[" * depth + "]" * depth + "}"


DEEP_JSON = st.builds(_deep, st.integers(1, 100_000), st.sampled_from(["list", "dict", "move"]))


def _retyped(move: str, how: str) -> str:
    """A legal move with its types, keys or values changed."""
    data = json.loads(move)
    key = sorted(data)[-1]
    if how == "string":
        data = {k: str(v) for k, v in data.items()}
    elif how == "float":
        data = {k: float(v) if isinstance(v, int) else v for k, v in data.items()}
    elif how == "bool":
        data = {k: bool(v) if isinstance(v, int) else v for k, v in data.items()}
    elif how == "drop":
        data.pop(key)
    elif how == "extra":
        data["extra"] = [1, {"a": None}]
    elif how == "list":
        data[key] = [data[key]]
    elif how == "null":
        data[key] = None
    return json.dumps(data)


def move_values(world: World) -> st.SearchStrategy[str]:
    legal = st.sampled_from(world.moves)
    return st.one_of(
        legal,
        st.builds(
            _retyped,
            legal,
            st.sampled_from(["string", "float", "bool", "drop", "extra", "list", "null"]),
        ),
        JSON_VALUES.map(lambda v: json.dumps(v, allow_nan=True)),
        DEEP_JSON,
        VALUE,
    )


def version_values(world: World) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(world.versions), VALUE)


# --- Path parameters --------------------------------------------------------------------------


def path_value(world: World, kind: str) -> st.SearchStrategy[str]:
    """A value for one path parameter: real ones of the world, and hostile ones."""
    hostile = st.one_of(NASTY, ANY_TEXT, HUGE).filter(bool)
    real: dict[str, list[str]] = {
        "invite": world.invite_tokens,
        "unsubscribe": world.unsubscribe_tokens,
        "email_confirm": world.confirm_tokens,
        "username": world.usernames,
        "game": ["faraway", "gulliver"],
        "uidb64": world.uidb64s,
        "reset_token": [*world.reset_tokens, "set-password"],
        "object_id": world.object_ids,
        "content_type_id": world.content_type_ids,
        "id": world.object_ids,
        "export": world.export_ids,
        "invitation": world.invitation_ids,
        "device": world.device_ids,
        "lesson": ["draw", "winning", "start", "challenges", "two-packs"],
        "ladder_challenge": world.ladder_challenge_ids,
    }
    if kind in ("league", "cup"):
        ids = world.league_ids if kind == "league" else world.cup_ids
        return st.one_of(
            st.sampled_from(ids).map(str),
            st.just(str(max(ids) + 1000)),
            st.integers(0, 1 << 200).map(str),
            st.sampled_from(["0", "9" * 19, "9" * 5000, "-1", "١٢٣"]),
            hostile,
        ).map(str)
    if kind == "match":
        # The int converter matches digits only; anything else is the resolver's 404.
        return st.one_of(
            st.sampled_from(world.match_ids).map(str),
            st.sampled_from(world.match_ids),
            st.just(str(world.unknown_match_id)),
            st.integers(0, 1 << 200).map(str),
            st.sampled_from(["0", "9" * 19, "9" * 5000, "00001", "-1", "1.0", "١٢٣"]),
            hostile,
        ).map(str)
    if kind in ("unsubscribe", "email_confirm"):
        tampered = st.builds(
            lambda token, i: token[:i] + ("A" if token[i : i + 1] != "A" else "B") + token[i + 1 :],
            st.sampled_from(real[kind]),
            st.integers(0, 60),
        )
        return st.one_of(st.sampled_from(real[kind]), tampered, hostile)
    return st.one_of(st.sampled_from(real[kind]), hostile)


CONVERTER = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")


def path_strategy(world: World, route: Route) -> st.SearchStrategy[str]:
    """The path of a request to ``route``, its parameters drawn and percent-encoded."""
    if route.key == UNROUTED:
        return st.one_of(ANY_TEXT, NASTY, HUGE).map(lambda p: "/" + quote(p, safe="/%"))
    if route.key == "admin:app_list":
        labels = st.one_of(st.sampled_from(["auth", "games", "accounts", "axes"]), ANY_TEXT)
        return labels.map(lambda label: f"/admin/{quote(label, safe='')}/")
    if route.key == "admin/(?P<url>.*)$":
        return st.one_of(ANY_TEXT, NASTY, HUGE).map(lambda u: "/admin/" + quote(u, safe="/"))
    kinds = SITE_ROUTES.get(route.key)
    names = CONVERTER.findall(route.pattern)
    parts = []
    for conv, name in names:
        kind = kinds[name] if kinds is not None else name
        safe = "/" if conv == "path" else ""
        parts.append(path_value(world, kind).map(lambda v, s=safe: quote(v, safe=s)))
    pieces = CONVERTER.split(route.pattern)

    def build(values: tuple[str, ...]) -> str:
        # split() leaves the text, then each match's two groups, then text again.
        text = pieces[::3]
        out = [text[0]]
        for value, rest in zip(values, text[1:], strict=True):
            out += [value, rest]
        return "/" + "".join(out)

    return st.tuples(*parts).map(build)


# --- Query strings, bodies and headers --------------------------------------------------------

QUERY_KEYS = [
    "ply",
    "as",
    "v",
    "version",
    "phrases",
    "page",
    "vs",
    "game",
    "result",
    "status",
    "opponent",
    "date_from",
    "date_to",
    "download",
    "next",
    "q",
    "o",
    "p",
    "e",
    "all",
    "_popup",
    "_to_field",
    "_changelist_filters",
    "app_label",
    "model_name",
    "field_name",
    "term",
    "status__exact",  # the admin's list filters pass their values to the database
    "game__exact",
    "username",
    "is_staff__exact",
    "after",  # the next table waiting (/notices/next/): a match id
]
QUERY_VALUES = st.one_of(
    VALUE,
    st.sampled_from(
        ["all", "0", "1", "-1", "seat:0", "seat:1", "spectator", "won", "in_play", "user:bea"]
    ),
    st.sampled_from(["bot:greedy", "2024-02-30", "1999-12-31", "3000-01-01", "9999-99-99"]),
)


def query_strategy() -> st.SearchStrategy[str]:
    pairs = st.lists(
        st.tuples(st.one_of(st.sampled_from(QUERY_KEYS), ANY_TEXT), QUERY_VALUES), max_size=5
    )
    raw = st.sampled_from(["%zz", "&&&==", "a=%ff%fe", "a" * 20000, "=" * 3, "a[]=1&a[]=2", ";;"])
    return st.one_of(st.just(""), pairs.map(urlencode), raw)


FORM_KEYS = [
    "move",
    "version",
    "csrfmiddlewaretoken",
    "game",
    "num_players",
    "target",
    "challenges",
    "deadline_days",
    "refuse_holidays",
    "hints",
    "until",
    "visibility",
    *(f"seat_{i}" for i in range(9)),
    "username",
    "password",
    "password1",
    "password2",
    "email",
    "old_password",
    "new_password1",
    "new_password2",
    "email_turn",
    "email_deadline",
    "zone",
    "time_zone",
    "language",
    "new_name",
    "current",
    "form",
    "next",
    "action",
    "_selected_action",
    "select_across",
    "post",
    "index",
    "_save",
    "status",
    "public",
    "num_players",
    "confirm",  # the leaving pages' forms (docs/leaving.md)
    "who",  # who may challenge me (docs/accounts.md)
    "back",  # where an unblock or a follow back returns
    "seat_1",
    "seat_2",
    "challenge_1",
    "challenge_2",  # the new-match form's challenges (docs/invitations.md)
    "phrase",  # table phrases (docs/phrases.md)
    "phrases_watchers",
    "mute_phrases",
    "seat",  # a bot in a free seat (docs/invitations.md): the seat's number and the bot
    "level",
    "confirm_moves",  # the play settings (docs/accounts.md)
    "next_table_at_once",
    "keyboard_shortcuts",  # keyboard shortcuts and text mode (docs/accessibility.md)
    "text_mode",
    "again",  # a lesson started over (docs/lessons.md)
    "lesson_progress",  # the stars a signed-out browser carries into the account
    "seats",  # Play now (docs/quick-match.md): the table's size or "any", rated, the bot fill
    "rated",
    "bot_fill_hours",
]


def form_strategy(world: World) -> st.SearchStrategy[dict[str, list[str]]]:
    values = st.one_of(
        QUERY_VALUES,
        move_values(world),
        version_values(world),
        st.sampled_from(
            [
                *("faraway", "gulliver", "me", "person", "challenge", "greedy", "strong"),
                *("public", "random", "2", "3", "9", "002"),
            ]
        ),
        st.sampled_from(["yes", "YES", "no", "off", "OFF"]),
        st.sampled_from(["anyone", "played", "friends", "nobody", "account", "friends "]),
        st.sampled_from(["good_luck", "good_game", "land_ho", "nice_story", "GOOD_LUCK"]),
        st.sampled_from([*world.usernames, *world.passwords, "ann@example.com", "on"]),
        st.sampled_from(["Asia/Tokyo", "UTC", "Factory", "../../etc/passwd", "/etc/localtime"]),
        st.dates().map(lambda day: day.isoformat()),  # the holiday's last day, and nonsense ones
    )
    keys = st.one_of(st.sampled_from(FORM_KEYS), ANY_TEXT)
    move_form = st.fixed_dictionaries(
        {
            "move": move_values(world).map(lambda v: [v]),
            "version": version_values(world).map(lambda v: [v]),
        }
    )
    free_form = st.dictionaries(keys, st.lists(values, min_size=1, max_size=3), max_size=8)
    return st.one_of(move_form, free_form, st.builds(lambda a, b: {**a, **b}, move_form, free_form))


@dataclass(frozen=True)
class Body:
    content_type: str
    data: bytes


def _urlencoded(form: dict[str, list[str]]) -> Body:
    pairs = [(key, value) for key, values in form.items() for value in values]
    return Body("application/x-www-form-urlencoded", urlencode(pairs).encode())


def _multipart(form: dict[str, list[str]]) -> Body:
    return Body(MULTIPART_CONTENT, encode_multipart(BOUNDARY, form))


# Push subscriptions as "Notify this device" posts them (docs/notifications.md), their parts
# good or hostile: the endpoint, the keys, their types.
SUBSCRIPTION_PARTS = st.one_of(
    NASTY,
    st.sampled_from(
        [
            "https://fcm.googleapis.com/fcm/send/x",
            "http://127.0.0.1:9/push",
            "https://127.0.0.1/push",
            "https://fcm.googleapis.com.evil.example/",
            "https://u:p@fcm.googleapis.com/",
            "https://fcm.googleapis.com:0/",
            Browser().p256dh,
            "AAAAAAAAAAAAAAAAAAAAAA",
            "BA" + "A" * 85,
        ]
    ),
)
SUBSCRIPTIONS = st.fixed_dictionaries(
    {
        "endpoint": st.one_of(SUBSCRIPTION_PARTS, st.integers(), st.none()),
        "keys": st.one_of(
            st.fixed_dictionaries({"p256dh": SUBSCRIPTION_PARTS, "auth": SUBSCRIPTION_PARTS}),
            JSON_VALUES,
        ),
    }
).map(lambda value: Body("application/json", json.dumps(value).encode()))


def body_strategy(world: World) -> st.SearchStrategy[Body]:
    forms = form_strategy(world)
    raw_types = st.sampled_from(
        [
            "application/json",
            "text/plain",
            "multipart/form-data",  # no boundary at all
            "multipart/form-data; boundary=",
            "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded; charset=utf-1337",
            "application/x-www-form-urlencoded; charset=latin-1",
            "",
            "x/\x7f",
        ]
    )
    raw = st.builds(
        Body,
        raw_types,
        st.one_of(
            st.binary(max_size=200),
            JSON_VALUES.map(lambda v: json.dumps(v, allow_nan=True).encode()),
            DEEP_JSON.map(str.encode),
            HUGE.map(lambda s: s.encode()),
            st.sampled_from([b"a=%ff", b"move=%zz&version=1", b"&" * 5000, b"a=1&" * 1500]),
        ),
    )
    return st.one_of(
        st.just(Body("", b"")),
        forms.map(_urlencoded),
        forms.map(_multipart),
        raw,
        SUBSCRIPTIONS,
    )


HTMX_HEADERS = [
    "HX-Request",
    "HX-Current-URL",
    "HX-Target",
    "HX-Trigger",
    "HX-Trigger-Name",
    "HX-Boosted",
    "HX-History-Restore-Request",
    "HX-Prompt",
]
OTHER_HEADERS = [
    "X-CSRFToken",
    "Referer",
    "Origin",
    "Accept",
    "Accept-Language",
    "Accept-Encoding",
    "X-Forwarded-For",
    "X-Forwarded-Proto",
    "X-Forwarded-Host",
    "X-Real-IP",
    "User-Agent",
    "If-None-Match",
    "If-Modified-Since",
    "Range",
    "Host",
]


def _as_a_server_passes_it(value: str) -> str:
    """Header text as a WSGI server hands it over: the bytes (UTF-8 here) read as latin-1,
    without the line breaks and NUL bytes no HTTP parser passes inside a header value."""
    cleaned = value.replace("\r", "").replace("\n", "").replace("\x00", "")
    return cleaned.encode("utf-8").decode("latin-1")


HEADER_VALUES = st.one_of(
    st.sampled_from(["true", "false", "", "1", "0", "TRUE", "#table", "table"]),
    st.sampled_from(["http://[::1", "http://testserver/matches/1/", "//x", "https://evil/", "%"]),
    st.sampled_from(["en", "xx-ZZ;q=2", "*;q=-1", "en-gb;q=0.5, zh;q=abc", "-" * 300]),
    st.sampled_from(["1.2.3.4", "::1", "999.1.1.1, unknown", "a" * 1000, ", ,"]),
    VALUE,
).map(_as_a_server_passes_it)


def headers_strategy() -> st.SearchStrategy[dict[str, str]]:
    names = st.one_of(st.sampled_from(HTMX_HEADERS), st.sampled_from(OTHER_HEADERS))
    return st.dictionaries(names, HEADER_VALUES, max_size=6)


METHODS = st.sampled_from(
    ["GET", "GET", "POST", "POST", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"]
)
CSRF_MODES = st.sampled_from(["off", "off", "enforced-valid", "enforced-none", "enforced-garbage"])
CSRF_SECRET = "A" * 32  # a well-formed secret: the cookie, and the token that matches it


@dataclass(frozen=True)
class HostileRequest:
    method: str
    path: str
    query: str
    body: Body
    headers: dict[str, str]
    role: str
    csrf: str
    cookie_garbage: str


def request_strategy(world: World, route: Route) -> st.SearchStrategy[HostileRequest]:
    return st.builds(
        HostileRequest,
        method=METHODS,
        path=path_strategy(world, route),
        query=query_strategy(),
        body=body_strategy(world),
        headers=headers_strategy(),
        role=st.sampled_from(ROLES),
        csrf=CSRF_MODES,
        cookie_garbage=st.one_of(
            st.just(""),
            st.sampled_from(["=", ";;;", "sessionid", "csrftoken=", 'a="b', "x=" + "y" * 5000]),
            VALUE.map(_as_a_server_passes_it),
        ),
    )


# --- Sending and checking ---------------------------------------------------------------------


# Two clients for every request: the Cookie header of each request replaces their cookie jars.
CLIENTS = {
    enforced: Client(enforce_csrf_checks=enforced, raise_request_exception=False)
    for enforced in (False, True)
}


def send(world: World, req: HostileRequest) -> HttpResponse:
    """One request through Django's whole stack (middleware included), errors as responses."""
    client = CLIENTS[req.csrf != "off"]
    cookies = []
    if req.role != "anonymous":
        cookies.append(f"{django_settings.SESSION_COOKIE_NAME}={world.sessions[req.role]}")
    headers = dict(req.headers)
    if req.csrf == "enforced-valid":
        cookies.append(f"{django_settings.CSRF_COOKIE_NAME}={CSRF_SECRET}")
        headers.setdefault("X-CSRFToken", CSRF_SECRET)
    elif req.csrf == "enforced-garbage":
        cookies.append(f"{django_settings.CSRF_COOKIE_NAME}={CSRF_SECRET[:-1]}!")
    if req.cookie_garbage:
        cookies.append(req.cookie_garbage)
    headers["Cookie"] = "; ".join(cookies)
    path = f"{req.path}?{req.query}" if req.query else req.path
    return client.generic(
        req.method, path, data=req.body.data, content_type=req.body.content_type, headers=headers
    )


LOGIN_PATHS = ("/accounts/login/", "/admin/login/")


def is_refusal(response: HttpResponse) -> bool:
    """A 4xx (a signed-out htmx request's is a 401), or a redirect to a sign-in page."""
    if 400 <= response.status_code < 500:
        return True
    target = response.get("Location", "")
    return any(target.startswith(p) or f"{p}?" in target for p in LOGIN_PATHS)


def rows_snapshot() -> tuple[Any, ...]:
    """Every row a request could change, in a stable order. The move log, append-only, is
    compared by its size and its newest row (each match's newest link of the hash chain is in
    its ``head_hash``, compared with the match): a few milliseconds however long the log."""
    User = get_user_model()
    return (
        list(Match.objects.order_by("pk").values_list()),
        list(Seat.objects.order_by("pk").values_list()),
        Move.objects.aggregate(Count("pk"), Max("pk"), Sum("ply")),
        list(User.objects.order_by("pk").values_list()),
        list(Rating.objects.order_by("pk").values_list()),
        RatingChange.objects.count(),
        list(MatchNotice.objects.order_by("pk").values_list()),
        list(NotificationSettings.objects.order_by("pk").values_list()),
        list(TimeZoneSetting.objects.order_by("pk").values_list("pk", "user_id", "zone")),
        list(LanguageSetting.objects.order_by("pk").values_list("pk", "user_id", "language")),
        list(Holiday.objects.order_by("pk").values_list()),
        list(PendingEmail.objects.order_by("pk").values_list()),
        list(NameChange.objects.order_by("pk").values_list()),
        list(AccountClosure.objects.order_by("pk").values_list()),
        list(DataExport.objects.order_by("pk").values_list()),
        list(Follow.objects.order_by("pk").values_list()),
        list(Block.objects.order_by("pk").values_list()),
        list(ChallengeSetting.objects.order_by("pk").values_list()),
        list(PlaySettings.objects.order_by("pk").values_list()),
        list(Invitation.objects.order_by("pk").values_list()),
        LogEntry.objects.count(),
        list(TablePhrase.objects.order_by("pk").values_list()),
        list(PushSubscription.objects.order_by("pk").values_list()),
        list(LessonProgress.objects.order_by("pk").values_list()),
        list(LessonStepCount.objects.order_by("pk").values_list()),
        list(Ladder.objects.order_by("pk").values_list()),
        list(LadderRung.objects.order_by("pk").values_list()),
        list(LadderChallenge.objects.order_by("pk").values_list()),
        list(LadderEvent.objects.order_by("pk").values_list()),
        list(Event.objects.order_by("pk").values_list()),
        list(Entry.objects.order_by("pk").values_list()),
        list(EventTable.objects.order_by("pk").values_list()),
        list(EventNotice.objects.order_by("pk").values_list()),
        list(LadderNotice.objects.order_by("pk").values_list()),
        list(CupSeries.objects.order_by("pk").values_list()),
    )


@dataclass
class Tally:
    requests: int = 0
    server_errors: int = 0
    by_route: dict[str, int] = field(default_factory=dict)


TALLY = Tally()


@pytest.fixture(scope="module", autouse=True)
def fuzz_summary(request: pytest.FixtureRequest) -> Iterator[Tally]:
    """Prints ``fuzz: N requests, M server errors`` when the module is done, past pytest's
    output capture, so it shows with ``-q`` too."""
    yield TALLY
    capture = request.config.pluginmanager.getplugin("capturemanager")
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    line = f"fuzz: {TALLY.requests} requests, {TALLY.server_errors} server errors"
    if capture is not None and reporter is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(line)
    else:
        print(line)


def check_one(world: World, key: str, req: HostileRequest) -> HttpResponse:
    """Send ``req``; no 5xx; a refusal leaves every row as it was. Rolled back afterwards, so
    every example starts from the same world; the answer is returned."""
    with transaction.atomic():
        before = rows_snapshot()
        response = send(world, req)
        TALLY.requests += 1
        TALLY.by_route[key] = TALLY.by_route.get(key, 0) + 1
        if response.status_code >= 500:
            TALLY.server_errors += 1
            exc_info = getattr(response, "exc_info", None)
            cause = "".join(traceback.format_exception(*exc_info)) if exc_info else ""
            raise AssertionError(f"{response.status_code} for {req!r}\n{cause}")
        if is_refusal(response):
            assert rows_snapshot() == before, f"refused with {response.status_code}, rows changed"
        transaction.set_rollback(True)
    return response


# --- The fuzzing ------------------------------------------------------------------------------

# The share of the requests each route gets, by weight: the match pages (the table, the poll
# and the move most of all) are the project's own code and the most exposed.
HEAVY = {
    "match_move": 8,
    "match_table": 4,
    "match_detail": 4,
    "match_replay": 3,
    "lesson_try": 3,
}
LIGHT_PREFIX = "admin"


def _weight(key: str) -> float:
    if key in HEAVY:
        return HEAVY[key]
    if key.startswith(LIGHT_PREFIX):
        return 0.4
    return 1.0


def fuzz_budget() -> int:
    """How many requests the routes share: ``PARLOUR_FUZZ_EXAMPLES``, 3,000 by default."""
    return int(os.environ.get("PARLOUR_FUZZ_EXAMPLES", "3000"))


def examples_per_route(keys: list[str]) -> dict[str, int]:
    """The request budget (``PARLOUR_FUZZ_EXAMPLES``) shared out."""
    total = fuzz_budget()
    weights = {key: _weight(key) for key in keys}
    scale = total / sum(weights.values())
    return {key: max(5, round(weight * scale)) for key, weight in weights.items()}


def fuzz_settings(examples: int) -> settings:
    """Hypothesis as this file runs it: no deadline (a request's time varies with the machine),
    no example database written to disk, and no "explain" phase (it reruns a failing request
    hundreds of times, minutes here, to annotate lines the traceback already shows)."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        print_blob=True,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


def fuzz_route(world: World, route: Route, examples: int) -> None:
    """``examples`` hostile requests at ``route``, its strategy built once."""

    @fuzz_settings(examples)
    @given(req=request_strategy(world, route))
    def fuzz(req: HostileRequest) -> None:
        check_one(world, route.key, req)

    fuzz()


def test_every_url_answers_hostile_requests_below_500_and_refusals_change_nothing(
    world: World,
) -> None:
    routes = {**resolver_routes(), UNROUTED: Route(UNROUTED, "")}
    budget = examples_per_route(sorted(routes))
    for key in sorted(routes):
        fuzz_route(world, routes[key], budget[key])
    # Every route was reached (none escaped because its strategy could not be drawn).
    assert set(TALLY.by_route) >= set(routes)


def test_only_the_awaited_seats_legal_move_at_the_current_version_is_played(
    world: World,
) -> None:
    """The move form alone, by every role against every match: every legal move of every seat,
    with the current, a stale and a future version. The awaited seat's own legal move at the
    current version is played; every other combination is refused and changes nothing."""

    # Sent whatever else is drawn: the awaited seat's own legal move, which must be played.
    running = Match.objects.get(pk=world.match_ids[0])
    awaited = running.seats.get(index=running.awaiting[0])
    playable = example(
        pk=running.pk,
        move=json.dumps(factories.legal_moves(running, awaited.index)[0]),
        version=str(running.version),
        role=awaited.user.username,
        htmx=True,
    )

    @fuzz_settings(fuzz_budget() // 8)
    @playable
    @given(
        pk=st.sampled_from(world.match_ids),
        move=st.sampled_from(world.moves),
        version=st.sampled_from(world.versions),
        role=st.sampled_from(ROLES),
        htmx=st.booleans(),
    )
    def fuzz(pk: int, move: str, version: str, role: str, htmx: bool) -> None:
        match = Match.objects.get(pk=pk)
        seat = Seat.objects.filter(match=match, user__username=role).first()
        may_play = (
            seat is not None
            and match.status == Match.Status.ACTIVE
            and seat.index in match.awaiting
            and version == str(match.version)
            and json.loads(move) in factories.legal_moves(match, seat.index)
        )
        req = HostileRequest(
            method="POST",
            path=f"/matches/{pk}/move/",
            query="",
            body=_urlencoded({"move": [move], "version": [version]}),
            headers={"HX-Request": "true"} if htmx else {},
            role=role,
            csrf="off",
            cookie_garbage="",
        )
        response = check_one(world, "match_move", req)
        played = response.status_code == 200 if htmx else response.status_code == 302
        assert (played and not is_refusal(response)) == may_play, (response.status_code, req)
        assert Match.objects.get(pk=pk).version == match.version  # the example was rolled back

    fuzz()


LEAVING = ("resign", "cancel", "leave")


def test_only_those_who_may_leave_a_match_change_it(world: World) -> None:
    """The leaving forms alone (docs/leaving.md), by every role against every match, confirmed
    or not: a seat resigns a running match it has not resigned, the creator cancels a waiting
    match, a seated guest leaves one; every other combination is refused and changes nothing."""

    # Sent whatever else is drawn: each action where it is allowed (the world's match ids are
    # the public running one, the private running one, the finished one, then the waiting ones).
    running, _, finished, waiting_public, waiting_private, *_ = world.match_ids

    @fuzz_settings(fuzz_budget() // 10)
    @example(pk=running, action="resign", role="bea", confirm="yes", htmx=False)
    @example(pk=waiting_public, action="cancel", role="ann", confirm="yes", htmx=True)
    @example(pk=waiting_private, action="leave", role="bea", confirm="yes", htmx=False)
    @example(pk=finished, action="resign", role="ann", confirm="yes", htmx=True)
    @given(
        pk=st.sampled_from([*world.match_ids, world.unknown_match_id]),
        action=st.sampled_from(LEAVING),
        role=st.sampled_from(ROLES),
        confirm=st.sampled_from(["yes", "no", "", "YES", "yes\x00"]),
        htmx=st.booleans(),
    )
    def fuzz(pk: int, action: str, role: str, confirm: str, htmx: bool) -> None:
        match = Match.objects.filter(pk=pk).select_related("created_by").first()
        seat = Seat.objects.filter(match_id=pk, user__username=role).first()
        creator = match is not None and match.created_by.username == role
        status = match.status if match is not None else ""
        allowed = (
            confirm == "yes"
            and {
                "resign": seat is not None and status == "active" and seat.resigned_ply is None,
                "cancel": creator and status == "waiting",
                "leave": seat is not None and status == "waiting" and not creator,
            }[action]
        )
        req = HostileRequest(
            method="POST",
            path=f"/matches/{pk}/{action}/",
            query="",
            body=_urlencoded({"confirm": [confirm]}),
            headers={"HX-Request": "true"} if htmx else {},
            role=role,
            csrf="off",
            cookie_garbage="",
        )
        response = check_one(world, f"match_{action}", req)
        assert (not is_refusal(response)) == allowed, (response.status_code, req)
        if allowed:
            assert response.status_code == (200 if htmx else 302)

    fuzz()


def test_the_shapes_that_once_crashed_are_4xx(world: World) -> None:
    """Issue 12's findings and this file's, sent once each whatever hypothesis draws: a move
    nested past the recursion limit, a malformed ``HX-Current-URL``, an id past every integer
    column on the table's poll and the move (SQLite could not bind it: OverflowError), a NUL
    in the URL or a header (PostgreSQL refused it: DataError), and a body Django cannot parse on a
    CSRF-checked POST (Django's own 400 and 404 views read it again and turned the 400 into a
    500: core/error_views.py)."""
    client = Client(raise_request_exception=False)
    client.cookies[django_settings.SESSION_COOKIE_NAME] = world.sessions["ann"]
    pk = world.match_ids[0]
    garbage = {"HX-Request": "true", "HX-Current-URL": "http://[::1"}
    assert client.get(f"/matches/{pk}/", headers=garbage).status_code == 200  # marks it seen
    before = rows_snapshot()  # what every refusal below must leave as it is
    deep = client.post(f"/matches/{pk}/move/", {"move": "[" * 1000 + "]" * 1000, "version": "1"})
    assert deep.status_code == 400
    huge = 1 << 70
    assert client.get(f"/matches/{huge}/").status_code == 404
    assert client.get(f"/matches/{huge}/table/", {"version": "1"}).status_code == 404
    moved = client.post(f"/matches/{huge}/move/", {"move": '{"type": "x"}', "version": "1"})
    assert moved.status_code == 404
    anonymous = Client(raise_request_exception=False)
    response = anonymous.get(f"/matches/{pk}/table/", headers=garbage)
    assert response.status_code == 401
    assert 'href="/accounts/login/?next=/"' in response.content.decode()
    checked = Client(enforce_csrf_checks=True, raise_request_exception=False)
    checked.cookies[django_settings.SESSION_COOKIE_NAME] = world.sessions["ann"]
    checked.cookies[django_settings.CSRF_COOKIE_NAME] = CSRF_SECRET  # the check reads the body
    latin1 = "application/x-www-form-urlencoded; charset=latin-1"
    pages = {
        f"/matches/{pk}/move/": (400, "That request could not be understood"),
        "/no/such/page/": (404, "There is no such page"),
    }
    for path, (status, heading) in pages.items():
        answer = checked.generic(
            "POST", path, b"move=1", content_type=latin1, headers={"X-CSRFToken": CSRF_SECRET}
        )
        assert answer.status_code == status and heading in answer.content.decode(), path
    staff = Client(raise_request_exception=False)
    staff.cookies[django_settings.SESSION_COOKIE_NAME] = world.sessions["staff"]
    for path in ("/players/%00/", "/matches/join/a%00b/", "/admin/games/match/?status__exact=%00"):
        assert staff.get(path).status_code == 400, path  # PostgreSQL cannot hold a NUL
    no_boundary = checked.generic(
        "POST", "/", b"x", content_type="multipart/form-data", headers={"Host": "evil.example"}
    )
    assert no_boundary.status_code == 400
    # django-axes stores a failed sign-in's User-Agent: a NUL in it reached PostgreSQL (runserver
    # passes such a header on; gunicorn refuses it itself).
    failed_sign_in = Client(raise_request_exception=False).post(
        "/accounts/login/",
        {"username": "ann", "password": "wrong"},
        headers={"User-Agent": "probe\x00"},
    )
    assert failed_sign_in.status_code == 400
    assert rows_snapshot() == before
