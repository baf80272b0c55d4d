"""``python -m competitions.verify_league FILE``: check a league's record without the site
(docs/competitions.md, "Records"). Every table's match record is checked by the match
verifier (``games.engines.records.record_verify``: replayed from its seed through the engine,
every hash and the outcome), each table's people against the draw and the schedule, and the
standings recomputed from the matches (``competitions.league_scoring``) and compared with the
record's. Exit status 0 when everything holds, 1 when something differs, 2 for a file that is
no league record.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from competitions.league_scoring import SeatResult, circle_standings
from competitions.schedules import league_schedule
from games.engines.records import record_verify
from games.engines.resignation import is_resignation

FORMAT = "parlour-league-record"


class Differs(Exception):
    """The record does not hold: what differs, in words."""


def _table_results(table: dict[str, Any], people: list[str]) -> list[SeatResult]:
    record = table["match"]
    report = record_verify(record)
    where = f"circle {table['circle'] + 1}, table {table['number'] + 1}"
    if not report.ok:
        raise Differs(f"{where}: the match record does not verify: {report.problem}")
    seated = [seat["username"] for seat in record["seats"]]
    scheduled = [people[label] for label in table["labels"]]
    if seated != scheduled:
        raise Differs(f"{where}: seated {seated}, but the draw and schedule say {scheduled}")
    resigned = {e["seat"] for e in record["entries"] if is_resignation(e["seat"], e["move"])}
    forfeited = {e["seat"] for e in record["entries"] if e.get("auto") == "deadline"}
    return [
        SeatResult(
            user=row_name,
            rank=standing["rank"],
            resigned=index in resigned,
            forfeited=index in forfeited,
        )
        for index, (row_name, standing) in enumerate(
            zip(seated, record["outcome"]["standings"], strict=True)
        )
    ]


def league_verify(record: Any) -> list[str]:
    """Check a parsed league record; the lines of what was checked. Raises ``Differs``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError("not a league record")
    league = record["league"]
    schedule = league_schedule(league["circle_size"], league["seats"])
    lines = [f"league {league['id']}: {league['name']} ({league['game']})"]
    withdrawn = {e["username"] for e in record["entries"] if e["withdrawn"]}
    by_circle: dict[int, list[list[SeatResult]]] = {c: [] for c in range(len(record["draw"]))}
    tables = sorted(record["tables"], key=lambda t: (t["circle"], t["number"]))
    for table in tables:
        expected = list(schedule.tables[table["number"]])
        if table["labels"] != expected:
            raise Differs(
                f"circle {table['circle'] + 1}, table {table['number'] + 1}: labels"
                f" {table['labels']}, the schedule says {expected}"
            )
        if table["match"] is None:
            continue
        if table["match"]["outcome"] is None:
            raise Differs(f"circle {table['circle'] + 1}, table {table['number'] + 1} is not over")
        by_circle[table["circle"]].append(_table_results(table, record["draw"][table["circle"]]))
    played = sum(len(t) for t in by_circle.values())
    lines.append(f"{played} match records verified, each table's people as drawn and scheduled")
    for circle, people in enumerate(record["draw"]):
        rows = circle_standings(people, by_circle[circle], withdrawn=withdrawn & set(people))
        ours = [[r.place, r.user, r.points, r.played, r.won, r.forfeits, r.withdrawn] for r in rows]
        theirs = [
            [
                r["place"],
                r["username"],
                r["points"],
                r["played"],
                r["won"],
                r["forfeits"],
                r["withdrawn"],
            ]
            for r in record["standings"][circle]
        ]
        if ours != theirs:
            raise Differs(
                f"circle {circle + 1}: the standings recomputed from the matches differ from"
                f" the record's:\n  recomputed {ours}\n  recorded   {theirs}"
            )
    lines.append(f"standings of {len(record['draw'])} circle(s) recomputed: they match")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m competitions.verify_league FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as handle:
            record = json.loads(handle.read())
        lines = league_verify(record)
    except Differs as exc:
        print(f"DOES NOT HOLD: {exc}")
        return 1
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        print(f"Not a league record: {type(exc).__name__}: {exc}")
        return 2
    for line in lines:
        print(f"ok: {line}")
    print("The league's record holds.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
