"""Holidays (docs/accounts.md, "Holidays"): the allowance on the account page, going away and
coming back, the deadline sweep holding an away person's deadline (and not in a match that
refuses holidays), no bot move meanwhile, and what the others see."""

from __future__ import annotations

import datetime
import zoneinfo
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Holiday
from accounts.selectors.holiday_allowance import CAP, EARN_EVERY
from games import tasks
from games.models import Match, Move
from games.services import match_create, match_join, move_submit
from games.services.holidays import holiday_end, holiday_end_of, holiday_start
from games.tasks import deadline_reminders
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_start_days(settings) -> None:
    """The arithmetic below counts weeks: no starting days unless a test gives them (the start
    allowance has its own tests, ``test_a_new_account_*``)."""
    settings.PARLOUR_HOLIDAY_START_DAYS = 0


def _joined_weeks_ago(user, weeks: int, extra: timedelta = timedelta(hours=1)) -> None:
    user.date_joined = timezone.now() - weeks * EARN_EVERY - extra
    user.save(update_fields=["date_joined"])


def _today() -> datetime.date:
    return timezone.localdate()


def _row(user) -> tuple:
    holiday = Holiday.objects.filter(user=user).first()
    if holiday is None:
        return ()
    return (holiday.banked, holiday.banked_at, holiday.away_since, holiday.away_until)


def _duel(ann, bea, *, holidays: bool = True, deadline_days: int = 1) -> Match:
    match = match_create(
        game="faraway",
        num_players=2,
        created_by=ann,
        deadline_days=deadline_days,
        holidays=holidays,
        seed=7,
    )
    match_join(match=match, user=bea)
    match.refresh_from_db()
    return match


def _expire_deadline(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))


def _awaited_user(match: Match, ann, bea):
    return [ann, bea][match.awaiting[0]]


# --- The account page -------------------------------------------------------------------------


def test_the_account_page_shows_the_allowance_earned_a_day_a_week(ann, ann_client):
    page = ann_client.get("/accounts/").content.decode()
    assert 'id="account-holidays"' in page
    assert "You have <strong>0</strong> days of holiday" in page and 'id="holiday-none"' in page
    _joined_weeks_ago(ann, 8)
    page = ann_client.get("/accounts/").content.decode()
    assert "You have <strong>8</strong> days of holiday" in page
    latest = _today() + timedelta(days=7)
    assert f'max="{latest.isoformat()}"' in page and 'id="holiday-go"' in page
    _joined_weeks_ago(ann, 500)
    page = ann_client.get("/accounts/").content.decode()
    assert f"You have <strong>{CAP}</strong> days of holiday (the most you can save)" in page


def test_a_new_account_may_try_a_holiday_at_once_with_its_starting_days(ann, ann_client, settings):
    """A new player starts with ``PARLOUR_HOLIDAY_START_DAYS`` (2 by default) on top of the day
    a week; once spent, the days come a week at a time as before."""
    settings.PARLOUR_HOLIDAY_START_DAYS = 2
    page = ann_client.get("/accounts/").content.decode()
    assert "You have <strong>2</strong> days of holiday" in page and 'id="holiday-go"' in page
    assert "A new account starts with 2 days, to try one at once" in page
    assert f'max="{(_today() + timedelta(days=1)).isoformat()}"' in page
    too_far = _today() + timedelta(days=2)
    refused = ann_client.post("/accounts/holiday/", {"until": too_far.isoformat()})
    assert refused.status_code == 400 and "would take 3 days and you have 2" in (
        refused.content.decode()
    )
    until = _today() + timedelta(days=1)
    assert ann_client.post("/accounts/holiday/", {"until": until.isoformat()}).status_code == 302
    holiday = Holiday.objects.get(user=ann)
    assert holiday.banked == 0 and holiday.days_taken == 2
    assert holiday.away_until == holiday_end_of(until)
    # Back at once: tomorrow was not begun, so one day comes back, and no more starting days.
    assert ann_client.post("/accounts/holiday/end/").status_code == 302
    assert Holiday.objects.get(user=ann).banked == 1
    page = ann_client.get("/accounts/").content.decode()
    assert "You have <strong>1</strong> day of holiday" in page


def test_a_new_account_gets_the_starting_days_once_and_earns_on_top(ann, settings):
    """The start is banked at ``date_joined``: weeks since add to it (an account without a
    holiday row yet gets it at its first holiday, whenever that is); the cap still holds."""
    settings.PARLOUR_HOLIDAY_START_DAYS = 2
    _joined_weeks_ago(ann, 3)
    holiday_start(user=ann, until=_today() + timedelta(days=4))  # 5 days of 2 + 3
    assert Holiday.objects.get(user=ann).banked == 0
    settings.PARLOUR_HOLIDAY_START_DAYS = 99  # more than the cap: the cap
    from accounts.selectors.holidays import start_days

    assert start_days() == CAP


def test_a_holiday_ends_at_midnight_in_the_persons_own_time_zone(ann, ann_client):
    """ "Until the end of <day>" is the person's day: a reader in Tokyo is back at midnight in
    Tokyo, nine hours before midnight UTC."""
    _joined_weeks_ago(ann, 8)
    assert ann_client.post("/accounts/time-zone/", {"zone": "Asia/Tokyo"}).status_code == 302
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    until = timezone.localdate(timezone=tokyo) + timedelta(days=2)
    response = ann_client.post("/accounts/holiday/", {"until": until.isoformat()})
    assert response.status_code == 302
    back = datetime.datetime.combine(until + timedelta(days=1), datetime.time.min, tzinfo=tokyo)
    assert Holiday.objects.get(user=ann).away_until == back
    page = ann_client.get("/accounts/").content.decode()
    assert f"You are on holiday until the end of {until:%-d %b %Y}" in page


def test_going_away_and_coming_back_early_gives_back_the_days_not_begun(ann, ann_client):
    _joined_weeks_ago(ann, 8)
    until = _today() + timedelta(days=2)
    response = ann_client.post("/accounts/holiday/", {"until": until.isoformat()})
    assert response.status_code == 302 and response["Location"].endswith("#account-holidays")
    holiday = Holiday.objects.get(user=ann)
    assert holiday.banked == 8 - 3  # today and the two days after
    assert holiday.away_until == holiday_end_of(until)
    page = ann_client.get("/accounts/").content.decode()
    assert "3 days spent" in page
    assert f"You are on holiday until the end of {until:%-d %b %Y}" in page
    assert 'id="holiday-end"' in page and 'id="holiday-go"' not in page

    response = ann_client.post("/accounts/holiday/end/")
    assert response.status_code == 302
    holiday.refresh_from_db()
    assert holiday.banked == 8 - 1 and holiday.away_until is None  # today stays spent
    page = ann_client.get("/accounts/").content.decode()
    assert "Welcome back: 2 days returned to your allowance." in page
    assert 'id="holiday-go"' in page


def test_days_earned_while_away_add_to_the_days_given_back(ann):
    _joined_weeks_ago(ann, 500)  # a full allowance: the next week starts when it is spent
    start = timezone.localtime().replace(hour=12, minute=0, second=0, microsecond=0)
    holiday_start(user=ann, until=timezone.localdate(start) + timedelta(days=9), now=start)
    assert Holiday.objects.get(user=ann).banked == CAP - 10
    # Back on the eighth day: the two days after it come back, and the week run meanwhile
    # earned one.
    back = holiday_end(user=ann, now=start + timedelta(days=7, minutes=1))
    assert back == 2
    assert Holiday.objects.get(user=ann).banked == CAP - 10 + 1 + 2


@pytest.mark.parametrize(
    ("until", "message"),
    [
        ("garbage", "Enter the last day of your holiday as a date"),
        ("", "Choose the last day of your holiday."),
        ("2026-02-30", "Enter the last day of your holiday as a date"),
        ("1999-01-01", "That day has passed"),
        ("+9", "Enter the last day of your holiday as a date"),
    ],
)
def test_garbage_is_refused_with_a_message_and_changes_nothing(ann, ann_client, until, message):
    _joined_weeks_ago(ann, 3)
    ann_client.get("/accounts/")
    before = _row(ann)
    response = ann_client.post("/accounts/holiday/", {"until": until})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="holiday-error"' in page and message in page and "Nothing changed" in page
    assert _row(ann) == before


def test_a_day_past_the_allowance_is_refused_naming_the_last_day_allowed(ann, ann_client):
    _joined_weeks_ago(ann, 3)
    too_far = _today() + timedelta(days=3)  # four days for three
    response = ann_client.post("/accounts/holiday/", {"until": too_far.isoformat()})
    assert response.status_code == 400
    page = response.content.decode()
    last = _today() + timedelta(days=2)
    assert f"would take 4 days and you have 3: the last day you may choose is {last:%-d %b %Y}" in (
        page
    )
    assert not Holiday.objects.filter(user=ann, away_until__isnull=False).exists()
    response = ann_client.post("/accounts/holiday/", {"until": last.isoformat()})
    assert response.status_code == 302


def test_someone_with_no_days_yet_is_told_how_they_are_earned(ann, ann_client):
    response = ann_client.post("/accounts/holiday/", {"until": _today().isoformat()})
    assert response.status_code == 400
    assert "You have no holiday days yet: you earn one each week" in response.content.decode()
    assert not Holiday.objects.filter(user=ann, away_until__isnull=False).exists()


def test_double_posts_are_refused_and_change_nothing(ann, ann_client):
    _joined_weeks_ago(ann, 8)
    until = _today() + timedelta(days=1)
    assert ann_client.post("/accounts/holiday/", {"until": until.isoformat()}).status_code == 302
    before = _row(ann)
    again = ann_client.post("/accounts/holiday/", {"until": until.isoformat()})
    assert again.status_code == 409
    assert "You are already on holiday until" in again.content.decode()
    assert _row(ann) == before
    assert ann_client.post("/accounts/holiday/end/").status_code == 302
    before = _row(ann)
    again = ann_client.post("/accounts/holiday/end/")
    assert again.status_code == 409 and "You are not on holiday." in again.content.decode()
    assert _row(ann) == before


def test_the_holiday_urls_take_posts_only(ann_client):
    assert ann_client.get("/accounts/holiday/").status_code == 405
    assert ann_client.get("/accounts/holiday/end/").status_code == 405


def test_a_holiday_ends_by_itself_at_the_midnight_after_its_last_day(ann):
    _joined_weeks_ago(ann, 4)
    start = timezone.now()
    today = timezone.localdate(start)
    holiday_start(user=ann, until=today, now=start)
    end = holiday_end_of(today)
    with pytest.raises(Exception, match="already on holiday"):
        holiday_start(user=ann, until=today, now=end - timedelta(seconds=1))
    # At the midnight after, computed rather than swept: a new holiday may start.
    holiday_start(user=ann, until=today + timedelta(days=1), now=end)


# --- Deadlines and bots -----------------------------------------------------------------------


def test_the_deadline_sweep_holds_an_away_persons_turn_and_restarts_it_after(ann, bea):
    match = _duel(ann, bea)
    away = _awaited_user(match, ann, bea)
    _joined_weeks_ago(away, 6)
    holiday = holiday_start(user=away, until=_today() + timedelta(days=3))
    _expire_deadline(match)
    assert tasks.enforce_deadlines.apply(throw=True).get() == 0
    assert not Move.objects.filter(match=match).exists()  # no bot played the seat
    match.refresh_from_db()
    assert match.deadline_at == holiday.away_until + timedelta(days=1)
    # The sweep no longer finds it due: a second run plays nothing either.
    assert tasks.enforce_deadlines.apply(throw=True).get() == 0

    # Back early: the deadline restarts from now, a full turn's time.
    before = timezone.now()
    holiday_end(user=away)
    match.refresh_from_db()
    assert before + timedelta(days=1) <= match.deadline_at <= timezone.now() + timedelta(days=1)
    _expire_deadline(match)
    assert tasks.enforce_deadlines.apply(throw=True).get() >= 2  # the bot plays once they are back
    assert set(Move.objects.filter(match=match).values_list("auto", flat=True)) == {"deadline"}


def test_a_match_that_refuses_holidays_keeps_its_deadline(ann, bea):
    match = _duel(ann, bea, holidays=False)
    away = _awaited_user(match, ann, bea)
    _joined_weeks_ago(away, 6)
    holiday_start(user=away, until=_today() + timedelta(days=3))
    _expire_deadline(match)
    played = tasks.enforce_deadlines.apply(throw=True).get()
    assert played >= 2
    assert Move.objects.filter(match=match, auto=Move.Auto.DEADLINE).count() == played


def test_an_away_persons_own_move_still_plays_and_others_deadlines_run(ann, bea):
    match = _duel(ann, bea)
    waiting = [bea, ann][match.awaiting[0]]  # the one not awaited goes away
    _joined_weeks_ago(waiting, 6)
    holiday_start(user=waiting, until=_today() + timedelta(days=3))
    _expire_deadline(match)
    assert tasks.enforce_deadlines.apply(throw=True).get() >= 2  # the awaited one's turn
    match.refresh_from_db()
    # Now the away person is awaited: they may still move themselves.
    seat = match.seats.get(user=waiting)
    client = factories.client_for(waiting)
    response = factories.post_move(client, match, factories.legal_moves(match, seat.index)[0])
    assert response.status_code == 200


# --- What the others see ----------------------------------------------------------------------


def test_the_others_see_the_holiday_on_the_table_and_in_their_lists(ann, bea):
    match = _duel(ann, bea)
    _joined_weeks_ago(ann, 6)
    holiday = holiday_start(user=ann, until=_today() + timedelta(days=2))
    bea_client = factories.client_for(bea)
    page = bea_client.get(f"/matches/{match.pk}/").content.decode()
    shown = timezone.localtime(holiday.away_until)
    assert f'ann is on holiday until <time datetime="{shown:%Y-%m-%dT%H:%M:%S%z}' in page.replace(
        "+00:00", "+0000"
    )
    assert "their turn deadline waits until they are back." in page
    assert 'id="holidays-refused"' not in page
    lobby = bea_client.get("/matches/").content.decode()
    assert "ann is on holiday until" in lobby
    home = bea_client.get("/").content.decode()
    assert "ann is on holiday until" in home


def test_an_open_table_hears_of_a_holiday_starting_and_ending_and_no_move_goes_stale(ann, bea):
    """A holiday raises the ``shown`` mark of the person's matches in play, never their version
    (docs/live.md): the others' open tables refetch at their next poll (a 204 before), and a
    move sent from the page as it stood before still plays."""
    match = _duel(ann, bea)
    _joined_weeks_ago(ann, 6)
    bea_client = factories.client_for(bea)
    htmx = {"HX-Request": "true"}
    poll = f"/matches/{match.pk}/table/?version={match.version}"
    assert bea_client.get(poll, headers=htmx).status_code == 204
    holiday_start(user=ann, until=_today() + timedelta(days=2))
    answer = bea_client.get(poll, headers=htmx)
    assert answer.status_code == 200 and "ann is on holiday until" in answer.content.decode()
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.shown) == (match.version, match.shown + 1)
    marked = f"{poll}&phrases={after.shown}"
    assert f"?version={match.version}&amp;phrases={after.shown}" in answer.content.decode()
    assert bea_client.get(marked, headers=htmx).status_code == 204
    holiday_end(user=ann)
    back = bea_client.get(marked, headers=htmx)
    assert back.status_code == 200 and "ann is on holiday until" not in back.content.decode()
    mover = _awaited_user(match, ann, bea)
    seat = match.seats.get(user=mover)
    move = factories.legal_moves(match, seat.index)[0]
    response = factories.post_move(factories.client_for(mover), match, move)
    assert response.status_code == 200  # posted with the version from before the holiday


def test_a_match_refusing_holidays_says_so_and_that_the_deadline_still_runs(ann, bea):
    match = _duel(ann, bea, holidays=False)
    page = factories.client_for(bea).get(f"/matches/{match.pk}/").content.decode()
    assert "Holidays are refused in this match: the turn deadline runs for everyone." in page
    _joined_weeks_ago(ann, 6)
    holiday_start(user=ann, until=_today())
    page = factories.client_for(bea).get(f"/matches/{match.pk}/").content.decode()
    assert "this match refuses holidays, so their turn deadline still runs." in page


def test_a_move_answer_carries_the_holiday_line_with_its_seats(ann, bea):
    """The move POST's table is built from the seats its locked read got: the holiday line
    rides along in that read (a join), with no statement of its own."""
    match = _duel(ann, bea)
    mover = _awaited_user(match, ann, bea)
    other = bea if mover == ann else ann
    _joined_weeks_ago(other, 6)
    holiday_start(user=other, until=_today() + timedelta(days=1))
    seat = match.seats.get(user=mover)
    response = factories.post_move(
        factories.client_for(mover), match, factories.legal_moves(match, seat.index)[0]
    )
    assert response.status_code == 200
    assert f"{other.username} is on holiday until" in response.content.decode()


def test_the_holiday_lines_cost_no_query_per_seat(ann, bea, cal):
    dan = factories.user_make("dan")
    match = factories.match_make(game="gulliver", players=[ann, bea, cal, dan], seed=3)
    client = factories.client_for(ann)
    url = f"/matches/{match.pk}/"
    client.get(url)

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    before = statements()
    for person in (bea, cal, dan):
        _joined_weeks_ago(person, 4)
        holiday_start(user=person, until=_today())
    page = client.get(url).content.decode()
    assert page.count('class="away-line"') == 3
    assert statements() == before
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/matches/").status_code == 200
    with_holidays = len(queries)
    for person in (bea, cal, dan):
        holiday_end(user=person)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/matches/").status_code == 200
    assert len(queries) == with_holidays


# --- The new-match form ------------------------------------------------------------------------


def test_the_creator_may_refuse_holidays_from_the_new_match_form(ann, ann_client):
    page = ann_client.get("/matches/new/").content.decode()
    assert 'name="refuse_holidays"' in page
    fields = {"game": "faraway", "num_players": "2", "deadline_days": "3", "seat_1": "greedy"}
    ann_client.post("/matches/new/", fields)
    ann_client.post("/matches/new/", {**fields, "refuse_holidays": "on"})
    assert list(Match.objects.order_by("pk").values_list("holidays", flat=True)) == [True, False]


def test_no_deadline_reminder_goes_to_someone_away_where_the_deadline_waits(ann, bea, mailoutbox):
    held, refused = _duel(ann, bea), _duel(ann, bea, holidays=False)
    for match in (held, refused):  # 80% of the day gone
        Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() + timedelta(hours=4))
    away = _awaited_user(held, ann, bea)
    assert _awaited_user(refused, ann, bea) == away  # the same deal: the same seat awaited
    _joined_weeks_ago(away, 3)
    holiday_start(user=away, until=_today())
    assert deadline_reminders.apply().get() == 1
    [sent] = mailoutbox
    assert f"#{refused.pk} is due soon" in sent.subject


def test_a_vote_waits_for_an_away_voter_and_the_others_ballots_are_closed_first(ann, bea, cal):
    """A challenge vote past its deadline: the missing ballots of those at home are counted as
    accepting, the away voter's is not, and the vote waits a day past their return."""
    match = factories.match_make(
        game="gulliver", players=[ann, bea, cal], seed=5, options={"challenges": True}
    )
    seats = {s.index: s for s in match.seats.all()}
    player = match.awaiting[0]
    card = next(m for m in factories.legal_moves(match, player) if m["type"] == "play")
    move_submit(match=match, seat=seats[player], move=card, expected_version=match.version)
    match.refresh_from_db()
    challenger = next(
        i
        for i in range(3)
        if i != player and {"type": "challenge"} in factories.legal_moves(match, i)
    )
    move_submit(
        match=match,
        seat=seats[challenger],
        move={"type": "challenge"},
        expected_version=match.version,
    )
    match.refresh_from_db()
    voters = sorted(match.awaiting)
    away_seat = voters[-1]
    away = seats[away_seat].user
    _joined_weeks_ago(away, 2)
    holiday = holiday_start(user=away, until=_today())
    _expire_deadline(match)
    played = tasks.enforce_deadlines.apply(throw=True).get()
    closed = Move.objects.filter(match=match, auto=Move.Auto.VOTE_CLOSED)
    assert played == len(voters) - 1
    assert away_seat not in set(closed.values_list("seat", flat=True))
    match.refresh_from_db()
    assert match.awaiting == [away_seat]
    assert match.deadline_at == holiday.away_until + timedelta(hours=24)


def test_the_deadline_line_gives_way_to_the_holiday_while_the_away_person_is_awaited(ann, bea):
    match = _duel(ann, bea)
    awaited = _awaited_user(match, ann, bea)
    other = bea if awaited == ann else ann
    client = factories.client_for(other)
    assert 'id="deadline"' in client.get(f"/matches/{match.pk}/").content.decode()
    _joined_weeks_ago(other, 3)
    holiday_start(user=other, until=_today())  # the one not awaited: the deadline still runs
    assert 'id="deadline"' in client.get(f"/matches/{match.pk}/").content.decode()
    _joined_weeks_ago(awaited, 3)
    holiday_start(user=awaited, until=_today())
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="deadline"' not in page
    assert f"{awaited.username} is on holiday until" in page
    refused = _duel(ann, bea, holidays=False)  # the same deal: the same person awaited
    page = client.get(f"/matches/{refused.pk}/").content.decode()
    assert 'id="deadline"' in page and "their turn deadline still runs" in page
