"""Words for ``manage.py verify_matches``: one line per match checked
(``games.selectors.chain_checks`` has the data), and the summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from games.selectors.chain_checks import MatchCheck


def _fault_words(check: MatchCheck) -> str:
    fault = str(check.fault)
    if fault == "commitment":
        return _("the seed commitment is not SHA-256(salt || seed)")
    if fault == "log":
        words = _("the match is at ply %(ply)s but its log holds %(entries)s entries") % {
            "ply": check.match_ply,
            "entries": check.entries,
        }
        if check.missing:
            shown = ", ".join(str(ply) for ply in check.missing[:5])
            if len(check.missing) > 5:
                more = len(check.missing) - 5
                shown = _("%(shown)s and %(more)s more") % {"shown": shown, "more": more}
            words += " " + _("(missing ply %(plies)s)") % {"plies": shown}
        return words
    if fault == "chain":
        return _("entry %(ply)s does not replay to its stored hash") % {"ply": check.ply}
    if fault == "head":
        return _("the head hash is not the last link of the chain")
    if fault == "state":
        return _("the state snapshot is not where the log leads")
    return _("its record does not verify: %(problem)s") % {"problem": check.record_problem}


def match_check_line(check: MatchCheck) -> str:
    """``ok    match 12 (faraway, finished, 93 entries)``, or ``FAIL  ...: what differs``."""
    where = _("match %(id)s (%(game)s, %(status)s, %(entries)s entries)") % {
        "id": check.match_id,
        "game": check.game,
        "status": check.status,
        "entries": check.entries,
    }
    if check.ok:
        return f"ok    {where}"  # i18n: data (the column a script reads)
    return f"FAIL  {where}: {_fault_words(check)}"  # i18n: data (the column a script reads)


def checks_summary(checked: int, failed: int, entries: int) -> str:
    """The last line: all held, or how many did not."""
    if failed:
        return _("%(failed)s of %(checked)s match(es) do not hold (%(entries)s entries read).") % {
            "failed": failed,
            "checked": checked,
            "entries": entries,
        }
    return _("All %(checked)s match(es) hold: %(entries)s entries replayed.") % {
        "checked": checked,
        "entries": entries,
    }
