"""The finished table: every hand shown once (the seat's own among them, not again as "Your
hand"), and a player's way to the analysis ("Analyse this match"), which a spectator is not
offered; the analysis form says how long it will take from the match's size."""

from __future__ import annotations

import re

import pytest

from games.engines import get_engine
from games.models import Match, MatchAnalysis
from games.presentation.analysis import duration_text
from games.selectors.analysis import analysis_decision_plies
from games.services.analysis import analysis_estimate_s
from tests import factories
from tests.analysis_matches import play_greedy

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _budget(settings) -> None:
    settings.PARLOUR_ANALYSIS_BUDGET_MS = 300.0
    settings.PARLOUR_ANALYSIS_ITERATIONS = 4


def _finished(game: str, players: list) -> Match:
    return play_greedy(factories.match_make(game=game, players=players, seed=11))


def _cards_in(page: str, label: str) -> list[str]:
    """The cards of the final-hand row labelled ``label``."""
    start = page.index(f'aria-label="{label}"')
    ends = [page.find(end, start + 1) for end in ('class="row final-hand"', "</section>")]
    return re.findall(r'data-card="([^"]+)"', page[start : min(e for e in ends if e > 0)])


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_the_finished_table_shows_each_hand_once_and_offers_the_analysis(
    game, ann, bea, cal, ann_client, cal_client
):
    match = _finished(game, [ann, bea])
    assert match.status == Match.Status.FINISHED
    state = get_engine(game).load(match.state)
    own = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="hand"' not in own  # no "Your hand" under the board once it is over
    assert own.count('aria-label="ann\'s last hand"') == 1
    assert own.count('aria-label="bea\'s last hand"') == 1
    final = get_engine(game).view(state, 0)["hands"][0]
    assert sorted(_cards_in(own, "ann's last hand")) == sorted(final)
    # The player may ask for the analysis from the table itself; a spectator may not.
    assert 'id="table-analysis"' in own
    assert f'action="/matches/{match.pk}/analysis/"' in own
    assert ">Analyse this match</button>" in own
    watched = cal_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="table-analysis"' not in watched


def test_the_tables_analysis_button_asks_for_it_and_leads_to_its_panel(
    ann, bea, ann_client, django_capture_on_commit_callbacks
):
    match = _finished("faraway", [ann, bea])
    with django_capture_on_commit_callbacks(execute=False):
        response = ann_client.post(f"/matches/{match.pk}/analysis/")
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/replay/#analysis"
    assert MatchAnalysis.objects.filter(match=match).exists()


def test_a_running_match_offers_no_analysis(ann, bea, ann_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=11)
    assert 'id="table-analysis"' not in ann_client.get(f"/matches/{match.pk}/").content.decode()


def test_the_estimate_grows_with_the_decisions_and_the_form_words_it(ann, bea, cal, ann_client):
    assert analysis_estimate_s(10) == pytest.approx(3.0)  # 10 decisions of 300 ms
    assert analysis_estimate_s(80) > analysis_estimate_s(40) > analysis_estimate_s(10)
    two = _finished("gulliver", [ann, bea])
    three = _finished("gulliver", [ann, bea, cal])
    small, large = (len(analysis_decision_plies(m.pk)) for m in (two, three))
    assert 0 < small < large, "three people make more decisions than two"
    for match, decisions in ((two, small), (three, large)):
        panel = ann_client.get(
            f"/matches/{match.pk}/analysis/", headers={"HX-Request": "true"}
        ).content.decode()
        words = duration_text(decisions * 0.3)
        assert f"It takes a worker {words}." in panel
        assert "a minute or two" not in panel
