"""The competitions on a person's profile and in the histories (docs/competitions.md, "On
profiles and in history"), filled into games' hooks (``games.views.event_marks``) at start-up:

- a history row of a match that was a league's or a cup's table or a ladder challenge says so,
  with a link to the league, the cup or the ladder (one query for the whole list);
- a profile lists the person's leagues and cups (open, running, finished with their place, the
  place their end notice keeps) and their places on the ladders (two queries).

Leagues and cups, their entries and places, and the ladders are public to everyone signed in
(their pages list them); an event's table itself is private, and is marked only in a history
that lists it, i.e. to someone who may see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils.translation import pgettext

from competitions.models import Entry, Event, EventNotice, LadderRung
from games.engines import get_engine
from games.models import Match
from games.views.event_marks import MatchMark

LEAGUES_SHOWN = 20  # the newest leagues and cups a profile lists


@dataclass(frozen=True)
class ProfileLeague:
    name: str
    url: str
    state: str  # in words: "running", "finished: place 2"
    status: str  # the league's status (a CSS hook)


@dataclass(frozen=True)
class ProfileLadder:
    title: str  # the game's
    url: str
    place: int


def event_marks(match_ids: list[int]) -> dict[int, MatchMark]:
    """Which of the matches were a league's or a cup's table or a ladder challenge (one
    query)."""
    rows = (
        Match.objects.filter(pk__in=match_ids)
        .filter(Q(event_table__isnull=False) | Q(ladder_challenge__isnull=False))
        .values_list(
            "pk",
            "event_table__event_id",
            "event_table__event__name",
            "event_table__event__kind",
            "ladder_challenge__ladder__game",
        )
    )
    marks = {}
    for match_id, event_id, league, kind, game in rows:
        if event_id is not None and kind == Event.Kind.CUP:
            marks[match_id] = MatchMark(
                text=pgettext("a history row", "Cup: %(cup)s") % {"cup": league},
                url=reverse("cup_detail", args=[event_id]),
            )
        elif event_id is not None:
            marks[match_id] = MatchMark(
                text=pgettext("a history row", "League: %(league)s") % {"league": league},
                url=reverse("league_detail", args=[event_id]),
            )
        elif game is not None:
            marks[match_id] = MatchMark(
                text=pgettext("a history row", "Ladder challenge"),
                url=reverse("ladder", args=[game]),
            )
    return marks


def _league_state(entry: Any) -> str:
    event, withdrawn = entry.event, bool(entry.withdrawn)
    if event.status == Event.Status.OPEN:
        return pgettext("a league on a profile", "entered, not started yet")
    if event.status == Event.Status.RUNNING:
        if withdrawn:
            return pgettext("a league on a profile", "withdrawn")
        return pgettext("a league on a profile", "running")
    if entry.place is not None:
        words = pgettext("a league on a profile", "finished: place %(place)s")
        return words % {"place": entry.place}
    if withdrawn:
        return pgettext("a league on a profile", "finished: withdrawn")
    return pgettext("a league on a profile", "finished")


def profile_events(owner: Any, viewer: Any) -> dict[str, Any]:
    """The profile section's context: ``owner``'s leagues and cups, and ladder places (two
    queries)."""
    place = EventNotice.objects.filter(
        event_id=OuterRef("event_id"), user_id=owner.pk, kind=EventNotice.Kind.ENDED
    ).values("place")[:1]
    entries = (
        Entry.objects.filter(user_id=owner.pk)
        .exclude(withdrawn=Entry.Withdrawn.NO_ROOM)
        .exclude(event__status=Event.Status.CANCELLED)
        .select_related("event")
        .annotate(place=Subquery(place))
        .order_by("-event__created_at", "-pk")[:LEAGUES_SHOWN]
    )
    leagues = [
        ProfileLeague(
            name=entry.event.name,
            url=reverse(
                "cup_detail" if entry.event.kind == Event.Kind.CUP else "league_detail",
                args=[entry.event_id],
            ),
            state=_league_state(entry),
            status=entry.event.status,
        )
        for entry in entries
    ]
    ladders = [
        ProfileLadder(
            title=get_engine(rung.ladder.game).title,
            url=reverse("ladder", args=[rung.ladder.game]),
            place=rung.position,
        )
        for rung in LadderRung.objects.filter(user_id=owner.pk)
        .select_related("ladder")
        .order_by("ladder__game")
    ]
    return {"leagues": leagues, "ladders": ladders, "is_self": owner.pk == viewer.pk}
