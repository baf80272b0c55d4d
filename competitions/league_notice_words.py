"""A league's news in words, in the language active (docs/competitions.md, "Told"): the
sentence the notices page, the mail and the push say for each ``EventNotice``. Only facts the
person may see: the league's name, their own table's number, their own place."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from competitions.league_notice_reads import LeagueNoticeItem
from competitions.models import Entry, EventNotice


@dataclass(frozen=True)
class LeagueNoticeLine:
    game: str
    text: str
    url: str  # the table opened, else the league's page
    link: str  # the link's words
    at: datetime


def _withdrawn_text(item: LeagueNoticeItem) -> str:
    league = {"league": item.league}
    if item.reason == Entry.Withdrawn.ABSENT:
        return _("You were withdrawn from %(league)s after too many missed turns.") % league
    if item.reason == Entry.Withdrawn.NO_ROOM:
        return _("%(league)s started without you: no whole circle was left for you.") % league
    return _("You withdrew from %(league)s.") % league


def notice_text(item: LeagueNoticeItem) -> str:
    """The sentence that tells the reader this piece of news."""
    league = {"league": item.league}
    if item.kind == EventNotice.Kind.ENTERED:
        return _("You entered %(league)s. You will be told when it starts.") % league
    if item.kind == EventNotice.Kind.STARTED:
        return _("%(league)s has started: your first tables are open.") % league
    if item.kind == EventNotice.Kind.TABLE:
        return _("A new table of yours is open in %(league)s: table #%(table)s.") % {
            "league": item.league,
            "table": item.match_id,
        }
    if item.kind == EventNotice.Kind.WITHDRAWN:
        return _withdrawn_text(item)
    if item.place is None:
        return _("%(league)s has ended. You had withdrawn, so you have no place.") % league
    return _("%(league)s has ended: you finished in place %(place)s.") % {
        "league": item.league,
        "place": item.place,
    }


def notice_url(item: LeagueNoticeItem) -> str:
    """Where the notice leads: the table opened, else the league's page (a path)."""
    if item.kind == EventNotice.Kind.TABLE and item.match_id is not None:
        return reverse("match_detail", args=[item.match_id])
    return reverse("league_detail", args=[item.event_id])


def _link_words(item: LeagueNoticeItem) -> str:
    if item.kind == EventNotice.Kind.TABLE:
        return pgettext("a league notice", "Open the table")
    return pgettext("a league notice", "Open the league")


def league_notice_lines(items: list[LeagueNoticeItem]) -> list[LeagueNoticeLine]:
    """The notices page's lines, newest first."""
    return [
        LeagueNoticeLine(
            game=item.game,
            text=notice_text(item),
            url=notice_url(item),
            link=_link_words(item),
            at=item.at,
        )
        for item in items
    ]
