"""The words of ``manage.py verify_matches`` (games.presentation.chain_checks)."""

from __future__ import annotations

from games.presentation.chain_checks import checks_summary, match_check_line
from games.selectors.chain_checks import Fault, MatchCheck

HELD = MatchCheck(match_id=7, game="faraway", status="finished", match_ply=93, entries=93)


def test_a_match_that_holds_is_one_ok_line():
    assert match_check_line(HELD) == "ok    match 7 (faraway, finished, 93 entries)"


def test_each_fault_names_what_differs():
    def line(**fault) -> str:
        return match_check_line(MatchCheck(7, "gulliver", "active", 40, 33, **fault))

    where = "FAIL  match 7 (gulliver, active, 33 entries): "
    assert line(fault=Fault.CHAIN, ply=12) == where + "entry 12 does not replay to its stored hash"
    assert line(fault=Fault.COMMITMENT).endswith("the seed commitment is not SHA-256(salt || seed)")
    assert line(fault=Fault.HEAD).endswith("the head hash is not the last link of the chain")
    assert line(fault=Fault.STATE).endswith("the state snapshot is not where the log leads")
    assert line(fault=Fault.RECORD, record_problem="Outcome: scores differ").endswith(
        "its record does not verify: Outcome: scores differ"
    )
    missing = line(fault=Fault.LOG, missing=(3, 4, 5, 6, 7, 8, 9))
    assert missing.endswith(
        "the match is at ply 40 but its log holds 33 entries (missing ply 3, 4, 5, 6, 7 and 2 more)"
    )
    assert line(fault=Fault.LOG).endswith("at ply 40 but its log holds 33 entries")


def test_the_summary():
    assert checks_summary(3, 0, 120) == "All 3 match(es) hold: 120 entries replayed."
    assert checks_summary(3, 1, 120) == "1 of 3 match(es) do not hold (120 entries read)."
