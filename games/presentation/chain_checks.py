"""Words for ``manage.py verify_matches``: one line per match checked
(``games.selectors.chain_checks`` has the data), and the summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.selectors.chain_checks import MatchCheck


def _fault_words(check: MatchCheck) -> str:
    fault = str(check.fault)
    if fault == "commitment":
        return "the seed commitment is not SHA-256(salt || seed)"
    if fault == "log":
        words = f"the match is at ply {check.match_ply} but its log holds {check.entries} entries"
        if check.missing:
            shown = ", ".join(str(ply) for ply in check.missing[:5])
            more = f" and {len(check.missing) - 5} more" if len(check.missing) > 5 else ""
            words += f" (missing ply {shown}{more})"
        return words
    if fault == "chain":
        return f"entry {check.ply} does not replay to its stored hash"
    if fault == "head":
        return "the head hash is not the last link of the chain"
    if fault == "state":
        return "the state snapshot is not where the log leads"
    return f"its record does not verify: {check.record_problem}"


def match_check_line(check: MatchCheck) -> str:
    """``ok    match 12 (faraway, finished, 93 entries)``, or ``FAIL  ...: what differs``."""
    where = f"match {check.match_id} ({check.game}, {check.status}, {check.entries} entries)"
    if check.ok:
        return f"ok    {where}"
    return f"FAIL  {where}: {_fault_words(check)}"


def checks_summary(checked: int, failed: int, entries: int) -> str:
    """The last line: all held, or how many did not."""
    if failed:
        return f"{failed} of {checked} match(es) do not hold ({entries} entries read)."
    return f"All {checked} match(es) hold: {entries} entries replayed."
