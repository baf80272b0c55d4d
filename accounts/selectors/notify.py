"""What a person wants mailed about their matches: their settings, and unsubscribing.

The kinds of mail (``TURN``, ``DEADLINE``) are boxes on the person's settings page; each mail
carries a signed one-click link that turns its kind off. Pushes to the person's devices have
their own box (``PUSH_KINDS``: the turn push), beside the mails. When the mails go, and sending
them, live with the games (``games.services.notifications``, ``games.selectors.notifications``),
beside the moves that make a person awaited: they ask ``wants`` here whether to send.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

from accounts.models import NotificationSettings

TURN = "turn"
DEADLINE = "deadline"
INVITATION = "invitation"  # a challenge by name, or a rematch offer
EVENTS = "events"  # a league's news, a ladder result that moved the person (competitions)
KINDS = {
    TURN: "email_turn",
    DEADLINE: "email_deadline",
    INVITATION: "email_invitations",
    EVENTS: "email_events",
}
# What goes to the person's devices as a web push (docs/notifications.md, "Web push").
PUSH_KINDS = {TURN: "push_turn", EVENTS: "push_events"}
# What the notices page (and the badge) shows, each kind a box like the mails.
NOTICE_INVITATIONS = "invitations"
NOTICE_TURNS = "turns"
NOTICE_FINISHED = "finished"
NOTICE_LADDER = "ladder"  # a ladder result that moved the person (docs/competitions.md)
NOTICE_EVENTS = "events"  # a league's news for the person: entered, started, a table, the end
NOTICE_KINDS = {
    NOTICE_INVITATIONS: "notice_invitations",
    NOTICE_TURNS: "notice_turns",
    NOTICE_FINISHED: "notice_finished",
    NOTICE_LADDER: "notice_ladder",
    NOTICE_EVENTS: "notice_events",
}
UNSUBSCRIBE_SALT = "accounts.unsubscribe"


# --- Settings and unsubscribing ---------------------------------------------------------------


def settings_for(user_id: int) -> NotificationSettings:
    """The person's settings row, or unsaved defaults when they never changed anything."""
    found = NotificationSettings.objects.filter(user_id=user_id).first()
    return found or NotificationSettings(user_id=user_id)


def wants(user_id: int, kind: str) -> bool:
    """Whether the person wants mails of ``kind`` (``TURN``, ``DEADLINE`` or ``INVITATION``)."""
    return bool(getattr(settings_for(user_id), KINDS[kind]))


def push_wanted(user_id: int, kind: str) -> bool:
    """Whether the person wants pushes of ``kind`` (a ``PUSH_KINDS`` key) on their devices."""
    return bool(getattr(settings_for(user_id), PUSH_KINDS[kind]))


def notice_wanted(user_id: int, kind: str) -> bool:
    """Whether the person's notices (and badge) show ``kind`` (a ``NOTICE_KINDS`` key)."""
    return bool(getattr(settings_for(user_id), NOTICE_KINDS[kind]))


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token naming the person and the kind of mail: the one-click link's key."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: str


def unsubscribe_read(token: str) -> Unsubscribe | None:
    """The person and kind a token names, or ``None`` when it is forged, tampered or unknown."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user_id, kind = data.get("u"), data.get("k")
    if not isinstance(user_id, int) or kind not in KINDS:
        return None
    return Unsubscribe(user_id=user_id, kind=kind)


def unsubscribe_url(user_id: int, kind: str) -> str:
    """The absolute one-click link that turns ``kind`` off for the person."""
    path = reverse("unsubscribe", kwargs={"token": unsubscribe_token(user_id, kind)})
    return f"{settings.PARLOUR_SITE_URL}{path}"
