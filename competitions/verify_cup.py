"""``python -m competitions.verify_cup FILE``: check a cup's record without the site
(docs/competitions.md, "Cups"). Every table's match record is checked by the match verifier
(``games.engines.records.record_verify``: replayed from its seed through the engine, every
hash and the outcome) and its seated people against the round's table; nobody sits twice in a
round; the standings are recomputed from the matches' ranks, deadline moves, resignations and
the byes (``competitions.cup_scoring``) and compared with the record's. Exit status 0 when
everything holds, 1 when something differs, 2 for a file that is no cup record.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from competitions.cup_scoring import cup_standings
from competitions.league_scoring import SeatResult
from competitions.verify_league import Differs
from games.engines.records import record_verify
from games.engines.resignation import is_resignation

FORMAT = "parlour-cup-record"


def _table_results(table: dict[str, Any]) -> list[SeatResult]:
    record = table["match"]
    where = f"round {table['round']}, table {table['number']}"
    report = record_verify(record)
    if not report.ok:
        raise Differs(f"{where}: the match record does not verify: {report.problem}")
    if record["outcome"] is None:
        raise Differs(f"{where} is not over")
    seated = [seat["username"] for seat in record["seats"]]
    if seated != table["people"]:
        raise Differs(f"{where}: seated {seated}, but the round's table says {table['people']}")
    resigned = {e["seat"] for e in record["entries"] if is_resignation(e["seat"], e["move"])}
    forfeited = {e["seat"] for e in record["entries"] if e.get("auto") == "deadline"}
    return [
        SeatResult(
            user=name,
            rank=standing["rank"],
            resigned=index in resigned,
            forfeited=index in forfeited,
        )
        for index, (name, standing) in enumerate(
            zip(seated, record["outcome"]["standings"], strict=True)
        )
    ]


def cup_verify(record: Any) -> list[str]:
    """Check a parsed cup record; the lines of what was checked. Raises ``Differs``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError("not a cup record")
    cup = record["cup"]
    lines = [f"cup {cup['id']}: {cup['name']} ({cup['game']})"]
    entrants = list(record["entrants"])
    withdrawn = {e["username"] for e in record["entries"] if e["withdrawn"]}
    results: list[list[SeatResult]] = []
    byes: list[str] = []
    for round_ in sorted({t["round"] for t in record["tables"]}):
        seated = Counter(
            person for t in record["tables"] if t["round"] == round_ for person in t["people"]
        )
        twice = sorted(person for person, times in seated.items() if times > 1)
        if twice:
            raise Differs(f"round {round_}: {', '.join(twice)} sit at two tables")
        strangers = sorted(set(seated) - set(entrants))
        if strangers:
            raise Differs(f"round {round_}: {', '.join(strangers)} did not enter")
    for table in sorted(record["tables"], key=lambda t: (t["round"], t["number"])):
        if table["dropped"] == "bye":
            byes.extend(table["people"])
        elif table["match"] is not None:
            results.append(_table_results(table))
    lines.append(
        f"{len(results)} match records verified, each table's people as the round paired them"
    )
    recomputed = cup_standings(entrants, results, byes, withdrawn & set(entrants))
    ours = [
        (r.place, r.user, str(r.points), str(r.buchholz), r.firsts, r.played, r.byes)
        for r in recomputed
    ]
    ours = [(*line, r.forfeits, r.withdrawn) for line, r in zip(ours, recomputed, strict=True)]
    keys = ("place", "username", "points", "buchholz", "won", "played", "byes", "forfeits")
    theirs = [tuple(r[key] for key in (*keys, "withdrawn")) for r in record["standings"]]
    if ours != theirs:
        raise Differs(
            "the standings recomputed from the matches differ from the record's:\n"
            f"  recomputed {ours}\n  recorded   {theirs}"
        )
    lines.append(f"standings of {len(ours)} people recomputed: they match")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m competitions.verify_cup FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as handle:
            record = json.loads(handle.read())
        lines = cup_verify(record)
    except Differs as exc:
        print(f"DOES NOT HOLD: {exc}")
        return 1
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        print(f"Not a cup record: {type(exc).__name__}: {exc}")
        return 2
    for line in lines:
        print(f"ok: {line}")
    print("The cup's record holds.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
