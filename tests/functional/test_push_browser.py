"""Web push in a real Chromium (docs/notifications.md, "Web push"): the manifest and the service
worker load under the Content Security Policy, the worker registers for the whole site, and it
shows a notification for a push, which a newer push of the same match replaces.

The push is synthetic: Chromium's own push goes through Google's push service (its
``pushManager.subscribe`` asks Google for an endpoint), which no test machine reaches and which
cannot be pointed at a local endpoint, so real delivery is not tried here. The encrypted,
VAPID-signed request the site sends is checked against a stand-in push service in
``tests/integration/test_push.py``; here the DevTools protocol hands the worker a push with the
payload the site sends (``ServiceWorker.deliverPushMessage``, as a push service's message
reaches it), and ``registration.getNotifications()`` shows what the person would see.

With ``PARLOUR_SCREENSHOTS=1``: ``push-devices.png`` and ``push-devices-phone.png`` (the
notifications page with two devices) and ``app-install.png`` (what Chromium reads from the
manifest, its installability verdict and the icons).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, CDPSession, Page, expect

from accounts.models import PushSubscription
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_csp_browser import LISTENER_JS, PolicyWatch, settle
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path
from tests.polling import wait_for
from tests.push_service import device_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => ({
    title: n.title, body: n.body, tag: n.tag, data: n.data,
  }));
}"""


def watched_context(make_context: Any, **kwargs: Any) -> tuple[BrowserContext, PolicyWatch]:
    """A context allowed to show notifications, with the policy watch of the CSP tests on."""
    watch = PolicyWatch()
    context = make_context(permissions=["notifications"], **kwargs)
    context.expose_function("__parlourCspViolation", watch.on_violation)
    context.add_init_script(LISTENER_JS)
    context.on("console", watch.on_console)
    context.on("weberror", lambda error: watch.errors.append(str(error.error)))
    context.on("response", watch.on_response)
    return context, watch


def registration_id(cdp: CDPSession, page: Page, scope: str) -> str:
    """The DevTools id of the service worker registration for ``scope``."""
    found: dict[str, str] = {}

    def seen(event: dict[str, Any]) -> None:
        for registration in event["registrations"]:
            if registration["scopeURL"] == scope and not registration.get("isDeleted"):
                found["id"] = registration["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        if "id" in found:
            return found["id"]
        page.wait_for_timeout(100)
    raise AssertionError(f"no registration for {scope}")


def shown_when(page: Page, check: Any, what: str) -> list[dict[str, Any]]:
    """The worker's notifications once ``check`` holds for them (polled: a push is delivered
    to the worker, and shown, asynchronously)."""
    found: list[list[dict[str, Any]]] = []

    def ready() -> bool:
        found.append(page.evaluate(NOTIFICATIONS))
        return check(found[-1])

    wait_for(ready, what, timeout=10)
    return found[-1]


def push(cdp: CDPSession, origin: str, registration: str, payload: dict[str, str]) -> None:
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration, "data": json.dumps(payload)},
    )


def test_the_worker_registers_under_the_policy_and_shows_a_push(live_server, make_context):
    ann = factories.user_make("ann")
    base = live_server.url
    context, watch = watched_context(make_context)
    page = context.new_page()
    log_in(page, base, "ann")
    page.goto(f"{base}/accounts/notifications/")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{base}/"
    # The page says what this device does, and offers the button.
    expect(page.locator("#push-state")).to_have_text("This device gets no notifications.")
    expect(page.locator("#push-enable")).to_be_visible()
    # The manifest, as Chromium fetches and reads it under the page's policy.
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{base}/manifest.webmanifest" and manifest["errors"] == []
    assert json.loads(manifest["data"])["name"] == "Parlour"
    # A turn push, as the site sends it (games/push/delivery.py), then a newer one.
    registration = registration_id(cdp, page, scope)
    payload = {
        "title": "Your turn: The Faraway Tree #12",
        "body": "Open the table to play your move.",
        "url": "/matches/12/",
        "tag": "match-12",
    }
    push(cdp, base, registration, payload)
    [shown] = shown_when(page, lambda shown: len(shown) == 1, "the push's notification")
    assert shown == {
        "title": payload["title"],
        "body": payload["body"],
        "tag": "match-12",
        "data": {"url": "/matches/12/"},
    }
    push(cdp, base, registration, {**payload, "title": "Your turn: The Faraway Tree #12 again"})
    shown_when(
        page,
        lambda shown: len(shown) == 1 and shown[0]["title"].endswith("again"),
        "the newer push replacing the first",
    )
    # A push that tries to send the person elsewhere opens the notices instead.
    push(cdp, base, registration, {**payload, "tag": "match-13", "url": "https://evil.example/"})
    both = shown_when(page, lambda shown: len(shown) == 2, "a second match's notification")
    urls = {n["tag"]: n["data"]["url"] for n in both}
    assert urls == {"match-12": "/matches/12/", "match-13": "/notices/"}
    # The app badge's entry point takes a count (and ignores nonsense) without an error.
    page.evaluate("() => { window.parlourAppBadge(2); window.parlourAppBadge('x'); }")
    assert ann.push_subscriptions.count() == 0  # nothing subscribed for real
    settle(page)
    watch.assert_clean()


def _two_devices(user: Any) -> None:
    phone = device_make(user, "phone")
    laptop = device_make(user, "laptop")
    PushSubscription.objects.filter(pk=laptop.pk).update(
        browser="Firefox", system="Windows", last_success_at=timezone.now()
    )
    assert (phone.browser, phone.system) == ("Chrome", "Android")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_notifications_page_lists_the_devices_and_removes_one_without_script(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
):
    ann = factories.user_make("ann")
    _two_devices(ann)
    context, watch = watched_context(make_context, viewport=viewport)
    page = context.new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/notifications/")
    expect(page.locator(".device")).to_have_count(2)
    expect(page.locator("#push-devices")).to_contain_text("Chrome on Android")
    expect(page.locator("#push-devices")).to_contain_text("Firefox on Windows")
    expect(page.locator("#push-devices")).to_contain_text("last notified")
    expect(page.locator("#push-state")).to_have_text("This device gets no notifications.")
    assert overflowing(page) == []
    suffix = "" if viewport == DESKTOP else "-phone"
    page.screenshot(
        path=str(screenshot_path(f"push-devices{suffix}", tmp_path)),
        full_page=True,
        animations="disabled",
    )
    settle(page)
    watch.assert_clean()
    # "Remove" is a plain form: it works with scripts off too.
    plain = make_context(java_script_enabled=False, viewport=viewport).new_page()
    log_in(plain, live_server.url, "ann")
    plain.goto(f"{live_server.url}/accounts/notifications/")
    expect(plain.locator("#push-state")).to_have_text("Notifying this device needs JavaScript.")
    plain.get_by_role("button", name="Remove Chrome on Android").click()
    expect(plain.locator("#messages")).to_contain_text("gets no more notifications")
    expect(plain.locator(".device")).to_have_count(1)
    assert list(PushSubscription.objects.values_list("browser", "system")) == [
        ("Firefox", "Windows")
    ]


# A push service that never answers: Chromium's subscribe waits on Google's push service, which
# a machine without it (or without a network) never hears from.
SUBSCRIBE_HANGS = "PushManager.prototype.subscribe = function () { return new Promise(() => {}); };"


def test_notify_this_device_gives_up_in_words_when_no_push_service_answers(
    live_server, make_context
):
    """The page waits ``data-subscribe-timeout`` (15 s; 1 s here) for the browser's push
    service, then says it did not answer and what to try, and the button comes back; nothing is
    posted to the site."""
    factories.user_make("ann")
    context, watch = watched_context(make_context)
    context.add_init_script(SUBSCRIBE_HANGS)
    page = context.new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/notifications/")
    box = page.locator("#push-this-device")
    expect(box).to_have_attribute("data-subscribe-timeout", "15000")
    box.evaluate("b => { b.dataset.subscribeTimeout = '1000'; }")
    button = page.locator("#push-enable")
    button.click()
    expect(page.locator("#push-state")).to_have_text("Asking this browser\u2026")
    expect(button).to_be_disabled()
    state = page.locator("#push-state")
    expect(state).to_contain_text(
        "This browser\u2019s push service did not answer in 1 second, so this device is not "
        "notified. Check that this device is online and try again",
        timeout=5000,
    )
    expect(button).to_be_enabled()
    expect(button).to_be_visible()
    assert not [url for url in posts if "/notifications/devices/" in url], posts
    assert not PushSubscription.objects.exists()
    settle(page)
    watch.assert_clean()


INSTALL_INFO = """
<!doctype html><html><head><meta charset="utf-8"><title>Install Parlour</title></head>
<body style="margin:0;font:16px system-ui,sans-serif;background:#e9e6df;color:#1f2430">
<div style="max-width:560px;margin:40px auto;background:#fff;border-radius:12px;
            box-shadow:0 4px 20px rgba(0,0,0,.2);overflow:hidden">
  <div style="background:{theme};color:#fff;padding:14px 20px;font-weight:600">
    Install app? &middot; what Chromium read from {manifest_url}</div>
  <div style="display:flex;gap:20px;padding:20px;align-items:center">
    <img src="{icon}" width="96" height="96" alt="" style="border-radius:18px">
    <img src="{maskable}" width="96" height="96" alt="" style="border-radius:50%">
    <div><div style="font-size:24px;font-weight:700">{name}</div>
      <div>{start} &middot; {display}</div>
      <div>theme <span style="display:inline-block;width:1em;height:1em;background:{theme};
        vertical-align:middle"></span> {theme} &middot; background {background}</div></div>
  </div>
  <div style="padding:0 20px 20px">Installability errors reported by Chromium: {errors}</div>
</div></body></html>
"""


def test_chromium_reads_the_manifest_as_an_installable_app(live_server, make_context, tmp_path):
    """Chromium's own reading of the manifest (DevTools ``Page.getAppManifest``) and its
    installability check; the picture shows both with the icons, as an install prompt would."""
    factories.user_make("ann")
    context, watch = watched_context(make_context, viewport={"width": 640, "height": 360})
    page = context.new_page()
    log_in(page, live_server.url, "ann")
    page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    data = json.loads(manifest["data"])
    assert manifest["errors"] == []
    # Playwright's contexts are like incognito windows, where Chromium never offers to install;
    # any other reason it gives is a fault of the site.
    errors = [
        e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    ]
    assert set(errors) <= {"in-incognito"}, errors
    settle(page)
    watch.assert_clean()
    icons = {(i["sizes"], i.get("purpose", "any")): i["src"] for i in data["icons"]}
    report = context.new_page()
    report.set_content(
        INSTALL_INFO.format(
            manifest_url=manifest["url"],
            icon=live_server.url + icons[("512x512", "any")],
            maskable=live_server.url + icons[("512x512", "maskable")],
            name=data["name"],
            start=data["start_url"],
            display=data["display"],
            theme=data["theme_color"],
            background=data["background_color"],
            errors=", ".join(e for e in errors if e != "in-incognito")
            or "none" + (" (besides the test browser's incognito window)" if errors else ""),
        )
    )
    report.wait_for_load_state("load")
    report.screenshot(path=str(screenshot_path("app-install", tmp_path)), animations="disabled")
