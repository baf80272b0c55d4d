"""A stand-in push service and a stand-in browser's subscription, for the web push tests.

No push service (Google's, Mozilla's, Apple's) can be reached from the test machines, so
``PushService`` is a tiny HTTP server on loopback, in a thread of the test, that keeps every
request it gets and answers each path with the status a test chose (201 by default).
``Browser`` is what a browser holds for one subscription: a P-256 key pair and a 16-byte auth
secret; it reads a push the way a browser does (RFC 8291, with ``http_ece``), and checks the
VAPID ``Authorization`` header (RFC 8292) against the site's public key.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.utils import timezone

from accounts.models import PushSubscription
from tests import factories


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]  # by lower-case name: HTTP header names have no case
    body: bytes


@dataclass
class PushService:
    """Loopback HTTP server: ``received`` in order; ``answers[path]`` the status to give."""

    origin: str = ""
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path == f"/push/{name}"]


@contextmanager
def push_service_running() -> Iterator[PushService]:
    service = PushService()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server's name for it
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append(Received(self.path, headers, body))
            status = service.answers.get(self.path, 201)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Browser:
    """One browser's push subscription: its keys, as ``PushManager.subscribe`` makes them."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """What ``JSON.stringify(subscription)`` posts."""
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }

    def read(self, push: Received) -> dict[str, Any]:
        """The push's payload, decrypted as the browser does (RFC 8291, aes128gcm)."""
        plain = http_ece.decrypt(
            push.body, version="aes128gcm", private_key=self.key, auth_secret=self.auth
        )
        return json.loads(plain)


def vapid_claims(push: Received, public_key: str) -> dict[str, Any]:
    """The claims of the push's VAPID JWT, once its signature is checked against the site's
    ``public_key`` (and the header's ``k`` is that key); raises if either fails."""
    scheme, _, params = push.headers["authorization"].partition(" ")
    assert scheme == "vapid", scheme
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"].rstrip("=") == public_key.rstrip("="), "not signed by the site's key"
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    verifier.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{head}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    found = json.loads(unb64url(claims))
    assert time.time() < found["exp"] <= time.time() + 24 * 3600  # RFC 8292: at most a day
    return found


def device_make(user: Any, name: str = "phone") -> PushSubscription:
    """A push device of ``user``'s on a real push service's address (never sent to: for the
    tests that only need the row), as a browser's subscription leaves it."""
    browser = Browser()
    return PushSubscription.objects.create(
        user=user,
        endpoint=f"https://fcm.googleapis.com/fcm/send/{user.username}-{name}",
        p256dh=browser.p256dh,
        auth=b64url(browser.auth),
        browser="Chrome",
        system="Android",
        created_at=timezone.now(),
    )


def browser_subscribed(user: Any, service: PushService, name: str) -> Browser:
    """A browser of ``user``'s subscribed to ``service`` (its endpoint ``name``) through the
    site's own devices URL, as a Chrome on Linux would."""
    browser = Browser()
    response = factories.client_for(user).post(
        "/accounts/notifications/devices/",
        json.dumps(browser.subscription(service.endpoint(name))),
        content_type="application/json",
        headers={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0"},
    )
    assert response.status_code == 201, response.content
    return browser
