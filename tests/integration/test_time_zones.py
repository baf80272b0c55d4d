"""Each person's time zone: chosen at sign-up (the browser's suggestion) and on the account page,
refused when it is not a zone, kept in the session so no request reads it from the database, and
used for every date a page or a mail shows, the zone named."""

from __future__ import annotations

import datetime
import html
import re
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import DataExport, NameChange, TimeZoneSetting
from accounts.selectors.notify import DEADLINE
from accounts.selectors.time_zone import SESSION_KEY
from games.models import Match
from games.services.notifications import deadline_reminder_send, notice_mail
from tests import factories

pytestmark = pytest.mark.django_db

GOOD = "climbing-the-tree-77"
# Friday 4 January 2030, 17:00 UTC: 18:00 in Paris, 02:00 on Saturday in Tokyo.
DUE = datetime.datetime(2030, 1, 4, 17, 0, tzinfo=datetime.UTC)


def _zone_of(user) -> str:
    return TimeZoneSetting.objects.get(user=user).zone.key


def _set_zone(user, name: str) -> None:
    TimeZoneSetting.objects.update_or_create(user=user, defaults={"zone": name})


def _register(client: Client, **fields: str):
    data = {
        "username": "zoe",
        "email": "zoe@example.org",
        "password1": GOOD,
        "password2": GOOD,
        **fields,
    }
    return client.post("/accounts/register/", data)


def _deadline_match(players) -> Match:
    match = factories.match_make(game="faraway", players=players, seed=8)
    Match.objects.filter(pk=match.pk).update(deadline_at=DUE)
    match.refresh_from_db()
    return match


# --- Choosing it ------------------------------------------------------------------------------


def test_sign_up_stores_the_zone_sent_and_the_session_uses_it_at_once(client):
    response = _register(client, time_zone="Asia/Tokyo")
    assert response.status_code == 302
    zoe = get_user_model().objects.get(username="zoe")
    assert _zone_of(zoe) == "Asia/Tokyo"
    assert client.session[SESSION_KEY] == "Asia/Tokyo"
    lobby = client.get("/matches/").content.decode()
    assert "Times show in Asia/Tokyo" in lobby


def test_sign_up_without_a_zone_is_utc(client):
    assert _register(client).status_code == 302
    assert _zone_of(get_user_model().objects.get(username="zoe")) == "UTC"


def test_the_list_is_the_zone_databases_places_grouped_by_region(ann, ann_client):
    """No raw dump of ~600 names: the places of zone.tab, in <optgroup>s by region, each with
    its city, country and IANA name; no aliases, ``localtime`` or ``Etc/GMT+5``."""
    page = ann_client.get("/accounts/time-zone/").content.decode()
    assert page.count("<option") < 450 and "data-zone-list" in page
    for gone in ("localtime", "Etc/GMT+5", "US/Eastern", '"America/Buenos_Aires"', "Factory"):
        assert gone not in page, gone
    groups = re.findall(r'<optgroup label="([^"]+)">', page)
    assert groups[0] == "UTC" and "Europe" in groups and "Americas" in groups and "Asia" in groups
    assert (
        '<option value="America/Argentina/Buenos_Aires">Buenos Aires, Argentina '
        "(America/Argentina/Buenos_Aires)</option>" in page
    )
    assert '<option value="Europe/Stockholm">Stockholm, Sweden (Europe/Stockholm)</option>' in page
    europe = page.split('<optgroup label="Europe">')[1].split("</optgroup>")[0]
    assert "Europe/Paris" in europe and "Asia/" not in europe
    assert '<option value="UTC" selected>' in page  # ann never chose: UTC


def _zone_list(page: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The time zone list of a page: each region's heading with its (value, label) options."""
    select = page.split("data-zone-list")[1].split("</select>")[0]
    return [
        (html.unescape(heading), [(v, html.unescape(t)) for v, t in OPTION.findall(body)])
        for heading, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, re.S)
    ]


OPTION = re.compile(r'<option value="([^"]+)"[^>]*>([^<]*)</option>')


def test_the_list_speaks_the_readers_language_in_as_many_statements(ann):
    """Issue 37: the regions' headings, the cities and the countries in German and French
    (Babel's words for places, the catalogues' for regions), the same zones in the same
    statements as in English, whose words are the zone database's, unchanged."""
    clients = {}
    for language in ("en-GB", "de-DE", "fr-FR"):
        clients[language] = factories.client_for(ann)
        clients[language].defaults["HTTP_ACCEPT_LANGUAGE"] = language
    lists, counts = {}, {}
    for language, client in clients.items():
        client.get("/accounts/time-zone/")  # the list of that language built once a process
        with CaptureQueriesContext(connection) as queries:
            page = client.get("/accounts/time-zone/").content.decode()
        counts[language] = len(queries.captured_queries)
        lists[language] = _zone_list(page)
    english, german, french = (dict(lists[code]) for code in ("en-GB", "de-DE", "fr-FR"))
    assert counts["de-DE"] == counts["fr-FR"] == counts["en-GB"]
    assert list(german)[:4] == ["UTC", "Afrika", "Amerika", "Antarktis"]
    assert list(french)[-3:] == ["Europe", "Océan Indien", "Océan Pacifique"]
    assert german["UTC"] == [("UTC", "UTC (Koordinierte Weltzeit)")]
    assert ("Asia/Kolkata", "Kalkutta, Indien (Asia/Kolkata)") in german["Asien"]
    assert ("Europe/Zurich", "Zürich, Schweiz (Europe/Zurich)") in german["Europa"]
    assert ("Europe/London", "Londres, Royaume-Uni (Europe/London)") in french["Europe"]
    assert ("Europe/London", "London, Britain (UK) (Europe/London)") in english["Europe"]
    assert ("Asia/Kolkata", "Kolkata, India (Asia/Kolkata)") in english["Asia"]
    for words in (german, french):  # the same zones under the same regions, sorted anew
        assert [sorted(v for v, _label in zones) for zones in words.values()] == [
            sorted(v for v, _label in zones) for zones in english.values()
        ]
    # Sorted as a reader would, accents aside: "Île de Man" among the "I"s, not after "Zurich".
    europe = [label for _value, label in french["Europe"]]
    isle = europe.index("Île de Man (Europe/Isle_of_Man)")
    assert europe[isle - 1].startswith("Helsinki") and europe[isle + 1].startswith("Istanbul")
    # A visitor's sign-up form reads its browser's language too.
    visitor = Client(HTTP_ACCEPT_LANGUAGE="fr-FR")
    register = _zone_list(visitor.get("/accounts/register/").content.decode())
    assert dict(register)["Amériques"] == french["Amériques"]


def test_a_stored_alias_is_still_shown_chosen_and_any_zone_still_saves(ann, ann_client):
    _set_zone(ann, "US/Eastern")
    page = ann_client.get("/accounts/").content.decode()
    assert '<optgroup label="Your zone">' in page
    assert '<option value="US/Eastern" selected>US/Eastern</option>' in page
    assert page.count("US/Eastern</option>") == 1
    for name in ("America/Buenos_Aires", "Asia/Calcutta", "US/Eastern"):
        assert ann_client.post("/accounts/time-zone/", {"zone": name}).status_code == 302
        assert _zone_of(ann) == name


@pytest.mark.parametrize("garbage", ["Mars/Olympus_Mons", "../../etc/passwd", "Factory", " "])
def test_sign_up_refuses_a_zone_that_is_not_one(client, garbage):
    response = _register(client, time_zone=garbage)
    assert response.status_code == 400
    assert "That is not a time zone we know: choose one from the list." in response.content.decode()
    assert not get_user_model().objects.filter(username="zoe").exists()


def test_the_sign_up_form_asks_the_browser_only_when_fresh(client):
    fresh = client.get("/accounts/register/").content.decode()
    assert "data-suggest-zone" in fresh and "js/time_zone.js" in fresh
    refused = _register(client, time_zone="Europe/Paris", password2="other-words-88")
    page = refused.content.decode()
    assert refused.status_code == 400 and "data-suggest-zone" not in page
    assert '<option value="Europe/Paris" selected>' in page  # the choice made is kept


def test_the_account_page_shows_the_zone_and_changes_it(ann, ann_client):
    page = ann_client.get("/accounts/").content.decode()
    assert 'id="account-time-zone"' in page
    assert '<strong id="account-time-zone-current">UTC</strong>' in page
    response = ann_client.post("/accounts/time-zone/", {"zone": "America/New_York"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/#account-time-zone"
    assert _zone_of(ann) == "America/New_York"
    assert ann_client.session[SESSION_KEY] == "America/New_York"
    page = ann_client.get("/accounts/").content.decode()
    assert "Times now show in America/New_York." in page
    assert '<strong id="account-time-zone-current">America/New_York</strong>' in page


@pytest.mark.parametrize("garbage", ["Mars/Olympus_Mons", "/etc/localtime", "", "UTC\x00"])
def test_a_garbage_zone_is_refused_with_a_message_and_changes_nothing(ann, ann_client, garbage):
    _set_zone(ann, "Europe/Paris")
    ann_client.post("/accounts/time-zone/", {"zone": "Europe/Paris"})
    response = ann_client.post("/accounts/time-zone/", {"zone": garbage})
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "That is not a time zone we know: choose one from the list." in page
        or "Choose a time zone." in page
    )
    assert _zone_of(ann) == "Europe/Paris"
    assert ann_client.session[SESSION_KEY] == "Europe/Paris"


def test_the_time_zone_page_needs_a_sign_in(client):
    for response in (client.get("/accounts/time-zone/"), client.post("/accounts/time-zone/")):
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not TimeZoneSetting.objects.exists()


# --- The session, not the database -----------------------------------------------------------


def test_signing_in_puts_the_zone_in_the_session(ann):
    _set_zone(ann, "Australia/Sydney")
    client = Client()
    response = client.post("/accounts/login/", {"username": "ann", "password": factories.PASSWORD})
    assert response.status_code == 302
    assert client.session[SESSION_KEY] == "Australia/Sydney"


def test_no_request_reads_the_zone_from_the_database(ann, bea):
    _set_zone(ann, "Europe/Paris")
    _set_zone(bea, "Asia/Tokyo")
    ann_client, bea_client = factories.client_for(ann), factories.client_for(bea)
    match = _deadline_match([ann, bea])
    clients = {ann.pk: ann_client, bea.pk: bea_client}
    seat = factories.awaited_seat(match)
    mover = clients[match.seats.get(index=seat).user_id]
    with CaptureQueriesContext(connection) as queries:
        poll = ann_client.get(
            f"/matches/{match.pk}/table/?version={match.version}", headers={"HX-Request": "true"}
        )
        played = factories.post_move(mover, match, factories.legal_moves(match, seat)[0])
        page = ann_client.get(f"/matches/{match.pk}/")
    assert poll.status_code == 204 and played.status_code == 200 and page.status_code == 200
    assert not [q for q in queries.captured_queries if "timezonesetting" in q["sql"].lower()]


def test_a_session_from_before_time_zones_reads_the_zone_once(ann, ann_client):
    _set_zone(ann, "Europe/Paris")
    session = ann_client.session
    del session[SESSION_KEY]
    session.save()
    assert "Times show in Europe/Paris" in ann_client.get("/matches/").content.decode()
    assert ann_client.session[SESSION_KEY] == "Europe/Paris"


def test_signed_out_visitors_see_utc_and_are_told_so(client):
    page = client.get("/").content.decode()
    assert "Times show in UTC (sign in to use yours)." in page


# --- Every date in the reader's zone ----------------------------------------------------------


def test_the_table_shows_the_deadline_in_each_readers_zone(ann, bea):
    _set_zone(ann, "Europe/Paris")
    _set_zone(bea, "Asia/Tokyo")
    match = _deadline_match([ann, bea])
    awaited = match.seats.get(index=factories.awaited_seat(match)).user
    readers = {ann.pk: factories.client_for(ann), bea.pk: factories.client_for(bea)}
    pages = {
        pk: client.get(f"/matches/{match.pk}/").content.decode() for pk, client in readers.items()
    }
    paris, tokyo = pages[ann.pk], pages[bea.pk]
    assert "Friday 4 Jan, 18:00</time> (Europe/Paris), in " in paris
    assert "Saturday 5 Jan, 02:00</time> (Asia/Tokyo), in " in tokyo
    assert 'datetime="2030-01-04T18:00:00+01:00"' in paris
    assert pages[awaited.pk].count("Your move by") == 1
    other = ann if awaited != ann else bea
    assert "Turn deadline" in pages[other.pk] and "Your move by" not in pages[other.pk]
    assert "UTC" not in paris.split('id="deadline"')[1].split("</p>")[0]


def test_the_lobby_tells_the_awaited_player_when_the_move_is_due(ann, bea):
    _set_zone(ann, "Asia/Tokyo")
    _set_zone(bea, "Asia/Tokyo")
    match = _deadline_match([ann, bea])
    awaited = match.seats.get(index=factories.awaited_seat(match)).user
    other = bea if awaited == ann else ann
    lobby = factories.client_for(awaited).get("/matches/").content.decode()
    assert (
        'due <time datetime="2030-01-05T02:00:00+09:00" '
        'title="Saturday 5 Jan, 02:00 (Asia/Tokyo)">in ' in lobby
    )
    assert "due <time" not in factories.client_for(other).get("/matches/").content.decode()


def test_a_profile_dates_in_the_readers_zone(ann, bea, ann_client):
    get_user_model().objects.filter(pk=bea.pk).update(
        date_joined=datetime.datetime(2026, 3, 1, 23, 30, tzinfo=datetime.UTC)
    )
    assert "Member since 1 March 2026." in ann_client.get("/players/bea/").content.decode()
    _set_zone(ann, "Asia/Tokyo")
    tokyo = factories.client_for(ann)
    assert "Member since 2 March 2026." in tokyo.get("/players/bea/").content.decode()


def test_history_dates_in_the_readers_zone(ann, bea):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=8)
    late = datetime.datetime(2026, 3, 1, 23, 30, tzinfo=datetime.UTC)
    Match.objects.filter(pk=match.pk).update(started_at=late, created_at=late)
    _set_zone(ann, "Asia/Tokyo")
    page = factories.client_for(ann).get("/history/").content.decode()
    assert 'Started <time datetime="2026-03-02T08:30:00+09:00">2 Mar 2026</time>' in page


# --- Mail -------------------------------------------------------------------------------------


def test_the_deadline_mail_is_in_the_recipients_zone(ann, bea):
    _set_zone(ann, "Asia/Tokyo")
    match = _deadline_match([ann, bea])
    message = notice_mail(user=ann, match=match, kind=DEADLINE, due=DUE)
    html = message.alternatives[0][0]
    for body in (message.body, html):
        assert "due Saturday 5 January 2030, 02:00 (Asia/Tokyo)" in body
        assert "UTC" not in body
    plain = notice_mail(user=bea, match=match, kind=DEADLINE, due=DUE)
    assert "due Friday 4 January 2030, 17:00 (UTC)" in plain.body


def test_a_reminder_sent_by_the_worker_names_the_recipients_zone(ann, bea):
    _set_zone(ann, "Europe/Paris")
    _set_zone(bea, "Europe/Paris")
    match = _deadline_match([ann, bea])
    seat = match.seats.select_related("user", "match").get(index=factories.awaited_seat(match))
    Match.objects.filter(pk=match.pk).update(deadline_at=DUE)
    seat.match.deadline_at = DUE
    assert deadline_reminder_send(seat=seat, now=DUE - datetime.timedelta(hours=1))
    assert len(mail.outbox) == 1
    assert "due Friday 4 January 2030, 18:00 (Europe/Paris)" in mail.outbox[0].body


# --- The account page's times, labelled with the reader's zone (issue 33, bug 6) -------------

AUCKLAND = "Pacific/Auckland"


def _auckland(moment: datetime.datetime, form: str) -> str:
    return moment.astimezone(zoneinfo.ZoneInfo(AUCKLAND)).strftime(form)


def test_the_data_export_times_are_the_readers_and_say_so(ann):
    _set_zone(ann, AUCKLAND)
    created = timezone.now() - datetime.timedelta(hours=2)
    finished = created + datetime.timedelta(minutes=1)
    DataExport.objects.create(user=ann, status=DataExport.Status.READY, finished_at=finished)
    DataExport.objects.update(created_at=created)
    page = factories.client_for(ann).get("/accounts/").content.decode()
    section = page[
        page.index('id="account-data"') : page.index("</section>", page.index('id="account-data"'))
    ]
    prepared = _auckland(finished, "%Y-%m-%d %H:%M")
    kept = _auckland(created + datetime.timedelta(days=7), "%Y-%m-%d %H:%M")
    again = _auckland(created + datetime.timedelta(days=1), "%Y-%m-%d %H:%M")
    assert f"prepared {prepared}, kept until {kept}, {AUCKLAND} time)" in section
    assert f"You may ask for a new copy after {again} ({AUCKLAND})." in section
    assert "UTC" not in section


def test_the_next_rename_time_is_the_readers_and_says_so(ann):
    _set_zone(ann, AUCKLAND)
    changed = timezone.now() - datetime.timedelta(days=3)
    NameChange.objects.create(user=ann, old_name="anna", new_name="ann", changed_at=changed)
    page = factories.client_for(ann).get("/accounts/").content.decode()
    line = page[page.index('id="rename-next"') : page.index("</p>", page.index('id="rename-next"'))]
    allowed = changed + datetime.timedelta(days=30)
    when = f"{allowed.astimezone(zoneinfo.ZoneInfo(AUCKLAND)).day} " + _auckland(
        allowed, "%B %Y, %H:%M"
    )
    assert f"the next change is allowed from {when} ({AUCKLAND})." in line
    assert "UTC" not in line


def test_without_a_zone_the_times_say_utc(ann):
    created = timezone.now() - datetime.timedelta(hours=2)
    DataExport.objects.create(user=ann, status=DataExport.Status.READY, finished_at=created)
    DataExport.objects.update(created_at=created)
    page = factories.client_for(ann).get("/accounts/").content.decode()
    again = (created + datetime.timedelta(days=1)).astimezone(datetime.UTC)
    assert f"after {again:%Y-%m-%d %H:%M} (UTC)." in page
