"""Confirmed e-mail (docs/accounts.md, "E-mail"): registration asks for an address and mails a
signed link; nothing is mailed to an address before its link is opened (turn mails, reminders,
password resets); a changed address waits while the confirmed one keeps receiving; the link
again is throttled per account; a link that no longer fits changes nothing."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from importlib import import_module
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import PendingEmail
from accounts.selectors.email_confirmation import CONFIRM_SALT, confirm_token
from accounts.services.email_confirmation import email_pending_hold
from games.models import Match, MatchNotice
from games.tasks import deadline_reminders, turn_mail
from tests import factories

pytestmark = pytest.mark.django_db

GOOD = "climbing-the-tree-77"
LINK = re.compile(r"https://parlour\.example(/accounts/email/confirm/[^/\s]+/)")


@pytest.fixture(autouse=True)
def _site(settings) -> None:
    settings.PARLOUR_SITE_URL = "https://parlour.example"
    settings.PARLOUR_TURN_MAIL_DELAY = 0


def _register(client: Client, username: str = "zoe", email: str = "zoe@example.org"):
    data = {"username": username, "email": email, "password1": GOOD, "password2": GOOD}
    return client.post("/accounts/register/", data)


def _link_in(message: mail.EmailMessage) -> str:
    return LINK.search(message.body).group(1)


def _user(username: str):
    return get_user_model().objects.get(username=username)


def _unconfirmed(user, address: str) -> None:
    """``user`` with no confirmed address and ``address`` waiting."""
    get_user_model().objects.filter(pk=user.pk).update(email="")
    user.refresh_from_db()
    email_pending_hold(user, email=address)


# --- Registration -----------------------------------------------------------------------------


def test_registration_mails_a_link_and_mails_nothing_else_until_it_is_opened(client, mailoutbox):
    response = _register(client)
    assert response.status_code == 302
    [sent] = mailoutbox
    assert sent.to == ["zoe@example.org"]
    assert sent.subject == "Confirm your e-mail address for Parlour"
    zoe = _user("zoe")
    assert zoe.email == "" and PendingEmail.objects.get(user=zoe).email == "zoe@example.org"
    lobby = client.get("/matches/").content.decode()
    assert "We mailed a link to zoe@example.org" in lobby
    # The link's page, signed out (the phone's mail app): a button, nothing changed yet.
    path = _link_in(sent)
    page = Client().get(path)
    assert page.status_code == 200 and 'id="confirm-submit"' in page.content.decode()
    assert _user("zoe").email == ""
    # The button confirms; the pending row goes.
    done = Client().post(path)
    assert done.status_code == 200 and 'id="confirm-done"' in done.content.decode()
    assert _user("zoe").email == "zoe@example.org"
    assert not PendingEmail.objects.exists()
    # A second click (or the mail opened again): told it is done, nothing changes.
    for method in (Client().get, Client().post, client.post):
        again = method(path)
        assert again.status_code == 200 and 'id="confirm-done"' in again.content.decode()
    assert _user("zoe").email == "zoe@example.org"
    assert len(mailoutbox) == 1


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("", "This field is required."),
        ("not-an-address", "valid email"),
        ("zoe@", "valid email"),
        ("a" * 250 + "@example.org", "at most 254"),
        ("ANN@example.COM", "Another account uses that address"),
    ],
)
def test_registration_refuses_a_missing_bad_or_taken_address(client, ann, email, message):
    response = _register(client, email=email)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not get_user_model().objects.filter(username="zoe").exists()
    assert not PendingEmail.objects.exists()


def test_an_address_only_waiting_elsewhere_does_not_block_registration(client, ann, mailoutbox):
    """Holding an address never confirmed must not let anyone keep its owner out."""
    _unconfirmed(ann, "zoe@example.org")
    assert _register(client).status_code == 302
    assert PendingEmail.objects.filter(email="zoe@example.org").count() == 2


def test_the_link_is_printed_by_the_console_backend(client, settings, capsys):
    """``make run`` mails to the console: the link is there to open."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert _register(client).status_code == 302
    printed = capsys.readouterr().out
    assert LINK.search(printed) is not None


def test_a_mail_that_cannot_be_sent_still_registers_and_says_so(client, settings):
    settings.EMAIL_BACKEND = "tests.integration.test_email_confirmation.FailingBackend"
    response = _register(client)
    assert response.status_code == 302
    assert "could not be sent" in client.get("/matches/").content.decode()
    assert PendingEmail.objects.get().email == "zoe@example.org"


class FailingBackend:
    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages) -> int:
        raise ConnectionRefusedError("no SMTP server")


# --- Links that no longer fit -----------------------------------------------------------------


def _refusal(response) -> str:
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="confirm-problem"' in page
    return page


def test_a_forged_or_tampered_link_changes_nothing(ann):
    _unconfirmed(ann, "new@example.org")
    token = confirm_token(ann.pk, "new@example.org")
    forged = signing.dumps({"u": ann.pk, "e": "new@example.org"}, salt="another.salt")
    other_shape = signing.dumps(["new@example.org"], salt=CONFIRM_SALT)
    no_user = signing.dumps({"u": "1", "e": "x@y.z"}, salt=CONFIRM_SALT)
    for bad in (token[:-2] + "xx", forged, other_shape, no_user, "garbage", "a" * 3000):
        for method in (Client().get, Client().post):
            assert "not valid" in _refusal(method(f"/accounts/email/confirm/{bad}/"))
    assert _user("ann").email == "" and PendingEmail.objects.get().email == "new@example.org"


def test_an_expired_link_changes_nothing(ann, settings):
    _unconfirmed(ann, "new@example.org")
    days = settings.PARLOUR_EMAIL_CONFIRM_DAYS
    with mock.patch.object(signing.time, "time", return_value=time.time() - days * 86400 - 60):
        token = confirm_token(ann.pk, "new@example.org")
    assert "expired" in _refusal(Client().post(f"/accounts/email/confirm/{token}/"))
    assert _user("ann").email == ""
    # A day short of the limit, it still works.
    with mock.patch.object(signing.time, "time", return_value=time.time() - (days - 1) * 86400):
        token = confirm_token(ann.pk, "new@example.org")
    assert Client().post(f"/accounts/email/confirm/{token}/").status_code == 200
    assert _user("ann").email == "new@example.org"


def test_a_link_for_an_address_changed_since_changes_nothing(ann, ann_client, mailoutbox):
    ann_client.post("/accounts/notifications/", {"form": "email", "email": "first@example.org"})
    ann_client.post("/accounts/notifications/", {"form": "email", "email": "second@example.org"})
    first, second = (_link_in(m) for m in mailoutbox)
    assert "no longer waits" in _refusal(ann_client.post(first))
    assert _user("ann").email == "ann@example.com"
    assert ann_client.post(second).status_code == 200
    assert _user("ann").email == "second@example.org"


def test_another_accounts_link_is_refused_to_whoever_is_signed_in(ann, bea):
    _unconfirmed(ann, "new@example.org")
    path = f"/accounts/email/confirm/{confirm_token(ann.pk, 'new@example.org')}/"
    for method in ("get", "post"):
        page = _refusal(getattr(factories.client_for(bea), method)(path))
        assert "another account" in page
    assert _user("ann").email == "" and _user("bea").email == "bea@example.com"


def test_an_address_confirmed_by_another_account_meanwhile_is_refused(ann, bea):
    _unconfirmed(ann, "shared@example.org")
    _unconfirmed(bea, "Shared@Example.org")
    bea_link = confirm_token(bea.pk, "Shared@Example.org")
    ann_link = confirm_token(ann.pk, "shared@example.org")
    assert Client().post(f"/accounts/email/confirm/{bea_link}/").status_code == 200
    assert "meanwhile" in _refusal(Client().post(f"/accounts/email/confirm/{ann_link}/"))
    assert _user("ann").email == ""


def test_a_link_for_a_deactivated_account_changes_nothing(ann):
    _unconfirmed(ann, "new@example.org")
    get_user_model().objects.filter(pk=ann.pk).update(is_active=False)
    token = confirm_token(ann.pk, "new@example.org")
    assert "no longer exists" in _refusal(Client().post(f"/accounts/email/confirm/{token}/"))
    assert _user("ann").email == ""


@pytest.mark.django_db(transaction=True)
def test_two_accounts_confirming_one_address_at_once_give_it_to_one():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    paths = []
    for user in (ann, bea):
        _unconfirmed(user, "shared@example.org")
        token = confirm_token(user.pk, "shared@example.org")
        paths.append(f"/accounts/email/confirm/{token}/")
    statuses = factories.at_once(
        [lambda p=p: Client().post(p).status_code for p in paths], timeout=30
    )
    assert sorted(statuses) == [200, 400]
    assert get_user_model().objects.filter(email="shared@example.org").count() == 1


# --- Changing the address ---------------------------------------------------------------------


def _turn_mail_to(user, match: Match) -> list[list[str]]:
    mail.outbox.clear()
    turn_mail.apply((match.pk, user.pk, match.version)).get()
    return [m.to for m in mail.outbox]


def test_a_new_address_is_used_only_once_confirmed(ann, bea, ann_client, mailoutbox):
    match = factories.match_make(players=[ann, bea], seed=4)
    person = match.seats.get(index=match.awaiting[0]).user
    client = factories.client_for(person)
    old = person.email
    response = client.post("/accounts/notifications/", {"form": "email", "email": "n@example.org"})
    assert response.status_code == 302
    link = _link_in(mailoutbox[0])
    page = client.get("/accounts/notifications/").content.decode()
    assert f"Mail goes to {old} until then" in page and 'id="email-pending"' in page
    person.refresh_from_db()
    assert _turn_mail_to(person, match) == [[old]]  # the confirmed address, not the new one
    assert client.post(link).status_code == 200
    person.refresh_from_db()
    MatchNotice.objects.update(turn_mailed_at=None)
    assert _turn_mail_to(person, match) == [["n@example.org"]]


def test_posting_the_confirmed_address_again_mails_nothing_and_drops_the_pending_one(
    ann, ann_client, mailoutbox
):
    email_pending_hold(ann, email="other@example.org")
    response = ann_client.post("/accounts/notifications/", {"form": "email", "email": ann.email})
    assert response.status_code == 302
    assert mailoutbox == [] and not PendingEmail.objects.exists()


def test_changing_the_address_is_throttled_per_account(ann, ann_client, mailoutbox, settings):
    settings.PARLOUR_EMAIL_CONFIRM_RATE = "2/h"
    for n in range(2):
        data = {"form": "email", "email": f"n{n}@example.org"}
        assert ann_client.post("/accounts/notifications/", data).status_code == 302
    data = {"form": "email", "email": "n9@example.org"}
    response = ann_client.post("/accounts/notifications/", data, REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 429
    assert "Too many confirmation mails asked for this account." in response.content.decode()
    assert len(mailoutbox) == 2 and PendingEmail.objects.get().email == "n1@example.org"


# --- Sending the link again -------------------------------------------------------------------


def test_the_link_again_is_throttled_per_account_with_a_clear_429(ann, settings, mailoutbox):
    settings.PARLOUR_EMAIL_CONFIRM_RATE = "3/h"
    _unconfirmed(ann, "new@example.org")
    client = factories.client_for(ann)
    page = client.get("/accounts/").content.decode()
    assert 'id="account-pending-email"' in page and 'id="email-resend"' in page
    for _ in range(3):
        response = client.post("/accounts/email/resend/")
        assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert [m.to for m in mailoutbox] == [["new@example.org"]] * 3
    # From another address too: the count is the account's.
    refused = client.post("/accounts/email/resend/", REMOTE_ADDR="198.51.100.4")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert 'id="account-notice"' in page and "Too many confirmation mails" in page
    assert len(mailoutbox) == 3
    # Every link sent works (the same address, the same account).
    assert Client().post(_link_in(mailoutbox[0])).status_code == 200


def test_the_link_again_with_nothing_waiting_mails_nothing(ann, ann_client, mailoutbox):
    response = ann_client.post("/accounts/email/resend/")
    assert response.status_code == 302
    assert "no address waiting" in ann_client.get("/accounts/").content.decode()
    assert mailoutbox == []
    assert ann_client.get("/accounts/email/resend/").status_code == 405
    assert Client().post("/accounts/email/resend/").status_code == 302  # to sign in
    assert mailoutbox == []


# --- Nothing goes to an unconfirmed address ---------------------------------------------------


def test_no_turn_mail_nor_reminder_goes_to_an_unconfirmed_address(ann, bea, mailoutbox):
    match = factories.match_make(players=[ann, bea], seed=4)
    person = match.seats.get(index=match.awaiting[0]).user
    _unconfirmed(person, f"{person.username}.new@example.org")
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is False
    Match.objects.filter(pk=match.pk).update(
        deadline_days=1, deadline_at=timezone.now() + timedelta(hours=2)
    )
    assert deadline_reminders.apply().get() == 0
    assert mailoutbox == []
    # The same person once confirmed gets both (the check would have let them through).
    get_user_model().objects.filter(pk=person.pk).update(email="confirmed@example.org")
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is True
    assert deadline_reminders.apply().get() == 1
    assert [m.to for m in mailoutbox] == [["confirmed@example.org"]] * 2


def test_a_password_reset_mails_only_a_confirmed_address(ann, bea, client, mailoutbox):
    _unconfirmed(ann, "ann.new@example.org")
    for address in ("ann.new@example.org", "ANN.NEW@example.org"):
        response = client.post("/accounts/password_reset/", {"email": address})
        assert response.status_code == 302  # the same answer as for an unknown address
    assert mailoutbox == []
    assert client.post("/accounts/password_reset/", {"email": bea.email}).status_code == 302
    assert [m.to for m in mailoutbox] == [[bea.email]]


# --- Accounts from before confirmation --------------------------------------------------------


def test_addresses_from_before_confirmation_wait_for_it(ann, bea):
    """The data migration: every address held before becomes pending (never confirmed, so
    never mailed), an account without one is untouched, and undoing it puts them back."""
    get_user_model().objects.filter(pk=bea.pk).update(email="")
    migration = import_module("accounts.migrations.0005_email_and_name")
    migration.addresses_to_pending(apps, None)
    assert _user("ann").email == "" and _user("bea").email == ""
    assert list(PendingEmail.objects.values_list("user__username", "email")) == [
        ("ann", "ann@example.com")
    ]
    migration.pending_to_addresses(apps, None)
    assert _user("ann").email == "ann@example.com"


def test_the_database_holds_one_account_per_confirmed_address_whatever_its_case(ann, bea):
    """The unique index of migration 0003 (made after auth's own migrations, which on SQLite
    remake auth_user and would drop it): the last guard of the confirmation race."""
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.filter(pk=bea.pk).update(email=ann.email.upper())
    get_user_model().objects.filter(pk=bea.pk).update(email="")
    get_user_model().objects.filter(pk=ann.pk).update(email="")  # many without one: fine


def test_the_same_new_address_posted_twice_mails_one_link(ann, ann_client, mailoutbox):
    data = {"form": "email", "email": "new@example.org"}
    assert ann_client.post("/accounts/notifications/", data).status_code == 302
    again = ann_client.post("/accounts/notifications/", data, follow=True)
    assert "The link went to new@example.org already" in again.content.decode()
    assert len(mailoutbox) == 1 and PendingEmail.objects.get().email == "new@example.org"
    assert Client().post(_link_in(mailoutbox[0])).status_code == 200
