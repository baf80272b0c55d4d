"""A post-game analysis run by a real Celery worker on Redis, as in production.

The worker runs in a thread of this process (``celery_worker`` from ``celery.contrib.pytest``,
the ``worker`` fixture) and reads the same database as the test, so the test commits for real
(``transaction=True``). The request sends the task on commit; the test only watches the
database. A duplicate message, sent on top, writes nothing twice; and a bot's move in another
match, sent while an analysis runs, is played between its slices, not after it (the worker is
one ``solo`` process, as under ``make run``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from celery.signals import task_postrun

from games import tasks
from games.engines import get_engine
from games.models import AnalysedDecision, AnalysisStatus, Match, MatchAnalysis, Move
from games.services import match_create, move_submit
from tests import factories
from tests.analysis_matches import greedy_move, play_greedy
from tests.polling import wait_for

pytestmark = [
    pytest.mark.services("redis"),
    pytest.mark.django_db(transaction=True),
]


def judged_once_each(analysis: MatchAnalysis, match) -> list[int]:
    """The plies the analysis judged, in order: every seated move's, each once."""
    plies = list(
        AnalysedDecision.objects.filter(analysis=analysis)
        .order_by("ply")
        .values_list("ply", flat=True)
    )
    assert plies == list(
        Move.objects.filter(match=match, seat__isnull=False)
        .order_by("ply")
        .values_list("ply", flat=True)
    )
    return plies


def test_a_worker_analyses_a_short_finished_match_once(ann, bea, ann_client, worker, settings):
    settings.PARLOUR_ANALYSIS_ITERATIONS = 4
    match = play_greedy(factories.match_make(game="faraway", players=[ann, bea], seed=11))
    response = ann_client.post(f"/matches/{match.pk}/analysis/")
    assert response.status_code == 302
    tasks.match_analyse.delay(match.pk, match.version)  # a duplicate delivery of the same run

    def done() -> bool:
        analysis = MatchAnalysis.objects.filter(match=match).first()
        return analysis is not None and analysis.status == AnalysisStatus.DONE

    wait_for(done, "the worker to finish the analysis", timeout=120)
    wait_for(lambda: len(worker.get("games.match_analyse", [])) >= 2, "both messages", 60)
    analysis = MatchAnalysis.objects.get(match=match)
    plies = judged_once_each(analysis, match)
    assert analysis.decisions_done == analysis.decisions_total == len(plies)
    page = ann_client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert 'id="analysis-summary"' in page and 'id="analysis-chart"' in page


@pytest.fixture
def finish_order() -> Iterator[list[str]]:
    """The names of the tasks the worker finishes, in the order it finishes them."""
    order: list[str] = []

    def finished(sender=None, **_: object) -> None:
        order.append(sender.name)

    task_postrun.connect(finished, weak=False)
    yield order
    task_postrun.disconnect(finished)


def _awaiting(match: Match) -> list[int]:
    match.refresh_from_db()
    return match.awaiting


def _up_to_the_bots_turn(table: Match, seat: int) -> dict:
    """Play ``seat``'s greedy moves at ``table`` until the next one hands the turn to the bot;
    that move, not played."""
    engine = get_engine(table.game)
    while True:
        wait_for(lambda: _awaiting(table) == [seat], "the bot to hand the turn back")
        state = engine.load(table.state)
        move = greedy_move(table, state, seat)
        if set(engine.awaiting(engine.apply(state, seat, move))) - {seat}:
            return move
        seat_row = table.seats.get(index=seat)
        move_submit(match=table, seat=seat_row, move=move, expected_version=table.version)


def test_a_bots_move_is_played_between_the_slices_of_an_analysis(
    ann, bea, ann_client, worker, finish_order, settings
):
    settings.PARLOUR_ANALYSIS_ITERATIONS = 4
    settings.PARLOUR_ANALYSIS_SLICE_S = 0  # one decision a run: many slices
    match = play_greedy(factories.match_make(game="faraway", players=[ann, bea], seed=11))
    table = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=21, public=True
    )
    ann_seat = table.seats.get(user=ann).index
    move = _up_to_the_bots_turn(table, ann_seat)
    assert ann_client.post(f"/matches/{match.pk}/analysis/").status_code == 302
    analysis = MatchAnalysis.objects.get(match=match)

    def progress() -> int:
        analysis.refresh_from_db()
        return analysis.decisions_done

    wait_for(lambda: progress() >= 2, "the analysis to be under way", timeout=60)
    table.refresh_from_db()
    played = move_submit(
        match=table, seat=table.seats.get(index=ann_seat), move=move, expected_version=table.version
    )
    bot_moves = Move.objects.filter(match=table, ply__gt=played.ply - 1).exclude(seat=ann_seat)
    wait_for(bot_moves.exists, "the bot to answer", timeout=60)
    seen_at = progress()

    wait_for(lambda: progress() == analysis.decisions_total, "the analysis to end", timeout=120)
    wait_for(lambda: _refreshed_status(analysis) == AnalysisStatus.DONE, "done", timeout=30)
    assert seen_at < analysis.decisions_total  # the bot did not wait for the whole analysis
    assert bot_moves.first().created_at < analysis.finished_at
    # The worker ran slices of the analysis both before and after the bot's turn.
    assert "games.bot_turn" in finish_order
    turn = finish_order.index("games.bot_turn", finish_order.index("games.match_analyse"))
    assert "games.match_analyse" in finish_order[turn:]
    assert finish_order.count("games.match_analyse") >= analysis.decisions_total
    judged_once_each(analysis, match)


def _refreshed_status(analysis: MatchAnalysis) -> str:
    analysis.refresh_from_db()
    return analysis.status
