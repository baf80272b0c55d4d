"""The ladder's record (docs/competitions.md, "The ladder's record"): ``/ladder/<game>/record.json``
holds the history of places with each result's finished match record, language-free, and
``python -m competitions.verify_ladder`` replays the places from it; a tampered result, place
or match is caught. A challenge still being played leaves nothing of its match."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from django.conf import settings

from competitions.services.ladder import ladder_challenge, ladder_join, ladder_leave
from competitions.verify_ladder import Differs, ladder_verify
from games.models import Invitation
from games.services import match_resign
from games.services.invitations import invitation_accept
from tests import factories

pytestmark = pytest.mark.django_db


def _played(challenger, target, *, winner) -> int:
    challenge = ladder_challenge(game="faraway", challenger=challenger, target_name=target.username)
    invitation = Invitation.objects.get(match_id=challenge.match_id, user=target)
    invitation_accept(invitation_id=invitation.pk, user=target)
    loser = target if winner == challenger else challenger
    match_resign(match_id=challenge.match_id, user=loser)
    return challenge.match_id


@pytest.fixture
def ladder() -> dict:
    """ann, bea, cal, dan joined; dan beat bea (climbs to 2), cal lost to ann (held), bea left,
    eve joined; eve's challenge of cal is still being played."""
    ann, bea, cal, dan, eve = (factories.user_make(n) for n in ("ann", "bea", "cal", "dan", "eve"))
    for person in (ann, bea, cal, dan):
        ladder_join(game="faraway", user=person)
    _played(dan, bea, winner=dan)
    _played(cal, ann, winner=ann)
    ladder_leave(game="faraway", user=bea)
    ladder_join(game="faraway", user=eve)
    running = ladder_challenge(game="faraway", challenger=eve, target_name="cal")
    invitation = Invitation.objects.get(match_id=running.match_id, user=cal)
    invitation_accept(invitation_id=invitation.pk, user=cal)
    answer = factories.client_for(ann).get("/ladder/faraway/record.json?download=1")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == "attachment; filename=parlour-ladder-faraway.json"
    return json.loads(answer.content)


def test_the_record_holds_the_history_and_the_places_and_verifies(ladder, tmp_path):
    assert [e["kind"] for e in ladder["history"]] == [
        "joined",
        "joined",
        "joined",
        "joined",
        "climbed",
        "held",
        "left",
        "joined",
    ]
    assert ladder["places"] == ["ann", "dan", "cal", "eve"]
    results = [e for e in ladder["history"] if e["match"] is not None]
    assert len(results) == 2 and all(e["match"]["outcome"] for e in results)
    assert ladder_verify(ladder)[-1] == "the 4 places now: they match"
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(ladder))
    done = subprocess.run(
        [sys.executable, "-m", "competitions.verify_ladder", str(path)],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "The ladder's record holds." in done.stdout


def test_the_record_is_language_free_and_shows_no_running_match(ladder):
    body = json.dumps(ladder)
    for words in ("climbed to place", "Joined", "Ladder"):
        assert words not in body
    # eve's challenge of cal is being played: it has no result yet, so nothing of its match
    assert all(e["username"] != "eve" or e["kind"] == "joined" for e in ladder["history"])


def _tampered(ladder: dict, change) -> dict:
    copied = copy.deepcopy(ladder)
    change(copied)
    return copied


def _climb(record: dict) -> dict:
    return next(e for e in record["history"] if e["kind"] == "climbed")


def test_a_changed_result_is_caught(ladder):
    def held_instead(record):
        climb = _climb(record)
        climb.update(kind="held", to_place=climb["from_place"])

    with pytest.raises(Differs, match="the match and the rule give climbed"):
        ladder_verify(_tampered(ladder, held_instead))


def test_a_changed_place_is_caught(ladder):
    with pytest.raises(Differs, match="the places replayed differ"):
        ladder_verify(_tampered(ladder, lambda r: r["places"].reverse()))
    with pytest.raises(Differs, match="recorded climbed from 4 to 1"):
        ladder_verify(_tampered(ladder, lambda r: _climb(r).update(to_place=1)))


def test_a_tampered_match_is_caught(ladder):
    def loser_wins(record):
        standings = _climb(record)["match"]["outcome"]["standings"]
        standings[0]["rank"], standings[1]["rank"] = standings[1]["rank"], standings[0]["rank"]

    with pytest.raises(Differs, match="does not verify"):
        ladder_verify(_tampered(ladder, loser_wins))


def test_a_match_given_to_other_people_is_caught(ladder):
    def reseated(record):
        _climb(record)["match"]["seats"][0]["username"] = "eve"

    with pytest.raises(Differs):
        ladder_verify(_tampered(ladder, reseated))


def test_the_verifier_exit_codes(ladder, tmp_path):
    def run(text: str) -> subprocess.CompletedProcess:
        path = tmp_path / "f.json"
        path.write_text(text)
        return subprocess.run(
            [sys.executable, "-m", "competitions.verify_ladder", str(path)],
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert run(json.dumps(_tampered(ladder, lambda r: r["places"].pop()))).returncode == 1
    assert run('{"format": "something else"}').returncode == 2
    assert run("not json").returncode == 2


def test_an_unknown_game_has_no_record_and_a_visitor_is_sent_to_sign_in(client):
    ann = factories.user_make("ann")
    assert factories.client_for(ann).get("/ladder/chess/record.json").status_code == 404
    assert client.get("/ladder/faraway/record.json").status_code == 302
