"""Mailing and pushing what the competitions tell their people (docs/competitions.md, "Told"):
each league notice (``EventNotice``) and each ladder result that moved a person
(``LadderNotice``) goes once by mail and once to their devices, as they chose on their
notifications page (``email_events``, ``push_events``), worded in their language.

Run by beat's league sweep (``competitions.leagues_sweep``) after the leagues are tended, so a
piece of news written in a request or a sweep is delivered within ``PARLOUR_LEAGUE_EVERY``
seconds. Each notice is claimed by one conditional ``UPDATE`` of its ``delivered_at`` before
anything is sent: a re-run sweep, or two sweeps at once, deliver it once. A notice older than
``DELIVER_DAYS`` (beat was stopped for long) is claimed and not sent: old news by mail is
noise. Nothing is said but the notice's own words and a link: no table's cards, no seed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Model, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import PushSubscription
from accounts.selectors.closure import hidden_people
from accounts.selectors.email_confirmation import confirmed_address
from accounts.selectors.language import mail_language_of
from accounts.selectors.notify import EVENTS, push_wanted, unsubscribe_url, wants
from accounts.selectors.time_zone import zone_of
from competitions.league_notice_reads import item_of
from competitions.league_notice_words import notice_text, notice_url
from competitions.models import EventNotice, LadderNotice
from games.engines import get_engine
from games.push.delivery import PushMessage, push_deliver
from games.services.notifications import one_click_mail

logger = logging.getLogger(__name__)

DELIVER_DAYS = 2  # news older than this is not mailed nor pushed any more
BATCH = 500  # notices decided a sweep, oldest first; the next sweep takes the rest


@dataclass(frozen=True)
class Told:
    """What one notice says: its subject (the push's title), its sentence, its link (a path)
    and the push's topic."""

    subject: str
    text: str
    url: str
    topic: str


def _league_told(notice: EventNotice) -> Told:
    item = item_of(notice)
    return Told(
        subject=_("News of %(league)s") % {"league": item.league},
        text=notice_text(item),
        url=notice_url(item),
        topic=f"{'cup' if item.cup else 'league'}-{item.event_id}",
    )


def _ladder_told(notice: LadderNotice) -> Told:
    change = notice.event
    game = change.ladder.game
    names = {
        "ladder": _("the ladder of %(game)s") % {"game": get_engine(game).title},
        "place": change.to_place,
        "name": change.user.get_username(),
        "other": change.other.get_username() if change.other else "",
    }
    if change.user_id == notice.user_id:
        text = _("You beat %(other)s and climbed to place %(place)s on %(ladder)s.") % names
    elif change.other_id == notice.user_id:
        text = (
            _("%(name)s beat you and took your place %(place)s on %(ladder)s: you moved down one.")
            % names
        )
    else:
        text = _("%(name)s climbed to place %(place)s on %(ladder)s: you moved down one.") % names
    return Told(
        subject=_("A ladder result moved you"),
        text=text,
        url=reverse("ladder", args=[game]),
        topic=f"ladder-{game}",
    )


def _claimed(model: type[Model], pk: int, now: Any) -> bool:
    return model.objects.filter(pk=pk, delivered_at__isnull=True).update(delivered_at=now) == 1


def _tell(user: Any, words: Any) -> tuple[bool, int]:
    """Mail and push one notice to ``user`` as they chose, worded in their language by
    ``words()`` (called under it). Returns (mailed, devices that took the push)."""
    with translation.override(mail_language_of(user.pk)):
        told = words()
        address = confirmed_address(user)
        mailed = False
        if address is not None and wants(user.pk, EVENTS):
            site = settings.PARLOUR_SITE_URL
            unsubscribe = unsubscribe_url(user.pk, EVENTS)
            context = {
                "user": user,
                "text": told.text,
                "link_url": f"{site}{told.url}",
                "settings_url": f"{site}{reverse('notification_settings')}",
                "unsubscribe_url": unsubscribe,
            }
            one_click_mail(
                subject=told.subject,
                template="competitions/mail/notice",
                context=context,
                zone=zone_of(user.pk),
                address=address,
                unsubscribe=unsubscribe,
            ).send()
            mailed = True
        pushed = 0
        devices = PushSubscription.objects.filter(user_id=user.pk)
        if push_wanted(user.pk, EVENTS) and devices.exists():
            message = PushMessage(
                title=told.subject, body=told.text, url=told.url, topic=told.topic
            )
            pushed = push_deliver(user_id=user.pk, message=message).sent
    return mailed, pushed


def _deliver_each(rows: QuerySet, words_of: Any, now: Any) -> int:
    sent = 0
    recent = now - timedelta(days=DELIVER_DAYS)
    batch = list(rows[:BATCH])
    # A closed or deleted account is told nothing more (one query for the batch).
    hidden = set(
        get_user_model()
        .objects.filter(pk__in={n.user_id for n in batch})
        .filter(hidden_people())
        .values_list("pk", flat=True)
    )
    for notice in batch:
        if not _claimed(type(notice), notice.pk, now):
            continue  # another sweep took it
        user = notice.user
        if user.pk in hidden or _at(notice) < recent:
            continue
        try:
            mailed, pushed = _tell(user, lambda notice=notice: words_of(notice))
        except Exception:
            logger.exception("notice %s of user %s: not delivered", notice.pk, user.pk)
            continue
        sent += int(mailed or pushed > 0)
    return sent


def _at(notice: Any) -> Any:
    return notice.at if isinstance(notice, EventNotice) else notice.event.at


def notices_deliver(*, now: Any = None) -> int:
    """Deliver every league and ladder notice not delivered yet (at most ``BATCH`` of each);
    returns how many people were mailed or pushed something."""
    now = now or timezone.now()
    league = (
        EventNotice.objects.filter(delivered_at__isnull=True)
        .select_related("event", "user")
        .order_by("at", "pk")
    )
    ladder = (
        LadderNotice.objects.filter(delivered_at__isnull=True)
        .select_related("event__ladder", "event__user", "event__other", "user")
        .order_by("event__at", "pk")
    )
    return _deliver_each(league, _league_told, now) + _deliver_each(ladder, _ladder_told, now)
