"""Ratings (docs/ratings.md): a finished match rated once, in the order matches finished; the
unrated cases and their notes; bot levels; the leaderboard; the table, history and profile.

Matches are played through the services without a seed where the play matters, or written as
rows (``tests.integration.history_rows``) with a pending rating where only the result does.
"""

from __future__ import annotations

import datetime
import importlib
import random
import re

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import skill, tasks
from games.models import Match, Move, Rating, RatingChange, RatingStatus
from games.presentation.leaderboard import board_lines
from games.selectors.ratings import leaderboard
from games.services.ratings import (
    NOTE_BOTS_ONLY,
    NOTE_DEADLINE,
    NOTE_SEED_FIXED,
    match_rate,
    ratings_update_due,
)
from tests import factories
from tests.integration.history_rows import match_rows

pytestmark = pytest.mark.django_db


def pending(seats, *, finished: datetime.datetime | None = None, **kwargs) -> Match:
    """A finished match written as rows, waiting for its rating, as ``state_store`` leaves it."""
    match = match_rows(seats=seats, **kwargs)
    update = {"rating_status": RatingStatus.PENDING}
    if finished is not None:
        update["finished_at"] = finished
    Match.objects.filter(pk=match.pk).update(**update)
    match.refresh_from_db()
    return match


def two(winner, loser, **kwargs) -> Match:
    return pending([(winner, "won", 10, 1), (loser, "lost", 4, 2)], **kwargs)


def rating_of(who, game: str = "faraway") -> Rating:
    if isinstance(who, str):
        return Rating.objects.get(game=game, bot_level=who)
    return Rating.objects.get(game=game, user=who)


def played(players, django_capture_on_commit_callbacks, *, seed=None, k=1) -> Match:
    """A match of ``players`` played to the end through the services, the commit hooks run
    (the rating task among them, eager in tests)."""
    match = factories.match_make(game="faraway", players=players, seed=seed)
    with django_capture_on_commit_callbacks(execute=True):
        factories.play_random(match, random.Random(k))
    match.refresh_from_db()
    return match


# --- Rated once ------------------------------------------------------------------------------


def test_a_played_match_is_rated_once_on_commit(ann, bea, django_capture_on_commit_callbacks):
    match = played([ann, bea], django_capture_on_commit_callbacks)
    assert match.status == Match.Status.FINISHED and not match.seed_fixed
    assert match.rating_status == RatingStatus.RATED and match.rating_note == ""
    changes = list(RatingChange.objects.filter(match=match).order_by("seat"))
    assert [c.seat for c in changes] == [0, 1]
    seats = list(match.seats.order_by("index"))
    before = [skill.Skill(), skill.Skill()]
    expected = skill.rate(before, [s.rank for s in seats])
    for change, seat, after in zip(changes, seats, expected, strict=True):
        assert change.rating == rating_of(seat.user)
        assert (change.mu_before, change.sigma_before) == (skill.MU, skill.SIGMA)
        assert (change.mu_after, change.sigma_after) == pytest.approx((after.mu, after.sigma))
        assert change.ordinal_before == 1000 and change.ordinal_after == after.ordinal
        assert change.matches_after == 1
        assert change.rating.matches == 1
        assert change.rating.last_played_at == match.finished_at
    # Every later run, the task's or the sweeper's, finds nothing to do.
    assert ratings_update_due() == 0
    assert tasks.ratings_update.apply(args=(match.pk, match.version)).get() == 0
    assert RatingChange.objects.filter(match=match).count() == 2
    assert rating_of(ann).matches == 1


def test_the_end_marks_the_match_pending_until_the_task_runs(ann, bea):
    match = factories.match_make(game="faraway", players=[ann, bea])
    factories.play_random(match, random.Random(2))  # no commit hooks run: the task never came
    match.refresh_from_db()
    assert match.rating_status == RatingStatus.PENDING
    assert not RatingChange.objects.exists()
    # The sweeper (beat's entry runs the same task) picks it up.
    assert settings.CELERY_BEAT_SCHEDULE["ratings-update"]["task"] == "games.ratings_update"
    assert settings.CELERY_BEAT_SCHEDULE["ratings-update"]["schedule"] == 60
    assert tasks.ratings_update.apply().get() == 1
    match.refresh_from_db()
    assert match.rating_status == RatingStatus.RATED
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_task_delivered_twice_rates_once(ann, bea):
    match = two(ann, bea)
    assert tasks.ratings_update.apply(args=(match.pk, 1)).get() == 1
    assert tasks.ratings_update.apply(args=(match.pk, 1)).get() == 0
    assert ratings_update_due() == 0
    assert RatingChange.objects.filter(match=match).count() == 2
    assert rating_of(ann).matches == 1 and rating_of(bea).matches == 1


def test_the_unique_constraint_is_the_last_guard(ann, bea):
    match = two(ann, bea)
    assert match_rate(match_id=match.pk)
    ann_rating = rating_of(ann)
    # A status written back by mistake (or a run that read it before the lock): the changes
    # already there make the second rating fail as a whole, and nothing moves.
    Match.objects.filter(pk=match.pk).update(rating_status=RatingStatus.PENDING)
    assert not match_rate(match_id=match.pk)
    again = rating_of(ann)
    assert (again.mu, again.sigma, again.matches) == (
        ann_rating.mu,
        ann_rating.sigma,
        ann_rating.matches,
    )
    assert RatingChange.objects.filter(match=match).count() == 2


def test_matches_are_rated_in_the_order_they_finished(ann, bea):
    now = timezone.now()
    # Created (and numbered) in one order, finished in another: 2nd, 3rd, then 1st.
    m1 = two(ann, bea, finished=now - datetime.timedelta(hours=1))
    m2 = two(bea, ann, finished=now - datetime.timedelta(hours=3))
    m3 = two(bea, ann, finished=now - datetime.timedelta(hours=2))
    assert ratings_update_due() == 3
    order = [m2, m3, m1]
    chain = list(
        RatingChange.objects.filter(rating__user=ann)
        .order_by("matches_after")
        .values_list("match_id", "mu_before", "mu_after", "matches_after")
    )
    assert [c[0] for c in chain] == [m.pk for m in order]
    assert [c[3] for c in chain] == [1, 2, 3]
    # Each change starts where the one before it ended.
    assert chain[0][1] == skill.MU
    assert chain[1][1] == pytest.approx(chain[0][2]) and chain[2][1] == pytest.approx(chain[1][2])
    # Rated afresh in that order by hand, the figures agree.
    a, b = skill.Skill(), skill.Skill()
    for ranks in ([2, 1], [2, 1], [1, 2]):  # ann lost m2 and m3, then won m1
        a, b = skill.rate([a, b], ranks)
    assert (rating_of(ann).mu, rating_of(ann).sigma) == pytest.approx((a.mu, a.sigma))
    assert (rating_of(bea).mu, rating_of(bea).sigma) == pytest.approx((b.mu, b.sigma))


def test_three_and_four_seat_matches_rate_every_seat(ann, bea, cal):
    dee = factories.user_make("dee")
    match = pending(
        [(ann, "lost", 3, 3), (bea, "won", 9, 1), (cal, "lost", 5, 2), (dee, "lost", 3, 3)]
    )
    assert ratings_update_due() == 1
    after = skill.rate([skill.Skill()] * 4, [3, 1, 2, 3])
    got = {c.seat: (c.mu_after, c.sigma_after) for c in RatingChange.objects.filter(match=match)}
    assert got == {i: pytest.approx((s.mu, s.sigma)) for i, s in enumerate(after)}


# --- Not rated -------------------------------------------------------------------------------


def test_a_bots_only_match_is_not_rated(ann):
    match = pending([("greedy", "won", 9, 1), ("random", "lost", 2, 2)], created_by=ann)
    assert ratings_update_due() == 1
    match.refresh_from_db()
    assert (match.rating_status, match.rating_note) == (RatingStatus.UNRATED, NOTE_BOTS_ONLY)
    assert not Rating.objects.exists()


def test_a_match_with_a_fixed_seed_is_not_rated(ann, bea, django_capture_on_commit_callbacks):
    match = played([ann, bea], django_capture_on_commit_callbacks, seed=7)
    assert match.seed_fixed
    assert (match.rating_status, match.rating_note) == (RatingStatus.UNRATED, NOTE_SEED_FIXED)
    assert not RatingChange.objects.exists()


def log(match: Match, seat: int, autos: list[str]) -> None:
    start = Move.objects.filter(match=match).count()
    Move.objects.bulk_create(
        Move(match=match, ply=start + i + 1, seat=seat, payload={}, chain_hash="x", auto=auto)
        for i, auto in enumerate(autos)
    )


def test_a_match_mostly_played_by_the_deadline_bot_is_not_rated(ann, bea):
    match = two(ann, bea)
    log(match, 0, ["", "", "", "", "", ""])
    log(match, 1, ["deadline", "deadline", "", "deadline", "vote_closed"])  # 3 of 5
    with CaptureQueriesContext(connection) as ctx:
        assert ratings_update_due() == 1
    aggregates = [q["sql"] for q in ctx.captured_queries if "COUNT" in q["sql"]]
    assert len(aggregates) == 1  # one aggregate query over the log
    match.refresh_from_db()
    assert match.rating_status == RatingStatus.UNRATED
    assert match.rating_note == NOTE_DEADLINE.format(name="bea")
    assert not Rating.objects.exists()


def test_half_played_by_the_deadline_bot_is_still_rated(ann, bea):
    match = two(ann, bea)
    log(match, 0, ["deadline", "deadline", "", ""])  # exactly half: not more than half
    log(match, 1, ["", ""])
    assert ratings_update_due() == 1
    match.refresh_from_db()
    assert match.rating_status == RatingStatus.RATED


def test_old_finished_matches_are_left_unrated_by_the_migration(ann, bea):
    match = match_rows(seats=[(ann, "won", 3, 1), (bea, "lost", 1, 2)])
    running = match_rows(seats=[(ann, None, None, None)], status=Match.Status.ACTIVE)
    migration = importlib.import_module("games.migrations.0007_ratings")
    migration.mark_old_finished(django_apps, None)
    match.refresh_from_db()
    running.refresh_from_db()
    assert (match.rating_status, match.rating_note) == ("unrated", migration.BEFORE_RATINGS)
    assert running.rating_status == ""


# --- Bots ------------------------------------------------------------------------------------


def test_bot_levels_are_rated_like_people(ann):
    match = two("strong", ann, created_by=ann)
    assert ratings_update_due() == 1
    strong = rating_of("strong")
    assert strong.user is None and strong.matches == 1
    after = skill.rate([skill.Skill(), skill.Skill()], [1, 2])
    assert (strong.mu, strong.sigma) == pytest.approx((after[0].mu, after[0].sigma))
    assert RatingChange.objects.get(match=match, seat=0).rating == strong


def test_two_seats_of_one_bot_level_move_its_rating_once(ann):
    # ann first, two greedy bots 2nd and 3rd: the level takes its best seat's update only.
    match = pending(
        [("greedy", "lost", 2, 3), (ann, "won", 9, 1), ("greedy", "lost", 5, 2)], created_by=ann
    )
    assert ratings_update_due() == 1
    greedy = rating_of("greedy")
    assert greedy.matches == 1
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {1, 2}
    after = skill.rate([skill.Skill()] * 3, [3, 1, 2])
    assert (greedy.mu, greedy.sigma) == pytest.approx((after[2].mu, after[2].sigma))
    assert (changes[1].mu_after, changes[1].sigma_after) == pytest.approx(
        (after[1].mu, after[1].sigma)
    )


# --- The leaderboard -------------------------------------------------------------------------


def rated(who, *, mu: float, matches: int = 12, days_ago: int = 1, game: str = "faraway"):
    when = timezone.now() - datetime.timedelta(days=days_ago)
    fields = {"bot_level": who} if isinstance(who, str) else {"user": who}
    return Rating.objects.create(
        game=game, mu=mu, sigma=3.0, matches=matches, last_played_at=when, **fields
    )


def test_the_leaderboard_ranks_the_eligible_with_bots_in_place(ann, bea, cal, ann_client):
    dee, eve, fay = (factories.user_make(n) for n in ("dee", "eve", "fay"))
    rated(ann, mu=30)
    rated(bea, mu=20, matches=5)  # just enough matches, provisional
    rated(cal, mu=40, matches=4)  # too few rated matches
    rated(dee, mu=35, days_ago=91)  # none in the last 90 days
    rated(eve, mu=25, days_ago=89)
    rated(fay, mu=50, game="gulliver")  # another game
    rated("strong", mu=27, matches=40)
    rated("random", mu=10, matches=40)
    page = leaderboard(game="faraway")
    lines = board_lines(page.object_list)
    names = [(r.place, r.name) for r in lines]
    assert names == [(1, "ann"), (2, "Strong bot"), (3, "eve"), (4, "bea"), (5, "Random bot")]
    assert lines[3].provisional and lines[3].rating.endswith("?")
    assert page.object_list[3].ordinal == skill.display_ordinal(20, 3.0)

    html = ann_client.get("/leaderboard/faraway/").content.decode()
    order = re.findall(r'data-name="([^"]+)"', html)
    assert order == ["user:ann", "bot:strong", "user:eve", "user:bea", "bot:random"]
    assert 'class="lb-row lb-bot"' in html and ">bot</span>" in html
    assert "provisional" in html
    assert ann_client.get("/leaderboard/chess/").status_code == 404
    assert ann_client.get("/leaderboard/faraway/?page=zz").status_code == 200


def test_the_leaderboard_pages_at_fifty_with_constant_queries(ann_client):
    def queries(page: int) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert ann_client.get(f"/leaderboard/faraway/?page={page}").status_code == 200
        return len(ctx.captured_queries)

    for i in range(3):
        rated(factories.user_make(f"p{i}"), mu=20 + i)
    few = queries(1)
    for i in range(3, 120):
        rated(factories.user_make(f"p{i}"), mu=20 + i / 10)
    assert queries(1) == few == queries(3)
    page = leaderboard(game="faraway", page=3)
    assert page.paginator.num_pages == 3 and len(page.object_list) == 20
    assert page.object_list[0].place == 101
    html = ann_client.get("/leaderboard/faraway/?page=2").content.decode()
    assert html.count('class="lb-row') == 50


def test_the_nav_links_the_leaderboard(ann_client):
    html = ann_client.get("/history/").content.decode()
    assert 'id="nav-leaderboard"' in html and 'href="/leaderboard/faraway/"' in html


# --- On the pages ----------------------------------------------------------------------------


def test_the_finished_table_shows_the_changes(
    ann, bea, ann_client, django_capture_on_commit_callbacks
):
    match = played([ann, bea], django_capture_on_commit_callbacks)
    html = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-rating-status="rated"' in html
    for change in RatingChange.objects.filter(match=match):
        words = f"+{change.delta}" if change.delta > 0 else str(change.delta)
        item = re.search(rf'<li class="rc-seat[^"]*" data-seat="{change.seat}">.*?</li>', html)
        assert item and f'<strong class="rc-change">{words}</strong>' in item.group(0)
        assert f"now {change.ordinal_after}?" in item.group(0)  # provisional after one match
    # The table's partial (the poll) carries it too, in one query more than during play.
    assert 'id="rating-changes"' in ann_client.get(f"/matches/{match.pk}/table/").content.decode()


def test_the_finished_table_says_pending_and_unrated(ann, bea, ann_client):
    match = factories.match_make(game="faraway", players=[ann, bea])
    factories.play_random(match, random.Random(3))
    html = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="rating-pending"' in html and "Rating…" in html
    # That section polls the table on its own until the rating is in.
    assert f'hx-get="/matches/{match.pk}/table/" hx-trigger="every 3s, parlour-quiet-poll"' in html
    ratings_update_due()
    html = ann_client.get(f"/matches/{match.pk}/table/", headers={"HX-Request": "true"})
    assert 'data-rating-status="rated"' in html.content.decode()
    assert 'hx-trigger="every 3s"' not in html.content.decode()
    Match.objects.filter(pk=match.pk).update(
        rating_status=RatingStatus.UNRATED, rating_note=NOTE_SEED_FIXED
    )
    html = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="rating-unrated"' in html and "chosen seed" in html


def test_a_running_table_reads_no_rating(ann, bea, ann_client):
    match = factories.match_make(game="faraway", players=[ann, bea])
    with CaptureQueriesContext(connection) as ctx:
        html = ann_client.get(f"/matches/{match.pk}/table/").content.decode()
    assert "games_rating" not in " ".join(q["sql"] for q in ctx.captured_queries)
    assert 'id="rating-changes"' not in html


def test_history_rows_show_the_change_without_a_query_per_row(ann, bea, ann_client):
    for i in range(3):
        two(ann, bea, day=i)
    few_html = None
    with CaptureQueriesContext(connection) as few:
        few_html = ann_client.get("/history/").content.decode()
    for i in range(3, 8):
        two(bea, ann, day=i)
    ratings_update_due()
    with CaptureQueriesContext(connection) as many:
        html = ann_client.get("/history/").content.decode()
    assert len(many.captured_queries) == len(few.captured_queries)
    assert 'class="hr-rating"' not in few_html  # not rated yet
    shown = re.findall(r'<span class="hr-rating"[^>]*>([^<]+)</span>', html)
    assert len(shown) == 8
    latest = RatingChange.objects.filter(rating__user=ann).order_by("-matches_after").first()
    assert shown[0] == str(latest.delta)  # newest first; ann lost it


def test_the_profile_shows_the_rating_and_its_chart(ann, bea, ann_client, bea_client):
    for i in range(4):
        two(ann, bea, day=i)
    ratings_update_due()
    html = bea_client.get("/players/ann/").content.decode()
    section = re.search(r'<section id="profile-ratings".*?</section>', html, re.S).group(0)
    rating = rating_of(ann)
    shown = skill.display_ordinal(rating.mu, rating.sigma)
    assert f'<span class="pf-rating-value">{shown}?</span>' in section
    assert "provisional" in section and "4 rated matches" in section
    svg = re.search(r"<svg .*?</svg>", section, re.S).group(0)
    assert 'viewBox="0 0 400 200"' in svg and 'width="100%"' in svg
    points = re.search(r'<polyline class="line" points="([^"]+)"', svg).group(1).split()
    assert len(points) == 4
    assert "<script" not in section
    # Rising: ann won all four, so each point sits higher (a smaller y) than the one before.
    ys = [float(p.split(",")[1]) for p in points]
    assert ys == sorted(ys, reverse=True)


def test_a_profile_chart_keeps_to_the_matches_the_viewer_may_see(
    ann, bea, cal, bea_client, cal_client
):
    two(ann, bea, day=0)
    two(ann, bea, day=1, public=False)
    two(ann, cal, day=2)
    ratings_update_due()

    def chart(client) -> tuple[int, str]:
        html = client.get("/players/ann/").content.decode()
        section = re.search(r'<section id="profile-ratings".*?</section>', html, re.S).group(0)
        found = re.search(r'<polyline class="line" points="([^"]+)"', section)
        return len(found.group(1).split()), section

    seen_by_bea, section = chart(bea_client)  # a member of the private match
    assert seen_by_bea == 3 and "3 rated matches" in section
    seen_by_cal, section = chart(cal_client)
    assert seen_by_cal == 2  # the private match's point is not there
    assert "3 rated matches" in section  # the rating and its count are public figures
    assert "you may see" in section


def test_a_profile_without_ratings_says_so(ann, ann_client):
    html = ann_client.get("/players/ann/").content.decode()
    assert "No rated matches yet." in html


# --- Racing workers (PostgreSQL row locks) ---------------------------------------------------


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_rate_each_match_once():
    ann, bea, cal = (factories.user_make(n) for n in ("ann", "bea", "cal"))
    now = timezone.now()
    matches = [
        two(*pair, finished=now - datetime.timedelta(minutes=20 - i))
        for i, pair in enumerate([(ann, bea), (bea, cal), (cal, ann)] * 4)
    ]
    done = factories.at_once([ratings_update_due, ratings_update_due])  # raises any error
    assert sum(done) == len(matches)
    for match in matches:
        assert RatingChange.objects.filter(match=match).count() == 2
    assert {r.matches for r in Rating.objects.all()} == {8}
    # The same figures as one worker rating them in order.
    a = b = c = skill.Skill()
    for i in range(12):
        if i % 3 == 0:
            a, b = skill.rate([a, b], [1, 2])
        elif i % 3 == 1:
            b, c = skill.rate([b, c], [1, 2])
        else:
            c, a = skill.rate([c, a], [1, 2])
    assert rating_of(ann).mu == pytest.approx(a.mu)
    assert rating_of(cal).sigma == pytest.approx(c.sigma)
