"""``python -m competitions.verify_ladder FILE``: check a ladder's record without the site
(docs/competitions.md, "The ladder's record"). The places are replayed from an empty ladder
through the record's history: a join puts the person at the bottom, a leave closes up the places
below, and each result is checked by the match verifier (``games.engines.records.record_verify``:
replayed from its seed, every hash and the outcome), its two people against the challenge, and
its effect recomputed by the ladder's own rule (``competitions.ladder_rules.result_shift``) from
the places of that moment. Every place the record states, and the places at the end, must be
the replay's. Exit status 0 when everything holds, 1 when something differs, 2 for a file that
is no ladder record.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from competitions.ladder_rules import result_shift
from games.engines.records import record_verify

FORMAT = "parlour-ladder-record"


class Differs(Exception):
    """The record does not hold: what differs, in words."""


def _place(places: list[str], name: str, where: str) -> int:
    if name not in places:
        raise Differs(f"{where}: {name} is not on the ladder then")
    return places.index(name) + 1


def _result(event: dict[str, Any], places: list[str], where: str) -> None:
    """Check one challenge's result against its match and the rule; move the places."""
    record = event["match"]
    if record is None:
        raise Differs(f"{where}: a result without its match's record")
    report = record_verify(record)
    if not report.ok:
        raise Differs(f"{where}: the match record does not verify: {report.problem}")
    challenger, challenged = event["username"], event["other"]
    seated = [seat["username"] for seat in record["seats"]]
    if sorted(seated) != sorted([challenger, challenged]):
        raise Differs(f"{where}: the match seats {seated}, not {challenger} and {challenged}")
    ranks = dict(zip(seated, (s["rank"] for s in record["outcome"]["standings"]), strict=True))
    won = ranks[challenger] < ranks[challenged]
    mine = _place(places, challenger, where)
    theirs = _place(places, challenged, where)
    shift = result_shift(challenger_won=won, challenger_place=mine, challenged_place=theirs)
    kind = "climbed" if shift else "held"
    to_place = shift.first if shift else mine
    if (event["kind"], event["from_place"], event["to_place"]) != (kind, mine, to_place):
        raise Differs(
            f"{where}: recorded {event['kind']} from {event['from_place']} to"
            f" {event['to_place']}; the match and the rule give {kind} from {mine} to {to_place}"
        )
    if shift:
        places.remove(challenger)
        places.insert(shift.first - 1, challenger)


def ladder_verify(record: Any) -> list[str]:
    """Check a parsed ladder record; the lines of what was checked. Raises ``Differs``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError("not a ladder record")
    places: list[str] = []
    results = 0
    for number, event in enumerate(record["history"], start=1):
        where = f"change {number} ({event['kind']} by {event['username']})"
        if event["kind"] == "joined":
            if event["username"] in places:
                raise Differs(f"{where}: already on the ladder")
            places.append(event["username"])
            if event["to_place"] != len(places):
                raise Differs(f"{where}: recorded place {event['to_place']}, not {len(places)}")
        elif event["kind"] == "left":
            place = _place(places, event["username"], where)
            if event["from_place"] != place:
                raise Differs(f"{where}: recorded place {event['from_place']}, not {place}")
            places.remove(event["username"])
        elif event["kind"] in ("climbed", "held"):
            _result(event, places, where)
            results += 1
        else:
            raise ValueError(f"{where}: an unknown kind of change")
    lines = [
        f"ladder of {record['ladder']['game']}: {len(record['history'])} changes replayed",
        f"{results} match records verified, each result as the ladder's rule gives it",
    ]
    if places != record["places"]:
        raise Differs(
            f"the places replayed differ from the record's:\n  replayed {places}\n"
            f"  recorded {record['places']}"
        )
    lines.append(f"the {len(places)} places now: they match")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m competitions.verify_ladder FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as handle:
            record = json.loads(handle.read())
        lines = ladder_verify(record)
    except Differs as exc:
        print(f"DOES NOT HOLD: {exc}")
        return 1
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        print(f"Not a ladder record: {type(exc).__name__}: {exc}")
        return 2
    for line in lines:
        print(f"ok: {line}")
    print("The ladder's record holds.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
