"""Post-game analysis through the site: asking for it, the per-person limit, the cache, who may
ask and see, what it judges (people's own decisions only) and that a run writes once however
often it runs, concurrently or after a partial run.

Tasks run in process: the run a request sends goes after the commit, inside
``django_capture_on_commit_callbacks(execute=True)``. The strong bot thinks for a few
iterations per decision (``PARLOUR_ANALYSIS_ITERATIONS``), so every run replays exactly.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterator
from datetime import timedelta

import pytest
from celery.signals import task_prerun
from django.utils import timezone, translation
from django.utils.html import escape

from games import tasks
from games.engines import get_engine
from games.models import AnalysedDecision, AnalysisStatus, Match, MatchAnalysis, Move, Seat
from games.services import match_create, match_deadline_enforce, move_submit
from games.services.analysis import analysis_request, analysis_run
from tests import factories
from tests.analysis_matches import greedy_move, play_greedy
from tests.integration.test_broker_outage import app_on_broker, closed_port

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ROWS = ("ply", "seat", "judged", "played", "best", "played_chance", "best_chance", "cost")


@pytest.fixture(autouse=True)
def _small_budget(settings) -> None:
    settings.PARLOUR_ANALYSIS_ITERATIONS = 4
    settings.PARLOUR_ANALYSIS_RATE = "3/h"


@pytest.fixture
def finished(ann, bea) -> Match:
    match = factories.match_make(game="faraway", players=[ann, bea], seed=11)
    return play_greedy(match)


def _url(match: Match) -> str:
    return f"/matches/{match.pk}/analysis/"


def _rows(analysis: MatchAnalysis) -> list[tuple]:
    return list(
        AnalysedDecision.objects.filter(analysis=analysis).order_by("ply").values_list(*ROWS)
    )


def _person_plies(match: Match) -> list[int]:
    people = Seat.objects.filter(match=match, bot_level__isnull=True).values("index")
    moves = Move.objects.filter(match=match, seat__in=people, auto="").order_by("ply")
    return list(moves.values_list("ply", flat=True))


@pytest.fixture
def analysis_runs() -> Iterator[list[tuple[int, int]]]:
    """Each ``games.match_analyse`` run as it starts: (stack depth, decisions done so far)."""
    runs: list[tuple[int, int]] = []

    def started(sender=None, args=None, **_: object) -> None:
        if sender.name != "games.match_analyse":
            return
        analysis = MatchAnalysis.objects.filter(match_id=args[0]).first()
        depth = sum(1 for _ in traceback.walk_stack(None))
        runs.append((depth, analysis.decisions_done if analysis else -1))

    task_prerun.connect(started, weak=False)
    yield runs
    task_prerun.disconnect(started)


def test_a_player_asks_and_the_replay_shows_marks_chart_and_summary(
    finished, ann_client, bea_client, django_capture_on_commit_callbacks
):
    page = ann_client.get(f"/matches/{finished.pk}/replay/").content.decode()
    assert 'id="analysis-request"' in page and 'data-status="none"' in page
    with django_capture_on_commit_callbacks(execute=True) as sent:
        response = ann_client.post(_url(finished))
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{finished.pk}/replay/#analysis"
    assert len(sent) == 1
    analysis = MatchAnalysis.objects.get(match=finished)
    assert analysis.status == AnalysisStatus.DONE and analysis.requested_by.username == "ann"
    assert analysis.decisions_done == analysis.decisions_total == len(_person_plies(finished))
    assert [r[0] for r in _rows(analysis)] == _person_plies(finished)
    judged = AnalysedDecision.objects.filter(analysis=analysis, judged=True)
    assert judged.exists()
    for d in judged:
        assert 0 <= d.played_chance <= 1 and 0 <= d.best_chance <= 1
        assert d.cost == pytest.approx(max(0.0, d.best_chance - d.played_chance))
        assert set(d.played_words) == set(d.best_words) == {"en-gb", "de", "fr"}
        assert all(d.played_words.values()) and all(d.best_words.values())
    page = bea_client.get(f"/matches/{finished.pk}/replay/").content.decode()
    assert 'data-status="done"' in page and "hx-trigger" not in page.split('id="analysis"')[1]
    assert 'id="analysis-summary"' in page and 'id="analysis-chart"' in page
    assert "<polyline" in page and 'role="img"' in page
    assert "Estimated chance of winning after each decision." in page
    for name in ("ann", "bea"):
        assert re.search(rf'<th scope="row">.*?{name}</th>', page)
    costly = judged.filter(cost__gte=0.05).order_by("ply")
    if costly:  # every costly decision is marked in the move list and listed under the chart
        first = costly[0]
        assert page.count('class="cost-mark" title=') == costly.count()
        assert f'data-ply="{first.ply}"' in page
        frame = bea_client.get(
            f"/matches/{finished.pk}/replay/", {"ply": first.ply}, headers=HTMX
        ).content.decode()
        assert 'id="frame-mark"' in frame and f"{round(first.cost * 100)}%" in frame
    # Any judged move's frame carries its judgement, in the viewer's words.
    one = judged.filter(seat=0).first()
    frame = ann_client.get(f"/matches/{finished.pk}/replay/", {"ply": one.ply}).content.decode()
    assert 'id="frame-mark"' in frame


def test_the_analysis_has_costly_marks_on_this_seed(finished, ann, bea):
    """The seed the page test uses does give the marks something to show."""
    analysis = analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    analysis_run(match_id=finished.pk)
    assert analysis.decisions.filter(cost__gte=0.05).exists()


def test_each_reader_reads_the_judged_moves_in_their_own_language(finished, ann, bea, cal):
    """Issue 37: the moves' words are stored in every language, whatever language the worker
    ran in (French here), and the analysis shows each reader theirs: a German reader German
    move words, an English reader English ones, never the worker's French."""
    analysis = analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    with translation.override("fr"):
        analysis_run(match_id=finished.pk)
    costly = analysis.decisions.filter(judged=True, cost__gte=0.05).order_by("ply").first()
    assert costly is not None  # the seed gives the summary's list a costly move to show
    played, best = costly.played_words, costly.best_words
    assert played["de"] != played["en-gb"] != played["fr"]
    german = factories.client_for(bea)
    german.defaults["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    english = factories.client_for(cal)
    english.defaults["HTTP_ACCEPT_LANGUAGE"] = "en-GB,en;q=0.9"
    pages = {
        "de": german.get(f"/matches/{finished.pk}/replay/").content.decode(),
        "en-gb": english.get(f"/matches/{finished.pk}/replay/").content.decode(),
    }
    for language, page in pages.items():
        summary = page.split('id="analysis-summary"')[1]
        # The summary's costly move and a chart dot: the move played, in the reader's words.
        assert f"{escape(played[language])}. " in summary
        assert f"{escape(played[language])}, " in page
        others = {code: words for code, words in played.items() if code != language}
        assert not any(escape(words) in page for words in others.values())
    # The frame of that move: the strong bot's choice in the reader's words too.
    for language, client in (("de", german), ("en-gb", english)):
        frame = client.get(
            f"/matches/{finished.pk}/replay/", {"ply": costly.ply}, headers=HTMX
        ).content.decode()
        mark = frame.split('id="frame-mark"')[1].split("</p>")[0]
        words = best[language]
        assert escape(words[:1].lower() + words[1:]) in mark


def test_asking_again_shows_the_same_analysis_and_costs_nothing(
    finished, ann, bea, ann_client, django_capture_on_commit_callbacks, settings
):
    settings.PARLOUR_ANALYSIS_RATE = "2/h"
    with django_capture_on_commit_callbacks(execute=True):
        assert ann_client.post(_url(finished)).status_code == 302
    rows = _rows(MatchAnalysis.objects.get(match=finished))
    for _ in range(4):  # far past the limit: an existing analysis is not a new request
        with django_capture_on_commit_callbacks(execute=True) as sent:
            assert ann_client.post(_url(finished)).status_code == 302
        assert sent == []
    assert MatchAnalysis.objects.count() == 1
    assert _rows(MatchAnalysis.objects.get()) == rows
    # A second new analysis is within the limit; a third is refused with the wait, and nothing
    # is made or sent for it.
    others = [play_greedy(factories.match_make(players=[ann, bea], seed=s)) for s in (12, 13)]
    with django_capture_on_commit_callbacks(execute=True):
        assert ann_client.post(_url(others[0])).status_code == 302
    with django_capture_on_commit_callbacks(execute=True) as sent:
        refused = ann_client.post(_url(others[1]))
    assert refused.status_code == 429 and sent == []
    assert "Try again in about" in refused.content.decode()
    assert not MatchAnalysis.objects.filter(match=others[1]).exists()
    # The limit is per person: bea may still ask.
    bea_client = factories.client_for(bea)
    with django_capture_on_commit_callbacks(execute=True):
        assert bea_client.post(_url(others[1])).status_code == 302
    assert MatchAnalysis.objects.get(match=others[1]).status == AnalysisStatus.DONE


def test_who_may_ask_and_who_may_see(ann, bea, cal, ann_client, cal_client, client, finished):
    running = factories.match_make(players=[ann, bea], seed=14)
    response = ann_client.post(_url(running))
    assert response.status_code == 409
    assert "once it is over" in response.content.decode()
    assert ann_client.post(_url(running), headers=HTMX).status_code == 409
    assert cal_client.post(_url(finished)).status_code == 403  # a spectator, not a player
    assert client.post(_url(finished))["Location"].startswith("/accounts/login/")
    private = play_greedy(factories.match_make(players=[ann, bea], seed=15, public=False))
    assert cal_client.post(_url(private)).status_code == 404
    assert cal_client.get(_url(private), headers=HTMX).status_code == 404
    assert MatchAnalysis.objects.count() == 0
    # Whoever may see the replay sees the analysis: the spectator too, without a button.
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    analysis_run(match_id=finished.pk)
    panel = cal_client.get(_url(finished), headers=HTMX)
    assert panel.status_code == 200
    assert 'id="analysis-summary"' in panel.content.decode()
    assert 'id="analysis-request"' not in panel.content.decode()
    assert cal_client.get(_url(finished))["Location"] == f"/matches/{finished.pk}/replay/#analysis"


def test_a_running_analysis_polls_and_its_end_reloads_the_page(finished, ann, ann_client):
    analysis = analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    page = ann_client.get(f"/matches/{finished.pk}/replay/").content.decode()
    assert f'hx-get="/matches/{finished.pk}/analysis/?was=pending"' in page
    assert 'id="analysis-progress"' in page and "Waiting for a worker" in page
    analysis_run(match_id=finished.pk)
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE and analysis.percent == 100
    poll = ann_client.get(_url(finished), {"was": "running"}, headers=HTMX)
    assert poll.status_code == 200 and poll["HX-Refresh"] == "true"
    again = ann_client.get(_url(finished), headers=HTMX)
    assert "HX-Refresh" not in again and "hx-trigger" not in again.content.decode()


def test_only_the_decisions_people_made_are_judged(ann, django_capture_on_commit_callbacks):
    """A bot's moves and the moves the turn deadline made for a person are not theirs."""
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            game="faraway",
            num_players=2,
            created_by=ann,
            bots={1: "greedy"},
            deadline_days=1,
            seed=21,
        )
    engine = get_engine(match.game)
    match.refresh_from_db()
    ann_seat = match.seats.get(user=ann)
    late = timezone.now() + timedelta(days=2)
    let_pass = False
    while match.status == Match.Status.ACTIVE:
        assert match.awaiting == [ann_seat.index]
        state = engine.load(match.state)
        with django_capture_on_commit_callbacks(execute=True):
            if not let_pass and match.ply >= 6 and engine.dump(state)["phase"] == "draw":
                let_pass = True  # one whole turn of ann's is played by the deadline's bot
                assert match_deadline_enforce(match=match, now=late) >= 1
            else:
                move = greedy_move(match, state, ann_seat.index)
                move_submit(match=match, seat=ann_seat, move=move, expected_version=match.version)
        match.refresh_from_db()
    assert Move.objects.filter(match=match, auto="deadline").exists()
    assert Move.objects.filter(match=match, seat=1).exists()
    analysis_request(match=match, seats=list(match.seats.all()), user=ann)
    analysis = analysis_run(match_id=match.pk)
    plies = [r[0] for r in _rows(analysis)]
    assert plies == _person_plies(match)
    assert set(
        AnalysedDecision.objects.filter(analysis=analysis).values_list("seat", flat=True)
    ) == {0}
    auto = set(Move.objects.filter(match=match, auto="deadline").values_list("ply", flat=True))
    assert auto and not auto & set(plies)


def test_a_task_run_twice_writes_once_and_a_done_analysis_is_left_alone(finished, ann):
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    tasks.match_analyse.apply((finished.pk, finished.version), throw=True)
    analysis = MatchAnalysis.objects.get()
    rows, ids = _rows(analysis), list(analysis.decisions.values_list("pk", flat=True))
    finished_at = analysis.finished_at
    tasks.match_analyse.apply((finished.pk, finished.version), throw=True)
    analysis.refresh_from_db()
    assert _rows(analysis) == rows and list(analysis.decisions.values_list("pk", flat=True)) == ids
    assert analysis.finished_at == finished_at and analysis.status == AnalysisStatus.DONE
    # A task for a match with no analysis asked for does nothing.
    tasks.match_analyse.apply((finished.pk + 999, 0), throw=True)
    assert MatchAnalysis.objects.count() == 1


def test_a_run_stopped_part_way_resumes_where_it_stopped(finished, bea, ann):
    """What a killed worker leaves (some decisions written, the analysis running) is picked up:
    the rows there stay as they were, the rest are judged, and the whole equals a run in one go."""
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    whole = _rows(analysis_run(match_id=finished.pk))
    analysis = MatchAnalysis.objects.get()
    cut = whole[len(whole) // 2][0]
    kept = list(analysis.decisions.filter(ply__lt=cut).values_list("pk", "ply"))
    analysis.decisions.filter(ply__gte=cut).delete()
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status=AnalysisStatus.RUNNING, decisions_done=len(kept), finished_at=None
    )
    analysis.refresh_from_db()
    assert 0 < analysis.percent < 100
    analysis_run(match_id=finished.pk)
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE
    assert _rows(analysis) == whole
    assert list(analysis.decisions.filter(ply__lt=cut).values_list("pk", "ply")) == kept


def test_a_tiny_slice_analyses_in_many_runs_one_after_another(
    finished, ann_client, analysis_runs, django_capture_on_commit_callbacks, settings
):
    """With a slice of 0 each run judges one decision, then sends its continuation: eagerly,
    the continuation waits for the run to return (the same stack depth every run, no recursion),
    progress climbs by one a run, each decision is written once, and the whole equals a run in
    one go."""
    settings.PARLOUR_ANALYSIS_SLICE_S = 0
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert ann_client.post(_url(finished)).status_code == 302
    assert len(sent) == 1
    analysis = MatchAnalysis.objects.get(match=finished)
    plies = _person_plies(finished)
    assert analysis.status == AnalysisStatus.DONE
    assert analysis.decisions_done == analysis.decisions_total == len(plies) > 1
    assert [r[0] for r in _rows(analysis)] == plies
    assert [done for _, done in analysis_runs] == list(range(len(plies)))
    assert len({depth for depth, _ in analysis_runs}) == 1
    sliced = _rows(analysis)
    analysis.decisions.all().delete()
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.RUNNING)
    assert _rows(analysis_run(match_id=finished.pk)) == sliced


def test_a_slice_stops_after_the_decision_that_spends_it(finished, ann):
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    total = len(_person_plies(finished))
    for done in (1, 2):
        analysis = analysis_run(match_id=finished.pk, slice_s=0)
        assert analysis.status == AnalysisStatus.RUNNING and analysis.finished_at is None
        assert (analysis.decisions_done, analysis.decisions_total) == (done, total)
    analysis = analysis_run(match_id=finished.pk, slice_s=None)
    assert analysis.status == AnalysisStatus.DONE and analysis.decisions_done == total


def test_a_lost_continuation_is_sent_again_when_asked(
    finished, ann, ann_client, django_capture_on_commit_callbacks
):
    """Slices ran, then the continuation was lost (the broker was down when it was sent, say):
    the analysis sits still part way, and asking after ``STALLED_AFTER`` sends it again."""
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    for _ in range(3):
        analysis_run(match_id=finished.pk, slice_s=0)
    analysis = MatchAnalysis.objects.get()
    assert analysis.status == AnalysisStatus.RUNNING and analysis.decisions_done == 3
    with django_capture_on_commit_callbacks(execute=True) as sent:
        ann_client.post(_url(finished))
    assert sent == []  # it moved a moment ago: not lost yet
    MatchAnalysis.objects.update(updated_at=timezone.now() - timedelta(minutes=5))
    assert "Start it again" in ann_client.get(f"/matches/{finished.pk}/replay/").content.decode()
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert ann_client.post(_url(finished)).status_code == 302
    assert len(sent) == 1
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE
    assert [r[0] for r in _rows(analysis)] == _person_plies(finished)


def test_a_continuation_the_broker_refuses_is_carried_on_in_the_same_run(
    finished, ann, settings, caplog
):
    """The broker goes down mid-analysis (a closed port: refused): the continuation cannot be
    sent, so the run goes on with the next slice itself instead of leaving the analysis still."""
    settings.PARLOUR_ANALYSIS_SLICE_S = 0
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    with closed_port() as url, app_on_broker(url):
        tasks.match_analyse.apply((finished.pk, finished.version), throw=True)
    analysis = MatchAnalysis.objects.get()
    assert analysis.status == AnalysisStatus.DONE
    assert [r[0] for r in _rows(analysis)] == _person_plies(finished)
    assert "continuation not sent, going on here" in caplog.text


def test_a_failed_analysis_can_be_asked_for_again(
    finished, ann, ann_client, django_capture_on_commit_callbacks
):
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)
    MatchAnalysis.objects.update(status=AnalysisStatus.FAILED, error="WorkerLostError: gone")
    page = ann_client.get(f"/matches/{finished.pk}/replay/").content.decode()
    assert 'id="analysis-failed"' in page and "Try again" in page
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert ann_client.post(_url(finished)).status_code == 302
    assert len(sent) == 1
    assert MatchAnalysis.objects.get().status == AnalysisStatus.DONE


def test_an_analysis_whose_task_was_lost_is_sent_again_when_asked(
    finished, ann, ann_client, django_capture_on_commit_callbacks
):
    analysis_request(match=finished, seats=list(finished.seats.all()), user=ann)  # never run
    with django_capture_on_commit_callbacks(execute=True) as sent:
        ann_client.post(_url(finished))
    assert sent == []  # still fresh: it is waiting for a worker
    MatchAnalysis.objects.update(updated_at=timezone.now() - timedelta(minutes=5))
    page = ann_client.get(f"/matches/{finished.pk}/replay/").content.decode()
    assert "Start it again" in page
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert ann_client.post(_url(finished)).status_code == 302
    assert len(sent) == 1
    assert MatchAnalysis.objects.get().status == AnalysisStatus.DONE


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_write_one_set_of_rows(ann, bea):
    match = play_greedy(factories.match_make(game="faraway", players=[ann, bea], seed=11))
    analysis_request(match=match, seats=list(match.seats.all()), user=ann)
    factories.at_once([lambda: analysis_run(match_id=match.pk)] * 2)
    analysis = MatchAnalysis.objects.get()
    plies = [r[0] for r in _rows(analysis)]
    assert plies == _person_plies(match)
    assert analysis.status == AnalysisStatus.DONE
    assert analysis.decisions_done == analysis.decisions_total == len(plies)


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_chains_of_continuations_at_once_write_one_set_of_rows(ann, bea, settings):
    """Two deliveries of the task, each a chain of one-decision slices, side by side."""
    settings.PARLOUR_ANALYSIS_SLICE_S = 0
    match = play_greedy(factories.match_make(game="faraway", players=[ann, bea], seed=11))
    analysis_request(match=match, seats=list(match.seats.all()), user=ann)

    def delivery() -> None:
        tasks.match_analyse.apply((match.pk, match.version), throw=True)

    factories.at_once([delivery, delivery])
    analysis = MatchAnalysis.objects.get()
    plies = [r[0] for r in _rows(analysis)]
    assert plies == _person_plies(match)
    assert analysis.status == AnalysisStatus.DONE
    assert analysis.decisions_done == analysis.decisions_total == len(plies)
