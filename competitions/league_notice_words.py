"""A league's or a cup's news in words, in the language active (docs/competitions.md, "Told"):
the sentence the notices page, the mail and the push say for each ``EventNotice``. Only facts
the person may see: the event's name, their own table's number, a round's number, their own
place."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from competitions.league_notice_reads import LeagueNoticeItem
from competitions.models import Entry, EventNotice, EventTable


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


def _cup_round_text(item: LeagueNoticeItem) -> str:
    """A cup's start (round 1) or a later round paired: the reader's table, bye or table not
    played."""
    names = {"cup": item.league, "round": item.round or 1, "table": item.match_id}
    if item.kind == EventNotice.Kind.STARTED:
        if item.match_id is not None:
            return _("%(cup)s has started: your table of round 1 is open, table #%(table)s.") % (
                names
            )
        if item.reason == EventTable.Dropped.BYE:
            return _("%(cup)s has started: you have a bye in round 1 (half a point).") % names
        return (
            _(
                "%(cup)s has started: your table of round 1 is not played, as a block stands"
                " between two people at it."
            )
            % names
        )
    if item.match_id is not None:
        return _("Round %(round)s of %(cup)s is paired: your table is open, table #%(table)s.") % (
            names
        )
    if item.reason == EventTable.Dropped.BYE:
        return _("Round %(round)s of %(cup)s is paired: you have a bye (half a point).") % names
    return (
        _(
            "Round %(round)s of %(cup)s is paired: your table is not played, as a block stands"
            " between two people at it."
        )
        % names
    )


def notice_text(item: LeagueNoticeItem) -> str:
    """The sentence that tells the reader this piece of news."""
    league = {"league": item.league}
    if item.cup and item.kind in (EventNotice.Kind.STARTED, EventNotice.Kind.PAIRED):
        return _cup_round_text(item)
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


def _to_table(item: LeagueNoticeItem) -> bool:
    tells_a_table = (EventNotice.Kind.TABLE, EventNotice.Kind.STARTED, EventNotice.Kind.PAIRED)
    return item.kind in tells_a_table and item.match_id is not None


def notice_url(item: LeagueNoticeItem) -> str:
    """Where the notice leads: the table opened (a league's later table, a cup's table of a
    round), else the league's or the cup's page (a path)."""
    if _to_table(item):
        return reverse("match_detail", args=[item.match_id])
    return reverse("cup_detail" if item.cup else "league_detail", args=[item.event_id])


def _link_words(item: LeagueNoticeItem) -> str:
    if _to_table(item):
        return pgettext("a league notice", "Open the table")
    if item.cup:
        return pgettext("a league notice", "Open the cup")
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
