"""Sign-in throttling: failed logins (django-axes), registration and password reset
(django-ratelimit on the database ``throttle`` cache). SQLite and PostgreSQL alike.

Every request names its address (``REMOTE_ADDR``) so the tests say whose limit they spend.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test import Client

from accounts.client_address import UNKNOWN_ADDRESS, client_address, normalised
from tests import factories

pytestmark = pytest.mark.django_db

HOME, AWAY = "10.0.0.1", "10.0.0.2"
WRONG = "not-the-password-at-all"
PAIR_LOCK = "Too many failed sign-ins for this account from your address."
ADDRESS_LOCK = "Too many failed sign-ins from your address."


@pytest.fixture(autouse=True)
def _empty_throttle_cache():
    # The cache table is not a model's, so transactional tests' flushes leave it as it was.
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def sign_in(client: Client, username: str, password: str, address: str = HOME, **extra):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def signed_in(client: Client) -> bool:
    return client.get("/matches/").status_code == 200


def fail(client: Client, username: str, times: int, address: str = HOME) -> None:
    for _ in range(times):
        response = sign_in(client, username, WRONG, address)
        assert response.status_code == 200
        assert "correct username and password" in response.content.decode()


def test_fifth_failure_locks_the_account_and_the_right_password_is_refused(client, ann):
    fail(client, "ann", 4)
    fifth = sign_in(client, "ann", WRONG)
    assert fifth.status_code == 429
    right = sign_in(client, "ann", factories.PASSWORD)
    assert right.status_code == 429
    page = right.content.decode()
    assert PAIR_LOCK in page
    assert "Try again in about 15 minutes." in page
    # The login page itself, in the site's look, with the username filled back in.
    assert 'id="login-form"' in page and 'class="site-header"' in page
    assert 'value="ann"' in page
    assert WRONG not in page and factories.PASSWORD not in page
    assert not signed_in(client)


def test_the_lock_holds_for_that_account_from_that_address_only(client, ann, bea):
    fail(client, "ann", 5 - 1)
    assert sign_in(client, "ann", WRONG).status_code == 429
    other_account = Client()
    assert sign_in(other_account, "bea", factories.PASSWORD).status_code == 302
    assert signed_in(other_account)
    elsewhere = Client()
    assert sign_in(elsewhere, "ann", factories.PASSWORD, AWAY).status_code == 302
    assert signed_in(elsewhere)
    # Signing in elsewhere clears that address's count, not the locked one.
    assert sign_in(Client(), "ann", factories.PASSWORD, HOME).status_code == 429


def test_the_lock_lifts_after_the_cool_off_and_the_message_counts_down(client, ann):
    fail(client, "ann", 4)
    assert sign_in(client, "ann", WRONG).status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=10))
    page = sign_in(client, "ann", factories.PASSWORD).content.decode()
    assert "Try again in about 5 minutes." in page
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=4, seconds=30))
    assert "Try again in about 1 minute." in sign_in(client, "ann", WRONG).content.decode()
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=31))
    assert sign_in(client, "ann", factories.PASSWORD).status_code == 302
    assert signed_in(client)


def test_attempts_during_a_lockout_do_not_extend_it(client, ann):
    fail(client, "ann", 4)
    assert sign_in(client, "ann", WRONG).status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    for _ in range(3):
        assert sign_in(client, "ann", WRONG).status_code == 429
    assert AccessAttempt.objects.get().failures_since_start == 5
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=1, seconds=1))
    assert sign_in(client, "ann", factories.PASSWORD).status_code == 302


def test_a_successful_sign_in_resets_the_count(client, ann):
    fail(client, "ann", 4)
    assert sign_in(client, "ann", factories.PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="ann").exists()
    client.post("/accounts/logout/")
    fail(client, "ann", 4)  # four more are allowed again, not one
    assert sign_in(client, "ann", WRONG).status_code == 429


def test_an_address_failing_across_many_accounts_is_locked_for_all(client, settings, ann):
    settings.PARLOUR_LOGIN_ADDRESS_FAILURES = 12
    for name, times in (("bea", 4), ("cal", 4), ("dot", 3)):
        factories.user_make(name)
        fail(client, name, times)  # never five for one account: no pair lock
    twelfth = sign_in(client, "dot", WRONG)
    assert twelfth.status_code == 429
    assert ADDRESS_LOCK in twelfth.content.decode()
    response = sign_in(Client(), "ann", factories.PASSWORD)
    assert response.status_code == 429
    assert ADDRESS_LOCK in response.content.decode()
    # Another address is not affected.
    assert sign_in(Client(), "ann", factories.PASSWORD, AWAY).status_code == 302


def test_an_operator_unlocks_an_account_or_an_address(client, settings, ann, bea):
    fail(client, "ann", 4)
    assert sign_in(client, "ann", WRONG).status_code == 429
    call_command("axes_reset_username", "ann")
    assert sign_in(client, "ann", factories.PASSWORD).status_code == 302
    settings.PARLOUR_LOGIN_ADDRESS_FAILURES = 6
    fail(Client(), "ann", 4, AWAY)
    assert sign_in(Client(), "bea", WRONG, AWAY).status_code == 200
    assert sign_in(Client(), "bea", WRONG, AWAY).status_code == 429  # the sixth from AWAY
    call_command("axes_reset_ip", AWAY)
    assert sign_in(Client(), "bea", factories.PASSWORD, AWAY).status_code == 302


def test_the_admin_login_is_locked_too_and_shows_the_admins_page(client):
    factories.staff_make("root")
    for _ in range(4):
        response = client.post(
            "/admin/login/?next=/admin/",
            {"username": "root", "password": WRONG, "next": "/admin/"},
            REMOTE_ADDR=HOME,
        )
        assert response.status_code == 200
    assert (
        client.post(
            "/admin/login/", {"username": "root", "password": WRONG}, REMOTE_ADDR=HOME
        ).status_code
        == 429
    )
    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": factories.PASSWORD, "next": "/admin/"},
        REMOTE_ADDR=HOME,
    )
    assert response.status_code == 429
    page = response.content.decode()
    assert PAIR_LOCK in page
    assert 'class="errornote"' in page and 'id="login-form"' in page
    assert client.get("/admin/").status_code == 302  # still not signed in
    # The same account is locked on the site's own login from that address: one count.
    assert sign_in(Client(), "root", factories.PASSWORD).status_code == 429


def test_forwarded_for_is_ignored_unless_proxies_are_trusted(client, settings, ann):
    for n in range(5):
        sign_in(client, "ann", WRONG, HOME, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
    # A client cannot dodge its lock by claiming another address.
    response = sign_in(client, "ann", factories.PASSWORD, HOME, HTTP_X_FORWARDED_FOR="192.0.2.9")
    assert response.status_code == 429

    settings.PARLOUR_TRUSTED_PROXIES = 1
    proxy = "10.9.9.9"
    for _ in range(5):
        sign_in(client, "ann", WRONG, proxy, HTTP_X_FORWARDED_FOR="203.0.113.5")
    spoofed = "192.0.2.1, 203.0.113.5"  # the client's own entry is left of the proxy's
    assert (
        sign_in(client, "ann", factories.PASSWORD, proxy, HTTP_X_FORWARDED_FOR=spoofed).status_code
        == 429
    )
    # Someone else behind the same proxy is a different address.
    other = Client()
    response = sign_in(other, "ann", factories.PASSWORD, proxy, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert response.status_code == 302


def register(client: Client, username: str, address: str = HOME):
    return client.post(
        "/accounts/register/",
        {
            "username": username,
            "email": f"{username}@example.org",
            "password1": "climbing-the-tree-77",
            "password2": "climbing-the-tree-77",
        },
        REMOTE_ADDR=address,
    )


def test_registration_over_the_limit_is_refused_and_creates_no_user():
    User = get_user_model()
    for n in range(5):
        assert register(Client(), f"newcomer{n}").status_code == 302
    response = register(Client(), "one-too-many")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many registrations from your address." in page
    assert 'id="register-form"' in page and 'value="one-too-many"' in page
    assert "climbing-the-tree-77" not in page
    assert not User.objects.filter(username="one-too-many").exists()
    assert User.objects.count() == 5
    # Another address still registers.
    assert register(Client(), "from-elsewhere", AWAY).status_code == 302


def test_registration_counts_refused_forms_too():
    client = Client()
    for _ in range(5):
        response = client.post(
            "/accounts/register/", {"username": "x", "password1": "a"}, REMOTE_ADDR=HOME
        )
        assert response.status_code == 400
    assert register(Client(), "patient").status_code == 429


def reset(client: Client, email: str, address: str = HOME):
    return client.post("/accounts/password_reset/", {"email": email}, REMOTE_ADDR=address)


def test_password_reset_per_email_limit_sends_no_more_mail(ann, mailoutbox):
    addresses = ["10.1.0.1", "10.1.0.2", "10.1.0.3", "10.1.0.4"]
    for address in addresses[:3]:
        assert reset(Client(), "ann@example.com", address).status_code == 302
    assert len(mailoutbox) == 3
    # A fourth from yet another address: the e-mail address's own limit holds.
    response = reset(Client(), " ANN@example.com ", addresses[3])
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many password-reset requests." in page
    assert 'name="email"' in page
    assert len(mailoutbox) == 3


def test_password_reset_per_address_limit_sends_no_mail(ann, mailoutbox):
    for n in range(5):
        assert reset(Client(), f"nobody{n}@example.com").status_code == 302
    response = reset(Client(), "ann@example.com")
    assert response.status_code == 429
    assert mailoutbox == []
    # The refused POST did not spend ann's own allowance: from elsewhere, her mail comes.
    assert reset(Client(), "ann@example.com", AWAY).status_code == 302
    assert len(mailoutbox) == 1


GARBAGE_ADDRESSES = [
    "",
    "not-an-ip",
    "999.1.1.1",
    "::ffff:10.1.2.3",
    "[2001:db8::1]:443",
    "x" * 300,
]


@pytest.mark.parametrize("remote", GARBAGE_ADDRESSES)
@pytest.mark.parametrize("trusted", [0, 2])
def test_odd_addresses_and_headers_never_500(settings, remote, trusted, ann):
    settings.PARLOUR_TRUSTED_PROXIES = trusted
    client = Client(raise_request_exception=True)
    extra = {"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": f"{remote}, ,,garbage;%00"}
    for _ in range(6):
        response = client.post("/accounts/login/", {"username": "ann", "password": WRONG}, **extra)
        assert response.status_code in (200, 429)
    assert response.status_code == 429
    stored = set(AccessAttempt.objects.values_list("ip_address", flat=True))
    assert stored and all(normalised(value) == value for value in stored)
    assert client.post("/accounts/register/", {}, **extra).status_code == 400
    assert client.post("/accounts/password_reset/", {}, **extra).status_code == 200


def test_garbage_form_input_never_500(client, ann, mailoutbox):
    huge = "a" * 100_000
    cases = [
        ("/accounts/login/", {}),
        ("/accounts/login/", {"username": huge, "password": huge}),
        ("/accounts/login/", {"username": "ann\x00", "password": WRONG}),
        ("/accounts/register/", {"username": huge, "email": huge, "password1": huge}),
        ("/accounts/password_reset/", {"email": huge}),
        ("/accounts/password_reset/", {"email": "\x00@example.com"}),
        ("/admin/login/", {"username": huge, "password": ""}),
    ]
    for url, data in cases:
        response = client.post(url, data, REMOTE_ADDR=HOME)
        assert response.status_code < 500, (url, response.status_code)
    assert mailoutbox == []
    # The huge name did reach authenticate, and axes counted it under a name its column holds.
    assert AccessAttempt.objects.get(username="a" * 255).failures_since_start == 1


@pytest.mark.parametrize(
    ("meta", "trusted", "expected"),
    [
        ({"REMOTE_ADDR": "203.0.113.5"}, 0, "203.0.113.5"),
        ({"REMOTE_ADDR": "10.0.0.9", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, 0, "10.0.0.9"),
        (
            {"REMOTE_ADDR": "10.0.0.9", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.5"},
            1,
            "203.0.113.5",
        ),
        (
            {"REMOTE_ADDR": "10.0.0.9", "HTTP_X_FORWARDED_FOR": "203.0.113.5, 10.0.0.8"},
            2,
            "203.0.113.5",
        ),
        ({"REMOTE_ADDR": "10.0.0.9", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}, 2, "10.0.0.9"),
        ({"REMOTE_ADDR": "10.0.0.9", "HTTP_X_FORWARDED_FOR": "bogus"}, 1, "10.0.0.9"),
        ({"REMOTE_ADDR": "2001:db8:1:2:3:4:5:6"}, 0, "2001:db8:1:2::"),
        ({"REMOTE_ADDR": "::ffff:192.0.2.1"}, 0, "192.0.2.1"),
        ({"REMOTE_ADDR": "[2001:db8::1]:443"}, 0, "2001:db8::"),
        ({"REMOTE_ADDR": "192.0.2.1:8080"}, 0, "192.0.2.1"),
        ({"REMOTE_ADDR": "nonsense"}, 0, UNKNOWN_ADDRESS),
        ({}, 0, UNKNOWN_ADDRESS),
    ],
)
def test_client_address(rf, settings, meta, trusted, expected):
    settings.PARLOUR_TRUSTED_PROXIES = trusted
    request = rf.get("/")
    request.META.pop("REMOTE_ADDR", None)
    request.META.update(meta)
    assert client_address(request) == expected


def _expires(cache_key: str):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT expires FROM parlour_throttle_cache WHERE cache_key = %s", [cache_key]
        )
        return cursor.fetchone()[0]


def test_throttle_cache_incr_keeps_the_expiry():
    cache = caches["throttle"]
    assert cache.add("counter", 1, 3600)
    stored_key = cache.make_and_validate_key("counter")
    before = _expires(stored_key)
    assert cache.incr("counter") == 2
    assert cache.incr("counter", 5) == 7
    assert cache.decr("counter") == 6
    assert cache.get("counter") == 6
    assert _expires(stored_key) == before
    with pytest.raises(ValueError):
        cache.incr("never-added")


@pytest.mark.django_db(transaction=True)
def test_throttle_cache_incr_is_atomic_under_a_race():
    cache = caches["throttle"]
    assert cache.add("raced", 0, 3600)
    jobs = 12
    results = factories.at_once([lambda: cache.incr("raced") for _ in range(jobs)])
    assert sorted(results) == list(range(1, jobs + 1))
    assert cache.get("raced") == jobs


@pytest.mark.django_db(transaction=True)
def test_password_reset_limit_holds_under_a_burst(mailoutbox):
    """Eight resets for one e-mail address at once, each from its own address: the limit is 3,
    and exactly 3 mails go, however the requests interleave."""
    factories.user_make("ann")

    def one(n: int):
        return lambda: reset(Client(), "ann@example.com", f"10.2.0.{n}").status_code

    statuses = factories.at_once([one(n) for n in range(8)])
    assert sorted(statuses) == [302] * 3 + [429] * 5
    assert len(mailoutbox) == 3
