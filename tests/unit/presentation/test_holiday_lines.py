"""The "on holiday" lines (games.presentation.holidays): who is away, while a match is in play,
and what the match does to their deadline."""

from __future__ import annotations

import datetime

from games.presentation.holidays import away_lines, deadline_waits
from games.selectors.facts import MatchFacts, SeatFacts

UNTIL = datetime.datetime(2026, 12, 8, tzinfo=datetime.UTC)


def _match(*, status: str = "active", holidays: bool = True) -> MatchFacts:
    return MatchFacts(
        pk=1,
        game="faraway",
        title="The Faraway Tree",
        status=status,
        status_label=status,
        version=3,
        ply=2,
        num_players=3,
        public=True,
        invite_token="t",
        commitment="c",
        has_table=True,
        created_at=None,
        started_at=None,
        finished_at=None,
        rating_status="",
        rating_note="",
        holidays=holidays,
    )


SEATS = [
    SeatFacts(index=0, user_id=1, username="ann", bot_level=None, away_until=UNTIL),
    SeatFacts(index=1, user_id=2, username="bea", bot_level=None),
    SeatFacts(index=2, user_id=None, username=None, bot_level="greedy"),
]


def test_only_the_away_people_of_a_match_in_play_get_a_line():
    [line] = away_lines(_match(), SEATS)
    assert (line.name, line.until, line.held) == ("ann", UNTIL, True)
    assert line.note == "their turn deadline waits until they are back."
    assert away_lines(_match(status="waiting"), SEATS) == []
    assert away_lines(_match(status="finished"), SEATS) == []


def test_a_match_refusing_holidays_says_the_deadline_still_runs():
    [line] = away_lines(_match(holidays=False), SEATS)
    assert not line.held
    assert line.note == "this match refuses holidays, so their turn deadline still runs."


def test_the_deadline_waits_only_when_it_falls_on_someone_away_where_holidays_hold():
    assert deadline_waits(_match(), SEATS, [0])
    assert not deadline_waits(_match(), SEATS, [1])
    assert not deadline_waits(_match(), SEATS, [])
    assert not deadline_waits(_match(holidays=False), SEATS, [0])
