"""A post-game analysis run by a real Celery worker on Redis, as in production.

The worker runs in a thread of this process (``celery_worker`` from ``celery.contrib.pytest``,
the ``worker`` fixture) and reads the same database as the test, so the test commits for real
(``transaction=True``). The request sends the task on commit; the test only watches the
database. A duplicate message, sent on top, writes nothing twice.
"""

from __future__ import annotations

import pytest

from games import tasks
from games.models import AnalysedDecision, AnalysisStatus, MatchAnalysis, Move
from tests import factories
from tests.analysis_matches import play_greedy
from tests.polling import wait_for

pytestmark = [
    pytest.mark.services("redis"),
    pytest.mark.django_db(transaction=True),
]


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
    wait_for(lambda: len(worker.get("games.match_analyse", [])) == 2, "both messages", 60)
    analysis = MatchAnalysis.objects.get(match=match)
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
    assert analysis.decisions_done == analysis.decisions_total == len(plies)
    page = ann_client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert 'id="analysis-summary"' in page and 'id="analysis-chart"' in page
