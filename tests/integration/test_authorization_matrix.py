"""Who may do what, for every kind of URL: one table, readable as documentation.

The world: ann created and sits at seat 0, bea sits at seat 1, of three matches: a public
Faraway match in play, a private Gulliver match in play and a finished public Faraway match.
cal is signed in and sits at none of them (a spectator of the public ones), staff is a
superuser who sits at none of them, anonymous is signed out. A private waiting match of ann's
has an invite link; ann has an unsubscribe link.

Each row: what is asked, the method and URL, whether htmx asks, and the answer for each role
(``ROLES`` order). An answer is a status, or:

- ``L``: sent to the sign-in page (a redirect);
- ``S``: signed out, asked by htmx: a 401 whose sentence links to the sign-in page (the page
  asking stays as it was: ``core/signed_out.py``);
- ``A``: sent to the admin's sign-in page;
- ``T``: a redirect to the match's table;
- ``R``: a redirect to the registration page, which comes back (the practice match's start).

Besides the status, every answer is checked for what its reader must not see:

- on a match still in play, the cards of another seat's hand (``engine.view`` of that seat,
  less everything the reader's own view shows) never appear as a card (``data-card="…"``), on
  the table, its partial, its poll, its replay and its record;
- the seed and the salt of a match in play appear nowhere outside the admin;
- to everyone but its members, the private match's address and invite link appear nowhere.

Each request runs in a savepoint rolled back afterwards, so a move that is played (or a seat
taken) does not change the world of the next row.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.selectors import notify
from accounts.selectors.email_confirmation import confirm_token
from accounts.services.data_export import data_export_request, data_export_write
from accounts.services.email_confirmation import email_pending_hold
from competitions.models import Event
from competitions.services.ladder import ladder_challenge, ladder_join
from games.engines import get_engine
from games.models import Invitation, Match
from games.services.invitations import match_challenge_create
from tests import factories
from tests.push_service import device_make

pytestmark = pytest.mark.django_db

ANONYMOUS, OUTSIDER, SEAT_0, SEAT_1, STAFF = "anonymous", "outsider", "seat 0", "seat 1", "staff"
ROLES = (ANONYMOUS, OUTSIDER, SEAT_0, SEAT_1, STAFF)
# The answers that are not a bare status.
L = "sent to sign in"  # a redirect to /accounts/login/
S = "signed out, htmx"  # a 401 with the link to /accounts/login/?next=, and no redirect
A = "sent to the admin's sign-in"  # a redirect to /admin/login/
T = "sent to the table"  # a redirect to the match's table (/matches/<id>/)
R = "sent to register"  # a redirect to /accounts/register/?next= (the practice match's start)

# The fields each POST row carries: seat 0's first legal move (it is seat 0's turn in both
# matches in play), at the match's version, one version behind, or at the finished match.
FORMS = {
    "move": {"move": "{pub_move}", "version": "{pv}"},
    "move, stale": {"move": "{pub_move}", "version": "{pub_stale}"},
    "private move": {"move": "{priv_move}", "version": "{qv}"},
    "finished move": {"move": "{pub_move}", "version": "{fin_v}"},
    "block bea": {"confirm": "yes"},
    "who may challenge": {"who": "friends"},
    "challenge garbage": {"who": "everyone"},
    "time zone chosen": {"zone": "Asia/Tokyo"},
    "time zone garbage": {"zone": "Mars/Olympus_Mons"},
    "play settings": {
        "confirm_moves": "on",
        "next_table_at_once": "on",
        "keyboard_shortcuts": "on",
        "text_mode": "on",
    },
    "language chosen": {"language": "de"},
    "language garbage": {"language": "tlh"},
    "switch language": {"language": "fr", "next": "/"},
    "switch garbage": {"language": "../../etc/passwd"},
    "play garbage": {"confirm_moves": "sometimes"},
    "play now": {"game": "faraway", "seats": "any", "rated": "rated", "deadline_days": "3"},
    "play now garbage": {"game": "chess", "seats": "many", "rated": "maybe"},
    "play now, too many": {"game": "faraway", "seats": "6", "rated": "unrated"},
    # Everyone has earned a week's holiday (the world's people joined eight weeks ago).
    "go on holiday": {"until": "{today}"},
    "holiday, too long": {"until": "{too_far}"},
    "rename ann": {"new_name": "annabel", "password": factories.PASSWORD, "current": "ann"},
    # Table phrases (docs/phrases.md): a key from the game's list, or one from no list.
    "say a phrase": {"phrase": "good_luck"},
    "say a phrase, plain": {"phrase": "good_luck"},
    "phrase off the list": {"phrase": "hello, world"},
    "subscribe, a form": {"endpoint": "https://fcm.googleapis.com/fcm/send/x"},
    "private phrase": {"phrase": "land_ho"},
    # Hints (docs/lessons.md, "The first match, with hints"): a seat's own, on or off.
    "hints off": {"hints": "off"},
    "hints on, htmx": {"hints": "on"},
    "hints garbage": {"hints": "maybe"},
    "private hints": {"hints": "on"},
    "finished hints": {"hints": "on"},
    "finished phrase": {"phrase": "good_game"},
    # A bot in a free seat (docs/invitations.md): the waiting match's creator only.
    "seat a bot": {"seat": "2", "level": "greedy"},
    "seat a bot, htmx": {"seat": "2", "level": "greedy"},
    "seat a bot, held": {"seat": "2", "level": "greedy"},
    "seat a bot, begun": {"seat": "2", "level": "greedy"},
    # Lessons (docs/lessons.md): the first step's move, a move the engine refuses there (a
    # "try again"), an unreadable one, starting over (doubled braces: FORMS are formatted).
    "lesson try": {"move": '{{"type": "draw", "source": "pack"}}', "version": "0"},
    "lesson try, refused": {"move": '{{"type": "play", "card": "3"}}', "version": "0"},
    "lesson try, garbage": {"move": "[[", "version": "0"},
    "lesson try, stale": {"move": '{{"type": "draw", "source": "pack"}}', "version": "4"},
    "lesson again": {"again": "1"},
    # The ladder (docs/competitions.md): ann 1, bea 2, cal 3; bea has challenged ann.
    "ladder challenge": {"username": "ann"},
    "ladder challenge, htmx": {"username": "ann"},
    "ladder challenge, none": {"username": ""},
}
# Leaving (docs/leaving.md): every such POST carries its confirmation page's field.
FORMS |= {what: {"password": "wrong"} for what in ("close, wrong pw", "delete, wrong pw")}
FORMS |= {
    what: {"confirm": "yes"}
    for what in (
        "resign",
        "resign, htmx",
        "private resign",
        "finished resign",
        "cancel, begun",
        "cancel, waiting",
        "leave, begun",
        "leave, waiting",
    )
}


@dataclass(frozen=True)
class Row:
    what: str
    how: str  # the method, and " hx" when htmx asks (HX-Request: true)
    url: str  # {pub}, {priv}, {fin}, {missing}: match ids; the other names: World.values
    answers: tuple[Any, ...]  # by role, in ROLES order

    @property
    def method(self) -> str:
        return self.how.split()[0]

    @property
    def htmx(self) -> bool:
        return self.how.endswith(" hx")

    @property
    def about(self) -> str:
        """The match in play whose hidden cards this URL could show, if any."""
        if "{pub}" in self.url:
            return "public"
        return "private" if "{priv}" in self.url else ""


# fmt: off
MATRIX_TEXT = [
    # what                how       URL                                 anon  out. seat0 seat1 staff
    # Pages open to everyone, and the ones that need a sign-in.
    ("home",               "GET",    "/",                                 200, 200, 200, 200, 200),
    ("rules",              "GET",    "/rules/faraway/",                   200, 200, 200, 200, 200),
    # Lessons (docs/lessons.md): open to everyone, signed in or not; each run is the
    # asker's own (their session), so every role gets the same answers.
    ("learn page",         "GET",    "/learn/",                           200, 200, 200, 200, 200),
    ("a lesson",           "GET",    "/learn/faraway/draw/",              200, 200, 200, 200, 200),
    ("a lesson, htmx",     "GET hx", "/learn/gulliver/challenges/",       200, 200, 200, 200, 200),
    ("no such lesson",     "GET",    "/learn/faraway/nothing/",           404, 404, 404, 404, 404),
    ("lesson try",         "POST hx","/learn/faraway/draw/try/",          200, 200, 200, 200, 200),
    ("lesson try, refused","POST hx","/learn/faraway/draw/try/",          200, 200, 200, 200, 200),
    ("lesson try, garbage","POST hx","/learn/faraway/draw/try/",          400, 400, 400, 400, 400),
    ("lesson try, stale",  "POST hx","/learn/faraway/draw/try/",          409, 409, 409, 409, 409),
    ("lesson again",       "POST",   "/learn/faraway/draw/try/",          200, 200, 200, 200, 200),
    ("lesson try by GET",  "GET",    "/learn/faraway/draw/try/",          405, 405, 405, 405, 405),
    # The staff's figures: no page at all to anyone else.
    ("staff figures",      "GET",    "/staff/figures/",                   404, 404, 404, 404, 200),
    # The practice match after the lessons (docs/lessons.md): its page is open to everyone; its
    # POST starts one for the person signed in (each their own), or sends a visitor to register.
    ("practice page",      "GET",    "/learn/faraway/practice/",          200, 200, 200, 200, 200),
    ("practice start",     "POST",   "/learn/gulliver/practice/",           R,   T,   T,   T,   T),
    ("practice, no game",  "POST",   "/learn/chess/practice/",            404, 404, 404, 404, 404),
    ("lobby",              "GET",    "/matches/",                           L, 200, 200, 200, 200),
    ("history",            "GET",    "/history/",                           L, 200, 200, 200, 200),
    ("history, htmx",      "GET hx", "/history/?game=faraway",              S, 200, 200, 200, 200),
    ("new match form",     "GET",    "/matches/new/",                       L, 200, 200, 200, 200),
    # Play now (docs/quick-match.md): anyone signed in; it seats or opens, then the table.
    ("play now form",      "GET",    "/play/",                              L, 200, 200, 200, 200),
    ("play now",           "POST",   "/play/",                              L,   T,   T,   T,   T),
    ("play now garbage",   "POST",   "/play/",                              L, 400, 400, 400, 400),
    ("play now, too many", "POST",   "/play/",                              L, 400, 400, 400, 400),
    # Leagues (docs/competitions.md): anyone signed in reads them and may enter an open one
    # (the world's people pass its gates); withdrawing needs an entry; the record waits for
    # the league's end.
    ("leagues",            "GET",    "/leagues/",                           L, 200, 200, 200, 200),
    ("league page",        "GET",    "/leagues/{lg}/",                      L, 200, 200, 200, 200),
    ("league page, htmx",  "GET hx", "/leagues/{lg}/",                      S, 200, 200, 200, 200),
    ("no such league",     "GET",    "/leagues/{missing}/",                 L, 404, 404, 404, 404),
    ("enter a league",     "POST",   "/leagues/{lg}/enter/",                L, 302, 302, 302, 302),
    ("enter by GET",       "GET",    "/leagues/{lg}/enter/",                L, 405, 405, 405, 405),
    ("enter no league",    "POST",   "/leagues/{missing}/enter/",           L, 404, 404, 404, 404),
    ("withdraw, not in",   "POST",   "/leagues/{lg}/withdraw/",             L, 409, 409, 409, 409),
    ("league record, open","GET",    "/leagues/{lg}/record.json",           L, 409, 409, 409, 409),
    # Cups (docs/competitions.md, "Cups"): as leagues; a league's id is no cup and back.
    ("cups",               "GET",    "/cups/",                              L, 200, 200, 200, 200),
    ("cup page",           "GET",    "/cups/{cp}/",                         L, 200, 200, 200, 200),
    ("cup page, htmx",     "GET hx", "/cups/{cp}/",                         S, 200, 200, 200, 200),
    ("no such cup",        "GET",    "/cups/{missing}/",                    L, 404, 404, 404, 404),
    ("a league as a cup",  "GET",    "/cups/{lg}/",                         L, 404, 404, 404, 404),
    ("a cup as a league",  "GET",    "/leagues/{cp}/",                      L, 404, 404, 404, 404),
    ("enter a cup",        "POST",   "/cups/{cp}/enter/",                   L, 302, 302, 302, 302),
    ("enter a cup by GET", "GET",    "/cups/{cp}/enter/",                   L, 405, 405, 405, 405),
    ("enter no cup",       "POST",   "/cups/{missing}/enter/",              L, 404, 404, 404, 404),
    ("cup withdraw, not in","POST",  "/cups/{cp}/withdraw/",                L, 409, 409, 409, 409),
    ("cup record, open",   "GET",    "/cups/{cp}/record.json",              L, 409, 409, 409, 409),
    ("leaderboard",        "GET",    "/leaderboard/faraway/",               L, 200, 200, 200, 200),
    ("ann's profile",      "GET",    "/players/ann/",                       L, 200, 200, 200, 200),
    ("own profile",        "GET",    "/accounts/profile/",                  L, 302, 302, 302, 302),
    # Friends and blocks (docs/accounts.md): each person's own, bea's profile names the other.
    ("friends page",       "GET",    "/friends/",                           L, 200, 200, 200, 200),
    ("follow bea",         "POST",   "/players/bea/follow/",                L, 302, 302, 400, 302),
    ("follow bea, htmx",   "POST hx","/players/bea/follow/",                S, 200, 200, 400, 200),
    ("follow nobody",      "POST",   "/players/nobody-such/follow/",        L, 404, 404, 404, 404),
    ("unfollow bea",       "POST",   "/players/bea/unfollow/",              L, 302, 302, 400, 302),
    ("block bea, asked",   "GET",    "/players/bea/block/",                 L, 200, 200, 400, 200),
    ("block bea, asked hx","GET hx", "/players/bea/block/",                 S, 200, 200, 400, 200),
    ("block bea",          "POST",   "/players/bea/block/",                 L, 302, 302, 400, 302),
    ("block, unconfirmed", "POST",   "/players/bea/block/",                 L, 400, 400, 400, 400),
    ("unblock bea",        "POST",   "/players/bea/unblock/",               L, 302, 302, 400, 302),
    ("follow by GET",      "GET",    "/players/bea/follow/",                L, 405, 405, 405, 405),
    ("who may challenge",  "POST",   "/accounts/challenges/",               L, 302, 302, 302, 302),
    ("challenge garbage",  "POST",   "/accounts/challenges/",               L, 400, 400, 400, 400),
    ("old profile link",   "GET",    "/accounts/ann/",                    301, 301, 301, 301, 301),
    ("notice settings",    "GET",    "/accounts/notifications/",            L, 200, 200, 200, 200),
    ("account page",       "GET",    "/accounts/",                          L, 200, 200, 200, 200),
    ("time zone page",     "GET",    "/accounts/time-zone/",                L, 200, 200, 200, 200),
    ("time zone chosen",   "POST",   "/accounts/time-zone/",                L, 302, 302, 302, 302),
    ("time zone garbage",  "POST",   "/accounts/time-zone/",                L, 400, 400, 400, 400),
    # The language (docs/translation.md): each person's own; the footer's switch is anyone's.
    ("language chosen",    "POST",   "/accounts/language/",                 L, 302, 302, 302, 302),
    ("language garbage",   "POST",   "/accounts/language/",                 L, 400, 400, 400, 400),
    ("language by GET",    "GET",    "/accounts/language/",                 L, 405, 405, 405, 405),
    ("switch language",    "POST",   "/language/",                        302, 302, 302, 302, 302),
    ("switch garbage",     "POST",   "/language/",                        400, 400, 400, 400, 400),
    ("switch by GET",      "GET",    "/language/",                        405, 405, 405, 405, 405),
    ("play settings",      "POST",   "/accounts/play/",                     L, 302, 302, 302, 302),
    ("play garbage",       "POST",   "/accounts/play/",                     L, 400, 400, 400, 400),
    ("play by GET",        "GET",    "/accounts/play/",                     L, 405, 405, 405, 405),
    ("turn badge (poll)",  "GET hx", "/accounts/badge/",                  286, 200, 200, 200, 200),
    # The next table waiting for the asker's move (only their own seats are counted or named).
    ("next table",         "GET hx", "/notices/next/?after={pub}",          S, 200, 200, 200, 200),
    ("next table, plain",  "GET",    "/notices/next/",                      L, 200, 200, 200, 200),
    ("next table by POST", "POST",   "/notices/next/",                      L, 405, 405, 405, 405),
    ("notices page",       "GET",    "/notices/",                           L, 200, 200, 200, 200),
    ("notices by POST",    "POST",   "/notices/",                           L, 405, 405, 405, 405),
    # Web push (docs/notifications.md): each person's own devices; ann has one. A form post is
    # no subscription (JSON is): a 400. Removing anyone else's device is a 404, as for none.
    ("subscribe, a form",  "POST",   "/accounts/notifications/devices/",    L, 400, 400, 400, 400),
    ("subscribe by GET",   "GET",    "/accounts/notifications/devices/",    L, 405, 405, 405, 405),
    ("remove ann's device","POST",   "/accounts/notifications/devices/{device}/remove/",
                                                                            L, 404, 302, 404, 404),
    ("remove, by GET",     "GET",    "/accounts/notifications/devices/{device}/remove/",
                                                                            L, 405, 405, 405, 405),
    ("app manifest",       "GET",    "/manifest.webmanifest",             200, 200, 200, 200, 200),
    ("service worker",     "GET",    "/sw.js",                            200, 200, 200, 200, 200),
    # The words the scripts write (docs/translation.md): the same for everyone of a language.
    ("script words",       "GET",    "/words.js?lang=de",                 200, 200, 200, 200, 200),
    ("script words, bad",  "GET",    "/words.js?lang=xx",                 200, 200, 200, 200, 200),
    # Holidays: each signed-in person's own, the URLs name nobody (docs/accounts.md).
    ("go on holiday",      "POST",   "/accounts/holiday/",                  L, 302, 302, 302, 302),
    ("holiday, too long",  "POST",   "/accounts/holiday/",                  L, 400, 400, 400, 400),
    ("holiday by GET",     "GET",    "/accounts/holiday/",                  L, 405, 405, 405, 405),
    ("back, not away",     "POST",   "/accounts/holiday/end/",              L, 409, 409, 409, 409),
    # The unsubscribe link needs no sign-in: its signed token is the proof.
    ("unsubscribe page",   "GET",    "/accounts/unsubscribe/{unsub}/",    200, 200, 200, 200, 200),
    ("unsubscribe forged", "GET",    "/accounts/unsubscribe/{bad}/",      400, 400, 400, 400, 400),
    # So does ann's e-mail confirmation link; signed in as another account, it is refused.
    ("confirm link",       "GET",    "/accounts/email/confirm/{confirm}/", 200, 400, 200, 400, 400),
    ("confirm, button",    "POST",   "/accounts/email/confirm/{confirm}/", 200, 400, 200, 400, 400),
    ("confirm forged",     "POST",   "/accounts/email/confirm/{badconf}/", 400, 400, 400, 400, 400),
    # Each person's own: the link again (theirs, if one waits), a new name (ann's form).
    ("link again",         "POST",   "/accounts/email/resend/",             L, 302, 302, 302, 302),
    ("rename, empty",      "POST",   "/accounts/name/",                     L, 400, 400, 400, 400),
    ("rename ann",         "POST",   "/accounts/name/",                     L, 400, 302, 400, 400),
    # Closing, deleting and the data export (docs/accounts.md): one's own account only.
    ("close page",         "GET",    "/accounts/close/",                    L, 200, 200, 200, 200),
    ("close, wrong pw",    "POST",   "/accounts/close/",                    L, 400, 400, 400, 400),
    ("delete page",        "GET",    "/accounts/delete/",                   L, 200, 200, 200, 200),
    ("delete, wrong pw",   "POST",   "/accounts/delete/",                   L, 400, 400, 400, 400),
    ("data, plain GET",    "GET",    "/accounts/data/",                     L, 302, 302, 302, 302),
    ("data, its poll",     "GET hx", "/accounts/data/",                     S, 200, 200, 200, 200),
    ("prepare data",       "POST",   "/accounts/data/",                     L, 302, 429, 302, 302),
    ("ann's data file",    "GET",    "/accounts/data/{export}/",            L, 404, 200, 404, 404),
    # The public match in play: its seats play, anyone signed in watches. Seat 0's turn.
    ("table page",         "GET",    "/matches/{pub}/",                     L, 200, 200, 200, 200),
    ("table partial",      "GET hx", "/matches/{pub}/",                     S, 200, 200, 200, 200),
    ("poll, same version", "GET hx", "/matches/{pub}/table/?version={pv}",  S, 204, 204, 204, 204),
    ("poll, old version",  "GET hx", "/matches/{pub}/table/?version=0",     S, 200, 200, 200, 200),
    ("move",               "POST hx","/matches/{pub}/move/",                S, 403, 200, 409, 403),
    ("move, stale",        "POST hx","/matches/{pub}/move/",                S, 403, 409, 409, 403),
    # A word at the table (docs/phrases.md): its seats say one; the poll then sees them.
    ("say a phrase",       "POST hx","/matches/{pub}/phrase/",              S, 403, 200, 200, 403),
    ("say a phrase, plain","POST",   "/matches/{pub}/phrase/",              L, 403,   T,   T, 403),
    ("phrase off the list","POST hx","/matches/{pub}/phrase/",              S, 403, 400, 400, 403),
    ("phrase by GET",      "GET",    "/matches/{pub}/phrase/",              L, 405, 405, 405, 405),
    # Hints: each seat turns its own on or off; a watcher has none to turn.
    ("hints off",          "POST",   "/matches/{pub}/hints/",               L, 403,   T,   T, 403),
    ("hints on, htmx",     "POST hx","/matches/{pub}/hints/",               S, 403, 200, 200, 403),
    ("hints garbage",      "POST",   "/matches/{pub}/hints/",               L, 403, 400, 400, 403),
    ("hints by GET",       "GET",    "/matches/{pub}/hints/",               L, 405, 405, 405, 405),
    ("poll, no phrases",   "GET hx", "/matches/{pub}/table/?version={pv}&phrases=0",
                                                                            S, 204, 204, 204, 204),
    ("poll, phrases gone", "GET hx", "/matches/{pub}/table/?version={pv}&phrases=-1",
                                                                            S, 200, 200, 200, 200),
    ("take a seat, full",  "POST",   "/matches/{pub}/join/",                L,   T,   T,   T,   T),
    # Live changes (docs/live.md): the test client is WSGI, so a stream that may be had is a 204
    # ("no stream on this server"); who may have one is decided first, as for the poll.
    ("live, no match",     "GET",    "/live/",                            403, 204, 204, 204, 204),
    ("live, this match",   "GET",    "/live/?match={pub}",                403, 204, 204, 204, 204),
    ("live, garbage",      "GET",    "/live/?match=x",                    403, 400, 400, 400, 400),
    ("live, no such",      "GET",    "/live/?match={missing}",            403, 404, 404, 404, 404),
    ("live by POST",       "POST",   "/live/",                            405, 405, 405, 405, 405),
    # Leaving it (docs/leaving.md): a page that asks first, then its form. A seat resigns (at
    # two seats that ends the match); nobody cancels or leaves a match that has begun.
    ("resign page",        "GET",    "/matches/{pub}/resign/",              L, 200, 200, 200, 200),
    ("resign",             "POST",   "/matches/{pub}/resign/",              L, 403,   T,   T, 403),
    ("resign, htmx",       "POST hx","/matches/{pub}/resign/",              S, 403, 200, 200, 403),
    ("cancel page",        "GET",    "/matches/{pub}/cancel/",              L, 200, 200, 200, 200),
    ("cancel, begun",      "POST",   "/matches/{pub}/cancel/",              L, 403, 409, 403, 403),
    ("leave, begun",       "POST",   "/matches/{pub}/leave/",               L, 403, 409, 409, 403),
    ("replay",             "GET",    "/matches/{pub}/replay/",              L, 200, 200, 200, 200),
    ("replay as seat 1",   "GET",    "/matches/{pub}/replay/?as=1",         L, 403, 403, 200, 403),
    ("replay, all hands",  "GET",    "/matches/{pub}/replay/?as=all",       L, 403, 403, 403, 403),
    ("record",             "GET",    "/matches/{pub}/record.json",          L, 200, 200, 200, 200),
    # Its analysis: the panel is the replay's (a note until the match is over); asking is for
    # its players alone, and refused while it runs.
    ("analysis panel",     "GET hx", "/matches/{pub}/analysis/",            S, 200, 200, 200, 200),
    ("ask for analysis",   "POST",   "/matches/{pub}/analysis/",            L, 403, 409, 409, 403),
    # The private match in play: a 404 to everyone outside it, staff included, as for no match.
    # Its lobby "join" is its creator's alone (the others use the invite link): 404 to the rest.
    ("private table",      "GET",    "/matches/{priv}/",                    L, 404, 200, 200, 404),
    ("private partial",    "GET hx", "/matches/{priv}/",                    S, 404, 200, 200, 404),
    ("private, live",      "GET",    "/live/?match={priv}",               403, 404, 204, 204, 404),
    ("private poll",       "GET hx", "/matches/{priv}/table/?version={qv}",  S, 404, 204, 204, 404),
    ("private move",       "POST hx","/matches/{priv}/move/",               S, 404, 200, 409, 404),
    ("private phrase",     "POST hx","/matches/{priv}/phrase/",             S, 404, 200, 200, 404),
    ("private hints",      "POST hx","/matches/{priv}/hints/",              S, 404, 200, 200, 404),
    ("private join",       "POST",   "/matches/{priv}/join/",               L, 404,   T, 404, 404),
    ("private replay",     "GET",    "/matches/{priv}/replay/",             L, 404, 200, 200, 404),
    ("private as seat 0",  "GET",    "/matches/{priv}/replay/?as=0",        L, 404, 200, 403, 404),
    ("private record",     "GET",    "/matches/{priv}/record.json",         L, 404, 200, 200, 404),
    ("private analysis",   "GET hx", "/matches/{priv}/analysis/",           S, 404, 200, 200, 404),
    ("private analyse",    "POST",   "/matches/{priv}/analysis/",           L, 404, 409, 409, 404),
    ("private resign",     "POST",   "/matches/{priv}/resign/",             L, 404,   T,   T, 404),
    # An invite link is the invitation: whoever holds it sees the waiting table (its creator,
    # seated already, is sent to the table).
    ("invite link",        "GET",    "/matches/join/{invite}/",             L, 200,   T, 200, 200),
    # That waiting match is ann's alone: she may cancel it (not leave it); to others it is a 404.
    ("cancel, waiting",    "POST",   "/matches/{inv}/cancel/",              L, 404,   T, 404, 404),
    ("leave, waiting",     "POST",   "/matches/{inv}/leave/",               L, 404, 409, 404, 404),
    ("leave page, waiting","GET",    "/matches/{inv}/leave/",               L, 404, 200, 404, 404),
    # A finished match: every hand is shown, the seed and the salt too; nothing more to play.
    ("finished table",     "GET",    "/matches/{fin}/",                     L, 200, 200, 200, 200),
    ("finished poll",      "GET hx", "/matches/{fin}/table/?version=0",     S, 286, 286, 286, 286),
    ("finished move",      "POST hx","/matches/{fin}/move/",                S, 403, 409, 409, 403),
    ("finished phrase",    "POST hx","/matches/{fin}/phrase/",              S, 403, 200, 200, 403),
    ("finished hints",     "POST",   "/matches/{fin}/hints/",               L, 403, 409, 409, 403),
    ("finished resign",    "POST",   "/matches/{fin}/resign/",              L, 403, 409, 409, 403),
    ("finished, all hands","GET",    "/matches/{fin}/replay/?as=all",       L, 200, 200, 200, 200),
    ("finished, as seat 1","GET",    "/matches/{fin}/replay/?as=1",         L, 200, 200, 200, 200),
    ("finished record",    "GET",    "/matches/{fin}/record.json",          L, 200, 200, 200, 200),
    # Its analysis: asked for by a player (then back to the replay, 302), seen by its viewers.
    ("finished analyse",   "POST",   "/matches/{fin}/analysis/",            L, 403, 302, 302, 403),
    ("finished analysis",  "GET hx", "/matches/{fin}/analysis/",            S, 200, 200, 200, 200),
    ("analysis, no htmx",  "GET",    "/matches/{fin}/analysis/",            L, 302, 302, 302, 302),
    ("no such match",      "GET",    "/matches/{missing}/",                 L, 404, 404, 404, 404),
    # Invitations (docs/invitations.md): ann challenged bea to a private waiting match, which bea
    # may see (she is invited) and answer; to everyone else the invitation is a 404, as the
    # match is. "Play again" is for the seated people of a finished match they may see.
    ("challenged table",   "GET",    "/matches/{chal}/",                    L, 404, 200, 200, 404),
    ("accept challenge",   "POST",   "/invitations/{ci}/accept/",           L, 404, 404,   T, 404),
    ("accept, htmx",       "POST hx","/invitations/{ci}/accept/",           S, 404, 404, 200, 404),
    ("accept by GET",      "GET",    "/invitations/{ci}/accept/",           L, 405, 405, 405, 405),
    ("decline challenge",  "POST",   "/invitations/{ci}/decline/",          L, 404, 404, 302, 404),
    ("decline and block",  "POST",   "/invitations/{ci}/block/",            L, 404, 404, 302, 404),
    ("no such invitation", "POST",   "/invitations/{missing}/accept/",      L, 404, 404, 404, 404),
    ("play again",         "POST",   "/matches/{fin}/rematch/",             L, 409,   T,   T, 409),
    ("play again, htmx",   "POST hx","/matches/{fin}/rematch/",             S, 409, 200, 200, 409),
    ("play again, in play","POST",   "/matches/{priv}/rematch/",            L, 404, 409, 409, 404),
    # A bot in a free seat: the creator of the waiting match only; not a seat held for the
    # person invited (ann's challenge to bea), not once the match has begun.
    ("seat a bot",         "POST",   "/matches/{inv}/bot/",                 L, 404,   T, 404, 404),
    ("seat a bot, htmx",   "POST hx","/matches/{inv}/bot/",                 S, 404, 200, 404, 404),
    ("seat a bot, held",   "POST",   "/matches/{chal}/bot/",                L, 404, 409, 403, 404),
    ("seat a bot, begun",  "POST",   "/matches/{pub}/bot/",                 L, 403, 409, 403, 403),
    ("seat a bot by GET",  "GET",    "/matches/{inv}/bot/",                 L, 405, 405, 405, 405),
    # The ladder (docs/competitions.md): every page to anyone signed in; each person joins,
    # leaves and challenges as themselves (cal at 3 may challenge ann at 1; ann cannot
    # challenge herself, bea has challenged her already, staff is not on it); only bea, who
    # made it, may withdraw her challenge.
    ("ladder",             "GET",    "/ladder/",                            L, 302, 302, 302, 302),
    ("ladder page",        "GET",    "/ladder/faraway/",                    L, 200, 200, 200, 200),
    ("ladder page, htmx",  "GET hx", "/ladder/faraway/",                    S, 200, 200, 200, 200),
    ("ladder, no game",    "GET",    "/ladder/chess/",                      L, 404, 404, 404, 404),
    ("ladder history",     "GET",    "/ladder/faraway/history/?mine=1",     L, 200, 200, 200, 200),
    # The ladder's record (language-free, finished matches only) to anyone signed in.
    ("ladder record",      "GET",    "/ladder/faraway/record.json",         L, 200, 200, 200, 200),
    ("ladder record, no game", "GET", "/ladder/chess/record.json",          L, 404, 404, 404, 404),
    ("ladder join",        "POST",   "/ladder/gulliver/join/",              L, 302, 302, 302, 302),
    ("ladder join by GET", "GET",    "/ladder/gulliver/join/",              L, 405, 405, 405, 405),
    ("ladder leave",       "POST",   "/ladder/faraway/leave/",              L, 302, 302, 302, 302),
    ("ladder challenge",   "POST",   "/ladder/faraway/challenge/",          L, 302, 409, 409, 409),
    ("ladder challenge, htmx", "POST hx", "/ladder/faraway/challenge/",     S, 200, 409, 409, 409),
    ("ladder challenge, none", "POST", "/ladder/faraway/challenge/",        L, 400, 400, 400, 400),
    ("ladder withdraw", "POST", "/ladder/faraway/challenges/{lc}/withdraw/", L, 404, 404, 302, 404),
    ("withdraw by GET", "GET",  "/ladder/faraway/challenges/{lc}/withdraw/", L, 405, 405, 405, 405),
    # The admin: staff only; everyone else is sent to the admin's own sign-in.
    ("admin index",        "GET",    "/admin/",                             A,   A,   A,   A, 200),
    ("admin matches",      "GET",    "/admin/games/match/",                 A,   A,   A,   A, 200),
    ("admin, private one", "GET",    "/admin/games/match/{priv}/change/",   A,   A,   A,   A, 200),
    ("admin moves",        "GET",    "/admin/games/move/",                  A,   A,   A,   A, 200),
    ("admin users",        "GET",    "/admin/auth/user/",                   A,   A,   A,   A, 200),
]
# fmt: on
MATRIX = [Row(what, how, url, tuple(answers)) for what, how, url, *answers in MATRIX_TEXT]


# Seeds as long as real ones (63 random bits), so finding one in a page means it leaked.
SEED_BASE = 6_917_529_027_641_081_857


def _seeded(game: str, players: list[Any], *, public: bool) -> Match:
    """A match whose first turn is seat 0's, so the table reads the same for every deal."""
    for seed in range(SEED_BASE, SEED_BASE + 200):
        match = factories.match_make(game=game, players=players, seed=seed, public=public)
        if match.awaiting == [0]:
            return match
        match.delete()
    raise AssertionError("no seed of the 200 tried gives seat 0 the first turn")


@dataclass
class World:
    clients: dict[str, Client]
    values: dict[str, str]
    running: dict[str, Match]  # "public", "private"
    seats: dict[str, int | None]  # role -> seat index (the same at both matches)
    secrets: list[str]  # seeds and salts of the matches in play
    private_marks: list[str]  # what only the private match's members may see


@pytest.fixture
def world(db, settings, tmp_path) -> World:
    settings.DATA_DIR = tmp_path  # ann's data export is written there
    ann, bea, cal = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    staff = factories.staff_make("staff")
    joined = timezone.now() - timedelta(weeks=8, hours=1)  # 8 days earned, 2 to start with
    get_user_model().objects.update(date_joined=joined)
    public = _seeded("faraway", [ann, bea], public=True)
    private = _seeded("gulliver", [ann, bea], public=False)
    finished = factories.match_make(players=[ann, bea], seed=SEED_BASE - 1, public=True)
    factories.play_random(finished, random.Random(5))
    invite = factories.match_make(players=[ann], seats=3, public=False)
    challenged = match_challenge_create(
        created_by=ann, challenges={1: bea}, game="faraway", num_players=2
    )
    for match in (public, private, finished):
        match.refresh_from_db()
    for person in (ann, bea, cal):
        ladder_join(game="faraway", user=person)
    laddered = ladder_challenge(game="faraway", challenger=bea, target_name="ann")
    token = notify.unsubscribe_token(ann.pk, next(iter(notify.KINDS)))
    league = Event.objects.create(
        name="Matrix league", game="faraway", seats=2, circle_size=5, deadline_days=1
    )
    cup = Event.objects.create(
        kind=Event.Kind.CUP,
        name="Matrix cup",
        game="faraway",
        seats=2,
        circle_size=5,
        deadline_days=1,
        open_tables_most=1,
        places_least=2,
        rounds=3,
    )
    email_pending_hold(ann, email="ann.new@example.org")
    confirm = confirm_token(ann.pk, "ann.new@example.org")
    export = data_export_write(export_id=data_export_request(user=ann).pk)
    device = device_make(ann)
    clients = {ANONYMOUS: Client()}
    for role, user in ((OUTSIDER, cal), (SEAT_0, ann), (SEAT_1, bea), (STAFF, staff)):
        clients[role] = factories.client_for(user)
    # The names the matrix's URLs and FORMS use: match ids, versions (pv, qv: of the public and
    # the private match in play), seat 0's first legal moves, and the links' tokens.
    values = {
        "pub": str(public.pk),
        "lg": str(league.pk),
        "cp": str(cup.pk),
        "priv": str(private.pk),
        "fin": str(finished.pk),
        "inv": str(invite.pk),
        "chal": str(challenged.pk),
        "lc": str(laddered.pk),
        "ci": str(Invitation.objects.get(match=challenged).pk),
        "missing": str(max(public.pk, private.pk, finished.pk, invite.pk) + 1000),
        "pv": str(public.version),
        "pub_stale": str(public.version - 1),
        "qv": str(private.version),
        "fin_v": str(finished.version),
        "pub_move": json.dumps(factories.legal_moves(public, 0)[0]),
        "priv_move": json.dumps(factories.legal_moves(private, 0)[0]),
        "invite": invite.invite_token,
        "unsub": token,
        "export": str(export.pk),
        "device": str(device.pk),
        "bad": token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        "today": timezone.localdate().isoformat(),
        "too_far": (timezone.localdate() + timedelta(days=40)).isoformat(),  # past the cap
        "confirm": confirm,
        "badconf": confirm[:-2] + ("AA" if not confirm.endswith("AA") else "BB"),
    }
    return World(
        clients=clients,
        values=values,
        running={"public": public, "private": private},
        seats={ANONYMOUS: None, OUTSIDER: None, SEAT_0: 0, SEAT_1: 1, STAFF: None},
        secrets=[str(m.seed) for m in (public, private)] + [m.salt for m in (public, private)],
        private_marks=[
            f"/matches/{private.pk}/",
            private.invite_token,
            f"/matches/{challenged.pk}/",
            challenged.invite_token,
            f"/matches/{laddered.match_id}/",  # the ladder's match is private too
            laddered.match.invite_token,
        ],
    )


def hidden_cards(match: Match, seat: int | None) -> set[str]:
    """The cards in other seats' hands that nothing in ``seat``'s own view shows."""
    engine = get_engine(match.game)
    state = engine.load(match.state)
    others = set()
    for other in range(match.num_players):
        if other != seat:
            others |= set(engine.view(state, other).get("hand") or [])
    return others - set(_strings(engine.view(state, seat)))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def answer_of(response) -> Any:
    """The response as the matrix names it."""
    target = response.get("Location") or ""
    signed_out = response.status_code == 401 and "HX-Redirect" not in response
    if signed_out and 'href="/accounts/login/?next=' in response.content.decode():
        return S
    if target.startswith("/admin/login/"):
        return A
    if target.startswith("/accounts/login/"):
        return L
    if target.startswith("/accounts/register/"):
        return R
    if response.status_code == 302 and re.fullmatch(r"/matches/\d+/", target):
        return T
    return response.status_code


def test_the_matrix_names_every_role_once_per_row() -> None:
    assert all(len(row.answers) == len(ROLES) for row in MATRIX)
    assert len({(row.what, row.url, row.htmx) for row in MATRIX}) == len(MATRIX)


@pytest.mark.parametrize("about", ["public", "private"])
def test_the_hidden_card_check_would_see_a_leak(about: str, world: World) -> None:
    """Seat 1's own table shows, as cards, what seat 0 and spectators must not see: the
    check below looks for something that is really there on the wrong page."""
    match = world.running[about]
    page = world.clients[SEAT_1].get(f"/matches/{match.pk}/").content.decode()
    for seat in (0, None):
        hidden = hidden_cards(match, seat)
        assert hidden and any(f'data-card="{card}"' in page for card in hidden), seat


def ask(world: World, row: Row, role: str):
    """One cell of the matrix: the row's request as ``role``, rolled back afterwards."""
    url = row.url.format(**world.values)
    data = {key: value.format(**world.values) for key, value in FORMS.get(row.what, {}).items()}
    headers = {"HX-Request": "true"} if row.htmx else {}
    client = world.clients[role]
    with transaction.atomic():
        if row.method == "GET":
            response = client.get(url, headers=headers)
        else:
            response = client.post(url, data, headers=headers)
        transaction.set_rollback(True)
    return response


def leaks(world: World, row: Row, role: str, response) -> list[str]:
    """What ``response`` shows ``role`` that it must not."""
    found = []
    raw = b"".join(response.streaming_content) if response.streaming else response.content
    body = raw.decode("utf-8", errors="replace")
    if row.about and response.status_code == 200:
        match = world.running[row.about]
        shown = _strings(json.loads(body)) if row.url.endswith(".json") else []
        for card in sorted(hidden_cards(match, world.seats[role])):
            if f'data-card="{card}"' in body or card in shown:
                found.append(f"another seat's card {card}")
    if not row.url.startswith("/admin/"):
        found += ["a seed or salt of a match in play" for s in world.secrets if s in body]
        if role in (ANONYMOUS, OUTSIDER, STAFF):
            found += ["the private match" for mark in world.private_marks if mark in body]
    return found


def test_every_role_gets_the_matrix_answer_and_sees_nothing_hidden(world: World) -> None:
    """Every cell of the matrix, one world for all (each request rolled back); every
    disagreement is listed at once, row by row."""
    problems = []
    for row in MATRIX:
        for role, expected in zip(ROLES, row.answers, strict=True):
            response = ask(world, row, role)
            got = answer_of(response)
            if got != expected:
                problems.append(
                    f"{row.what} ({row.how} {row.url}) as {role}: {got}, not {expected}"
                )
            problems += [
                f"{row.what} as {role} shows {leak}" for leak in leaks(world, row, role, response)
            ]
    assert not problems, "\n".join(problems)
