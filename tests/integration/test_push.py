"""Web push (docs/notifications.md, "Web push"): a person's devices, the turn push they get, and
how the turn mail waits for it.

Every push goes for real, over HTTP, to a stand-in push service on loopback
(``tests/push_service.py``), which the test reads as the browser would: it decrypts each body
with the subscription's private key (RFC 8291) and checks the VAPID signature (RFC 8292). Tasks
run eagerly with no delay; a move's on-commit callbacks are run with pytest-django's
``django_capture_on_commit_callbacks``, as the worker would run the task.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import NotificationSettings, PushSubscription
from accounts.services.data_export import data_export_request, data_export_write
from accounts.services.deletion import account_delete
from accounts.services.push_devices import device_names
from games.engines import get_engine
from games.models import Match, MatchNotice, Seat
from games.push.turn import turn_push_send
from games.selectors.notifications import turn_mails_due
from games.services import move_submit
from games.services.notifications import turn_mail_send
from games.tasks import turn_push
from tests import factories
from tests.push_service import Browser, PushService, push_service_running, vapid_claims

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/accounts/notifications/devices/"
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


@pytest.fixture(autouse=True)
def _push_at_once(settings) -> None:
    settings.PARLOUR_PUSH_LOOPBACK = True  # the stand-in service is on loopback, over http
    settings.PARLOUR_TURN_PUSH_DELAY = 0
    settings.PARLOUR_TURN_MAIL_DELAY = 0


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service_running() as running:
        yield running


def subscribe(client: Client, body: object, agent: str = PHONE_AGENT):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        SUBSCRIBE, data, content_type="application/json", headers={"User-Agent": agent}
    )


def device_add(client: Client, service: PushService, name: str) -> Browser:
    browser = Browser()
    response = subscribe(client, browser.subscription(service.endpoint(name)))
    assert response.status_code == 201, response.content
    return browser


def play(match: Match) -> None:
    """The awaited seat makes its first legal move."""
    match.refresh_from_db()
    seat = match.seats.get(index=match.awaiting[0])
    move = factories.legal_moves(match, seat.index)[0]
    move_submit(match=match, seat=seat, move=move, expected_version=match.version)


def turn_to(match: Match, user, capture) -> None:
    """Play the others' moves through the services until ``user`` is awaited, running the
    on-commit work (the turn push among it) as each move commits, as the worker would."""
    for _ in range(20):
        match.refresh_from_db()
        if match.seats.get(index=match.awaiting[0]).user_id == user.pk:
            return
        with capture(execute=True):
            play(match)
    raise AssertionError("never their turn")


def hand_of(match: Match, user) -> list[str]:
    engine = get_engine(match.game)
    seat = match.seats.get(user=user).index
    return engine.view(engine.load(match.state), seat)["hand"]


# --- The turn push ----------------------------------------------------------------------------


def test_a_turn_push_reaches_each_device_encrypted_signed_and_headed(
    ann, bea, ann_client, service, settings, django_capture_on_commit_callbacks
):
    phone = device_add(ann_client, service, "phone")
    laptop = device_add(ann_client, service, "laptop")
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    turn_to(match, ann, django_capture_on_commit_callbacks)
    [to_phone], [to_laptop] = service.to("phone"), service.to("laptop")
    expected = {
        "title": f"Your turn: The Faraway Tree #{match.pk}",
        "body": "Open the table to play your move.",
        "url": f"/matches/{match.pk}/",
        "tag": f"match-{match.pk}",
    }
    assert phone.read(to_phone) == expected and laptop.read(to_laptop) == expected
    for push in (to_phone, to_laptop):
        assert push.headers["ttl"] == "43200"
        assert push.headers["urgency"] == "normal"
        assert push.headers["topic"] == f"match-{match.pk}"
        assert push.headers["content-encoding"] == "aes128gcm"
        claims = vapid_claims(push, settings.PARLOUR_VAPID_PUBLIC_KEY)
        assert claims["aud"] == service.origin  # the endpoint's origin, nothing more
        assert claims["sub"] == settings.PARLOUR_VAPID_SUBJECT
    # Nothing of the match beyond its game and number: no seed, salt or card.
    match.refresh_from_db()
    sent = json.dumps(expected)
    # The only number sent is the match's (a small seed is a substring of many a number).
    assert set(re.findall(r"\d+", sent)) == {str(match.pk)}
    assert match.salt not in sent
    assert not any(f'"{card}"' in sent for card in hand_of(match, ann))
    assert all(d.last_success_at for d in PushSubscription.objects.filter(user=ann))
    assert MatchNotice.objects.get(user=ann, match=match).turn_pushed_at is not None
    assert service.to("phone") and not [r for r in service.received if "bea" in r.path]


def test_gone_devices_are_removed_and_a_failing_one_is_kept(
    ann, bea, ann_client, service, django_capture_on_commit_callbacks
):
    for name, status in (("gone", 410), ("unknown", 404), ("broken", 500)):
        service.answers[f"/push/{name}"] = status
        device_add(ann_client, service, name)
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    turn_to(match, ann, django_capture_on_commit_callbacks)
    assert [len(service.to(n)) for n in ("gone", "unknown", "broken")] == [1, 1, 1]
    kept = PushSubscription.objects.get(user=ann)
    assert kept.endpoint == service.endpoint("broken") and kept.last_success_at is None
    # No device took it: the turn mail does not wait for a push nobody got.
    assert MatchNotice.objects.get(user=ann, match=match).turn_pushed_at is None


def test_a_push_service_that_does_not_answer_keeps_the_device(ann, bea, ann_client):
    with push_service_running() as service:
        device_add(ann_client, service, "phone")
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, ann, lambda execute: nullcontext())  # no task run yet
    # The service is gone: the connection is refused, the device kept for the next push.
    assert turn_push_send(match_id=match.pk, user_id=ann.pk) == 0
    assert PushSubscription.objects.filter(user=ann).count() == 1
    assert MatchNotice.objects.get(user=ann, match=match).turn_pushed_at is None


def test_a_person_not_awaited_or_at_the_table_gets_nothing(
    ann, bea, ann_client, service, django_capture_on_commit_callbacks
):
    device_add(ann_client, service, "phone")
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    assert service.received == []  # bea's turn, and bea has no device
    assert turn_push_send(match_id=match.pk, user_id=ann.pk) == 0  # not awaited
    # ann's turn begins (no task run: it stands for the delay) and she opens the table before
    # the push's check: she is marked seen, and the check sends nothing.
    turn_to(match, ann, lambda execute: nullcontext())
    assert ann_client.get(f"/matches/{match.pk}/").status_code == 200
    assert turn_push_send(match_id=match.pk, user_id=ann.pk) == 0
    assert service.received == []


def test_turned_off_in_the_settings_or_removed_sends_nothing(
    ann, bea, ann_client, service, django_capture_on_commit_callbacks
):
    device_add(ann_client, service, "phone")
    NotificationSettings.objects.create(user=ann, push_turn=False)
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    turn_to(match, ann, django_capture_on_commit_callbacks)
    assert service.received == []
    NotificationSettings.objects.filter(user=ann).update(push_turn=True)
    device = PushSubscription.objects.get(user=ann)
    response = ann_client.post(f"/accounts/notifications/devices/{device.pk}/remove/")
    assert response.status_code == 302 and response["Location"] == "/accounts/notifications/"
    assert turn_push_send(match_id=match.pk, user_id=ann.pk) == 0
    assert service.received == [] and not PushSubscription.objects.exists()


def test_one_push_a_turn_however_often_the_task_runs(
    ann, bea, ann_client, service, django_capture_on_commit_callbacks
):
    device_add(ann_client, service, "phone")
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    turn_to(match, ann, django_capture_on_commit_callbacks)
    assert len(service.to("phone")) == 1
    assert turn_push_send(match_id=match.pk, user_id=ann.pk) == 0  # a redelivered task
    assert len(service.to("phone")) == 1


def test_a_late_turn_push_task_of_an_earlier_turn_does_not_push_a_new_one(
    ann, bea, ann_client, service, settings, django_capture_on_commit_callbacks
):
    """A push belongs to one turn, as a mail does: the task of turn T, run once ann played T and
    is awaited again (T2, just begun), pushes nothing; one queued without its turn pushes only
    a turn awaited for the whole push delay."""
    settings.PARLOUR_TURN_MAIL_DELAY = 180  # no mail task runs: only the pushes are looked at
    device_add(ann_client, service, "phone")
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks() as held:  # bea's moves: ann's turn T, task held
        turn_to(match, ann, lambda execute: nullcontext())
    assert held  # T's tasks
    turn_to(match, bea, lambda execute: nullcontext())  # ann plays T, no task run
    turn_to(match, ann, lambda execute: nullcontext())  # T2 begins
    for callback in held:  # T's push task fires in T2
        callback()
    assert service.received == []
    assert not MatchNotice.objects.filter(user=ann, turn_pushed_at__isnull=False).exists()
    match.refresh_from_db()
    settings.PARLOUR_TURN_PUSH_DELAY = 10
    assert turn_push.apply((match.pk, ann.pk, match.version)).get() == 0  # T2 just begun
    Seat.objects.filter(match=match, user=ann).update(
        awaited_since=timezone.now() - timedelta(seconds=11)
    )
    assert turn_push.apply((match.pk, ann.pk, match.version)).get() == 1
    assert len(service.to("phone")) == 1


def test_the_turn_mail_waits_after_a_push_and_goes_later_if_still_unseen(
    ann, bea, ann_client, service, settings, mailoutbox, django_capture_on_commit_callbacks
):
    device_add(ann_client, service, "phone")
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    turn_to(match, ann, django_capture_on_commit_callbacks)  # the push, then the mail's check
    assert len(service.to("phone")) == 1
    assert mailoutbox == []  # the mail waits: a device has it
    later = timezone.now() + timedelta(seconds=settings.PARLOUR_TURN_MAIL_AFTER_PUSH - 60)
    assert (match.pk, ann.pk) not in turn_mails_due(now=later)
    # The wait is over and she has not looked: beat's sweep finds the mail, and it goes.
    pushed = timezone.now() - timedelta(seconds=settings.PARLOUR_TURN_MAIL_AFTER_PUSH + 1)
    MatchNotice.objects.filter(user=ann, match=match).update(turn_pushed_at=pushed)
    assert (match.pk, ann.pk) in turn_mails_due(now=timezone.now())
    assert turn_mail_send(match_id=match.pk, user_id=ann.pk) is True
    assert [m.to for m in mailoutbox] == [[ann.email]]


def test_without_a_device_the_turn_mail_goes_as_before(
    ann, bea, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    turn_to(match, bea, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    turn_to(match, ann, django_capture_on_commit_callbacks)
    assert [m.to for m in mailoutbox] == [[ann.email]]


# --- Devices: subscribing, the cap, removing ----------------------------------------------------


def test_subscribing_keeps_the_device_with_its_label_and_never_shows_its_keys(
    ann, ann_client, service
):
    browser = Browser()
    response = subscribe(ann_client, browser.subscription(service.endpoint("phone")))
    assert response.status_code == 201
    device = PushSubscription.objects.get(user=ann)
    assert response.json() == {"device": device.pk, "label": "Chrome on Android"}
    assert (device.p256dh, device.auth) == (
        browser.p256dh,
        browser.subscription("")["keys"]["auth"],
    )
    page = ann_client.get("/accounts/notifications/").content.decode()
    assert "Chrome on Android" in page and f'id="device-remove-{device.pk}"' in page
    assert device.endpoint not in page and device.p256dh not in page and device.auth not in page


@pytest.mark.parametrize(
    ("agent", "names"),
    [
        (PHONE_AGENT, ("Chrome", "Android")),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
            ("Firefox", "Linux"),
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0 Safari/537.36 Edg/126.0",
            ("Edge", "Windows"),
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Safari/604.1",
            ("Safari", "iPhone"),
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Version/17.5 Safari/605.1.15",
            ("Safari", "macOS"),
        ),
        ("SomeBot/1.0", ("", "")),
    ],
)
def test_a_device_keeps_the_names_of_its_browser_and_system_only(agent, names):
    assert device_names(agent) == names


def test_a_german_reader_reads_the_device_names_in_german(ann, ann_client, service):
    """Issue 37: the stored names are proper names; "X on Y" and "A browser" are worded when
    read, in the reader's language: the subscription's answer and the devices list."""
    ann_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    response = subscribe(ann_client, Browser().subscription(service.endpoint("phone")))
    assert response.status_code == 201
    assert response.json()["label"] == "Chrome unter Android"
    subscribe(ann_client, Browser().subscription(service.endpoint("odd")), agent="SomeBot/1.0")
    subscribe(
        ann_client,
        Browser().subscription(service.endpoint("fox")),
        agent="Mozilla/5.0 (Windows NT 10.0; rv:128.0) Gecko/20100101 Firefox/128.0",
    )
    stored = set(PushSubscription.objects.values_list("browser", "system"))
    assert stored == {("Chrome", "Android"), ("", ""), ("Firefox", "Windows")}
    page = ann_client.get("/accounts/notifications/").content.decode()
    names = re.findall(r'<span class="device-name"><strong>(.*?)</strong>', page)
    assert sorted(names) == ["Chrome unter Android", "Ein Browser", "Firefox unter Windows"]
    assert 'aria-label="Chrome unter Android entfernen"' in page
    assert " on " not in " ".join(names) and "A browser" not in page
    english = factories.client_for(ann)
    english.defaults["HTTP_ACCEPT_LANGUAGE"] = "en-GB"
    page = english.get("/accounts/notifications/").content.decode()
    assert "<strong>Chrome on Android</strong>" in page and "<strong>A browser</strong>" in page


def test_the_migration_splits_the_old_labels_into_names():
    migration = importlib.import_module("accounts.migrations.0017_push_device_browser_system")
    split = migration.names_from_label
    assert split("Chrome on Android") == ("Chrome", "Android")
    assert split("Firefox") == ("Firefox", "") and split("iPad") == ("", "iPad")
    assert split("A browser") == ("", "") and split("Nonsense on Stilts") == ("", "")
    for label in ("Safari on macOS", "Edge", "Linux", "A browser"):
        assert migration.label_from_names(*split(label)) == label


def test_the_same_browser_again_is_the_same_device_and_follows_who_subscribed_last(
    ann, bea, ann_client, bea_client, service
):
    browser = Browser()
    subscribe(ann_client, browser.subscription(service.endpoint("shared")))
    subscribe(ann_client, browser.subscription(service.endpoint("shared")))
    assert PushSubscription.objects.filter(user=ann).count() == 1
    subscribe(bea_client, Browser().subscription(service.endpoint("shared")))
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [bea.pk]


def test_a_sixth_device_replaces_the_oldest(ann, bea, ann_client, bea_client, service):
    device_add(bea_client, service, "bea-phone")
    for number in range(6):
        device_add(ann_client, service, f"ann-{number}")
    endpoints = set(PushSubscription.objects.filter(user=ann).values_list("endpoint", flat=True))
    assert endpoints == {service.endpoint(f"ann-{n}") for n in range(1, 6)}
    assert PushSubscription.objects.filter(user=bea).count() == 1  # nobody else's is touched


def test_removing_another_persons_device_is_a_404_and_changes_nothing(
    ann, bea, ann_client, bea_client, service
):
    device_add(bea_client, service, "bea-phone")
    device = PushSubscription.objects.get(user=bea)
    url = f"/accounts/notifications/devices/{device.pk}/remove/"
    assert ann_client.post(url).status_code == 404
    assert ann_client.post("/accounts/notifications/devices/999999/remove/").status_code == 404
    assert ann_client.get(url).status_code == 405
    assert Client().post(url).status_code == 302  # signed out: to the sign-in page
    assert PushSubscription.objects.filter(pk=device.pk).exists()
    assert bea_client.post(url).status_code == 302  # bea's own: removed
    assert bea_client.post(url).status_code == 404  # a double click


def _garbage(service: PushService) -> dict[str, object]:
    good = Browser().subscription(service.endpoint("x"))
    keys = good["keys"]

    def with_keys(**changed: object) -> dict[str, object]:
        return {**good, "keys": {**keys, **changed}}

    off_curve = "BA" + "A" * 85  # 65 bytes starting 0x04, not a point of P-256
    return {
        "not JSON": "{endpoint",
        "not an object": "[1, 2]",
        "no keys": {"endpoint": good["endpoint"]},
        "no endpoint": {"keys": keys},
        "endpoint a number": {**good, "endpoint": 5},
        "plain http elsewhere": {**good, "endpoint": "http://push.example.org/x"},
        "https, unknown service": {**good, "endpoint": "https://evil.example/x"},
        "a look-alike host": {**good, "endpoint": "https://fcm.googleapis.com.evil.example/x"},
        "credentials in it": {**good, "endpoint": "https://u:p@fcm.googleapis.com/x"},
        "a bad port": {**good, "endpoint": "https://fcm.googleapis.com:99999/x"},
        "javascript": {**good, "endpoint": "javascript:alert(1)"},
        "too long": {**good, "endpoint": "https://fcm.googleapis.com/" + "a" * 1000},
        "spaces": {**good, "endpoint": "https://fcm.googleapis.com/a b"},
        "p256dh too short": with_keys(p256dh=keys["p256dh"][:-4]),
        "p256dh off the curve": with_keys(p256dh=off_curve),
        "p256dh not base64url": with_keys(p256dh="!" * 87),
        "auth too long": with_keys(auth=keys["auth"] + "AAAA"),
        "auth a list": with_keys(auth=["x"]),
        "huge": {**good, "padding": "x" * 5000},
    }


def test_garbage_subscriptions_are_a_400_with_a_reason_and_nothing_is_kept(
    ann, ann_client, service
):
    for what, body in _garbage(service).items():
        response = subscribe(ann_client, body)
        assert response.status_code == 400, what
        assert response.json()["error"], what
    assert not PushSubscription.objects.exists()


def test_loopback_endpoints_only_where_the_setting_allows_them(ann, ann_client, service, settings):
    settings.PARLOUR_PUSH_LOOPBACK = False
    response = subscribe(ann_client, Browser().subscription(service.endpoint("x")))
    assert response.status_code == 400 and "https" in response.json()["error"]
    real = Browser().subscription("https://fcm.googleapis.com/fcm/send/abc:def")
    assert subscribe(ann_client, real).status_code == 201


def test_subscribing_needs_a_sign_in_a_post_and_a_csrf_token(ann, service):
    body = json.dumps(Browser().subscription(service.endpoint("x")))
    assert Client().post(SUBSCRIBE, body, content_type="application/json").status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ann)
    assert strict.post(SUBSCRIBE, body, content_type="application/json").status_code == 403
    assert factories.client_for(ann).get(SUBSCRIBE).status_code == 405
    assert not PushSubscription.objects.exists()


def test_a_subscription_sent_as_a_form_is_a_400_not_a_500(ann, service):
    """Found by the fuzz suite's PostgreSQL pass: with a CSRF check, a multipart POST is read
    as a stream for its token, and reading the body after it raised (a 500)."""
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ann)
    strict.get("/accounts/notifications/")
    token = strict.cookies["csrftoken"].value
    fields = {"endpoint": service.endpoint("x"), "csrfmiddlewaretoken": token}
    response = strict.post(SUBSCRIBE, fields)  # multipart, as the test client sends a dict
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    form = strict.post(
        SUBSCRIBE,
        "endpoint=x&csrfmiddlewaretoken=" + token,
        content_type="application/x-www-form-urlencoded",
    )
    assert form.status_code == 400
    assert not PushSubscription.objects.exists()


# --- The account's side -----------------------------------------------------------------------


def test_deleting_the_account_removes_its_devices(ann, bea, ann_client, bea_client, service):
    device_add(ann_client, service, "ann-phone")
    device_add(bea_client, service, "bea-phone")
    account_delete(user=ann)
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [bea.pk]


def test_the_data_export_lists_the_devices_without_their_keys(
    ann, ann_client, service, settings, tmp_path
):
    settings.DATA_DIR = tmp_path
    device_add(ann_client, service, "ann-phone")
    device = PushSubscription.objects.get(user=ann)
    export = data_export_write(export_id=data_export_request(user=ann).pk)
    body = json.loads(ann_client.get(f"/accounts/data/{export.pk}/").getvalue())
    assert body["push_devices"] == [
        {
            "browser": "Chrome",
            "system": "Android",
            "created_at": device.created_at.isoformat(),
            "last_success_at": None,
        }
    ]
    text = json.dumps(body)
    assert device.endpoint not in text and device.p256dh not in text and device.auth not in text
