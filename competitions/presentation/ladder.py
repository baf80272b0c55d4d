"""The ladder's words (docs/competitions.md, "Ladder"): each place's line with its Challenge
button or the reason there is none, the open challenges, the rules in a paragraph, the
history of places. Pure: from ``competitions.selectors.ladder`` data to words, no query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competitions import ladder_rules

if TYPE_CHECKING:
    from competitions.selectors.ladder import (
        ChallengeData,
        EventData,
        LadderData,
        LadderNoticeItem,
    )


@dataclass(frozen=True)
class RungLine:
    place: int
    username: str
    mine: bool
    can_challenge: bool
    reason: str  # why there is no Challenge button ("" when there is one, or none is due)
    challenges: str  # the open challenges this person is in, in words ("" if none)


@dataclass(frozen=True)
class Answerable:
    """The games invitation the reader may answer from the ladder (its id, as
    ``games/_invitation_answer.html`` takes a ``line``)."""

    id: int


@dataclass(frozen=True)
class ChallengeLine:
    id: int
    text: str
    match_id: int
    withdraw: bool  # the reader made it and its match has not begun
    answer: Answerable | None  # the reader is challenged and may answer it here
    expires_at: datetime | None


@dataclass(frozen=True)
class EventLine:
    text: str
    at: datetime
    match_id: int | None
    mine: bool


@dataclass(frozen=True)
class LadderWords:
    game: str
    rungs: list[RungLine]
    challenges: list[ChallengeLine]  # every open one on the ladder
    yours: list[ChallengeLine]  # the reader's own, made or received
    events: list[EventLine]
    rules: str
    viewer_place: int | None
    standing: str  # the reader's place in a sentence


def ladder_words(data: LadderData, *, answer_days: float, deadline_days: int) -> LadderWords:
    """The page's words for its reader."""
    involved: dict[int, list[str]] = {}
    for c in data.challenges:
        involved.setdefault(c.challenger_id, []).append(
            _("challenging %(name)s") % {"name": c.challenged_name}
        )
        involved.setdefault(c.challenged_id, []).append(
            _("challenged by %(name)s") % {"name": c.challenger_name}
        )
    rungs = [
        _rung_line(data, r.place, r.user_id, r.username, "; ".join(involved.get(r.user_id, [])))
        for r in data.rungs
    ]
    lines = [_challenge_line(data, c) for c in data.challenges]
    yours = [
        line
        for line, c in zip(lines, data.challenges, strict=True)
        if data.viewer_id in (c.challenger_id, c.challenged_id)
    ]
    return LadderWords(
        game=data.game,
        rungs=rungs,
        challenges=lines,
        yours=yours,
        events=[event_line(e, data.viewer_id) for e in data.events],
        rules=rules_text(
            reach=data.reach,
            most_open=data.most_open,
            cooldown_days=data.cooldown_days,
            answer_days=answer_days,
            deadline_days=deadline_days,
        ),
        viewer_place=data.viewer_place,
        standing=_standing(data),
    )


def rules_text(
    *, reach: int, most_open: int, cooldown_days: float, answer_days: float, deadline_days: int
) -> str:
    return _(
        "Challenge anyone up to %(reach)s places above you. Win and you take their place: they "
        "and everyone between move down one. A draw or a loss moves no one. The challenged "
        "person moves first, and each turn has %(deadline)s (a bot plays a turn missed). At "
        "most %(most)s open challenges each, made and received together; the same person again "
        "after %(cooldown)s. A challenge not accepted within %(answer)s lapses, and nothing "
        "moves. Bots are never on a ladder."
    ) % {
        "reach": reach,
        "deadline": _days(deadline_days),
        "most": most_open,
        "cooldown": _days(cooldown_days),
        "answer": _days(answer_days),
    }


def event_line(event: EventData, viewer_id: int) -> EventLine:
    """One change of places in a sentence."""
    who, other = event.username, event.other_name
    if event.kind == "joined":
        text = _("%(name)s joined at place %(place)s.") % {"name": who, "place": event.to_place}
    elif event.kind == "left":
        text = _("%(name)s left place %(place)s; everyone below moved up one.") % {
            "name": who,
            "place": event.from_place,
        }
    elif event.kind == "climbed":
        text = _(
            "%(name)s beat %(other)s and climbed from place %(from)s to %(to)s; %(other)s and "
            "everyone between moved down one."
        ) % {"name": who, "other": other, "from": event.from_place, "to": event.to_place}
    else:
        text = _("%(other)s held their place against %(name)s's challenge; no one moved.") % {
            "name": who,
            "other": other,
        }
    # A ladder match is private: only its two people get its link.
    mine = viewer_id in (event.user_id, event.other_id)
    return EventLine(text=text, at=event.at, match_id=event.match_id if mine else None, mine=mine)


def _rung_line(data: LadderData, place: int, user_id: int, name: str, busy: str) -> RungLine:
    mine = user_id == data.viewer_id
    reason, can = "", False
    below = data.viewer_place is not None and place < data.viewer_place
    if below and data.viewer_place - place <= data.reach:
        refusal = ladder_rules.challenge_refusal(
            ladder_rules.ChallengeFacts(
                challenger_place=data.viewer_place,
                target_place=place,
                target_name=name,
                challenger_open=data.open_counts.get(data.viewer_id, 0),
                target_open=data.open_counts.get(user_id, 0),
                open_between=any(
                    {c.challenger_id, c.challenged_id} == {user_id, data.viewer_id}
                    for c in data.challenges
                ),
                cooling=user_id in data.cooling_ids,
                refused=user_id in data.refused_ids,
            ),
            reach=data.reach,
            most_open=data.most_open,
            cooldown_days=data.cooldown_days,
            words=_,
        )
        can, reason = refusal is None, refusal or ""
    return RungLine(
        place=place, username=name, mine=mine, can_challenge=can, reason=reason, challenges=busy
    )


def _challenge_line(data: LadderData, c: ChallengeData) -> ChallengeLine:
    if c.begun:
        words = _(
            "%(challenger)s (place %(challenger_place)s then) challenged %(challenged)s "
            "(place %(challenged_place)s then): playing."
        )
    else:
        words = _(
            "%(challenger)s (place %(challenger_place)s then) challenged %(challenged)s "
            "(place %(challenged_place)s then): waiting for an answer."
        )
    text = words % {
        "challenger": c.challenger_name,
        "challenger_place": c.challenger_place,
        "challenged": c.challenged_name,
        "challenged_place": c.challenged_place,
    }
    return ChallengeLine(
        id=c.id,
        text=text,
        match_id=c.match_id,
        withdraw=c.challenger_id == data.viewer_id and not c.begun,
        answer=Answerable(c.invitation_id)
        if c.invitation_id and c.challenged_id == data.viewer_id
        else None,
        expires_at=c.expires_at,
    )


def _standing(data: LadderData) -> str:
    size = len(data.rungs)
    if data.viewer_place is None:
        return _("You are not on this ladder (%(people)s). Joining puts you at the bottom.") % {
            "people": _people(size)
        }
    if data.viewer_place == 1:
        return _("You are at the top, place 1 of %(size)s.") % {"size": size}
    return _("You are at place %(place)s of %(size)s.") % {
        "place": data.viewer_place,
        "size": size,
    }


def _people(n: int) -> str:
    if n == 0:
        return _("nobody on it yet")
    return ngettext("%(count)d person on it", "%(count)d people on it", n) % {"count": n}


def _days(days: float) -> str:
    # A whole number counts as itself; a part of a day reads as more than one ("0.5 days").
    count = int(days) if float(days).is_integer() else 2
    return ngettext("%(days)s day", "%(days)s days", count) % {"days": f"{days:g}"}


@dataclass(frozen=True)
class NoticeLine:
    game: str
    text: str
    at: datetime


def ladder_notice_lines(items: list[LadderNoticeItem], user_id: int) -> list[NoticeLine]:
    """The notices page's lines: each climb that moved the reader, said from their side."""
    lines = []
    for item in items:
        e = item.event
        facts = {"name": e.username, "other": e.other_name, "place": e.to_place}
        facts["game"] = item.title
        if e.user_id == user_id:
            text = _("You beat %(other)s and climbed to place %(place)s on the ladder of %(game)s.")
        elif e.other_id == user_id:
            text = _(
                "%(name)s beat you and took your place %(place)s on the ladder of %(game)s: "
                "you moved down one."
            )
        else:
            text = _(
                "%(name)s climbed to place %(place)s on the ladder of %(game)s: you moved down one."
            )
        text = text % facts
        lines.append(NoticeLine(game=item.game, text=text, at=e.at))
    return lines
