"""The lessons in words (docs/lessons.md): a lesson's page on the real table, the engine's
refusals said to a learner, stars, the Learn page's lists and the staff's figures."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.engines import get_engine
from games.lessons import Lesson, games, lessons_for
from games.logs import LogEntry
from games.presentation import table_build
from games.presentation.common import LogLine, and_join

if TYPE_CHECKING:
    from games.selectors.lessons import StepFigures, WeekFigures

# The learner and the lesson's other seats, as the table and its log name them.
LEARNER_NAMES = ("You", "Jo", "Bessie", "Fanny", "Dick", "Silky", "Connie")
MAX_STARS = 3
_WAITING = re.compile(r"waiting for seat\(s\) ([\d, ]+)\.")
_SEAT_TO = re.compile(r"seat (\d+) is to (\w+)\.")
# The table's log lines name a seat in the third person; the learner's, named "You", read
# in the second ("You was dealt" is "You were dealt").
_SECOND_PERSON = (
    (re.compile(r"^You was "), "You were "),
    (re.compile(r"^You has played their "), "You have played your "),
    (re.compile(r"^You has "), "You have "),
    (re.compile(r"^(You .*) and wins!$"), r"\1 and win!"),
    (re.compile(r"You\u2019s |You's "), "your "),
    (re.compile(r": You misses "), ": you miss "),
)


@dataclass(frozen=True)
class LessonAt:
    """Where a run of ``lesson`` stands, as the page shows it: the step reached, the learner's
    ``view`` (``games.lessons.lesson_view``), the ``log`` of the run (``Run.log``), the tries
    so far, and the answer to the last try (``ok`` ``None``: no try on this page)."""

    lesson: Lesson
    step: int
    view: dict[str, Any]
    log: tuple[tuple[int | None, tuple[dict[str, Any], ...]], ...]
    tries: int
    answer: str = ""
    ok: bool | None = None
    stars: int = 0  # earned, once finished


def learner_names(count: int) -> list[str]:
    return list(LEARNER_NAMES[:count])


def learner_reason(words: str, names: list[str]) -> str:
    """The engine's refusal said to a learner: the seats it numbers named instead ("waiting for
    seat(s) 0, 1" is "waiting for you and Jo to vote")."""

    def name(seat: str) -> str:
        index = int(seat)
        return "you" if index == 0 else names[index] if index < len(names) else f"seat {seat}"

    def waiting(found: re.Match[str]) -> str:
        seats = [s.strip() for s in found.group(1).split(",") if s.strip()]
        return f"waiting for {and_join([name(s) for s in seats])} to vote."

    words = _WAITING.sub(waiting, words)
    return _SEAT_TO.sub(lambda m: f"{name(m.group(1))} is to {m.group(2)}.", words)


def stars_text(stars: int) -> str:
    """Stars as the eye reads them: "★★☆"."""
    return "\u2605" * stars + "\u2606" * (MAX_STARS - stars)


def stars_label(stars: int) -> str:
    return f"{stars} of {MAX_STARS} stars" if stars else "not finished yet"


def lesson_page(at: LessonAt) -> dict[str, Any]:
    """The context of a lesson's page and its ``#table`` partial."""
    lesson = at.lesson
    names = learner_names(lesson.num_players)
    # Each entry its own ply (the deal's is 0), so each line's key is its own: the page tells
    # each new line once (static/js/announce.js), as on a match's table.
    log = [LogEntry(seat, list(events), ply=ply) for ply, (seat, events) in enumerate(at.log)]
    finished = at.step >= len(lesson.steps)
    # A finished lesson's table stays as it was left, with nothing more to click.
    table = table_build(lesson.game, view=at.view, names=names, log=log, interactive=not finished)
    _reword_whys(table, names)
    table["events"] = [_second_person(line) for line in table["events"]]
    for player in table.get("players", []):
        if player.get("index") == 0:
            player["label"] = LEARNER_NAMES[0]  # not "You (you)"
    challenge = table.get("challenge")
    if challenge and challenge.get("challenger_name") == LEARNER_NAMES[0]:
        challenge["verb"] = "challenge"  # "You challenge Jo's ..."
    order = lessons_for(lesson.game)
    index = order.index(lesson)
    following = order[index + 1] if index + 1 < len(order) else None
    return {
        "lesson": lesson,
        "game_title": get_engine(lesson.game).title,
        "position": index + 1,
        "count": len(order),
        "step_text": f"Step {min(at.step + 1, len(lesson.steps))} of {len(lesson.steps)}",
        "say": "" if finished else lesson.steps[at.step].say,
        "answer": learner_reason(at.answer, names),
        "answer_ok": at.ok,
        "finished": finished,
        "stars": at.stars,
        "stars_text": stars_text(at.stars),
        "stars_label": stars_label(at.stars),
        "tries_text": f"{at.tries} move{'s' if at.tries != 1 else ''}, the target {lesson.target}",
        "next_lesson": following,
        "table": table,
        "version": at.step,
        # games/_move.html posts the version the page showed: a lesson's is its step.
        "match": {"version": at.step},
    }


def _second_person(line: str) -> str:
    said = line
    for pattern, replacement in _SECOND_PERSON:
        said = pattern.sub(replacement, said)
    if isinstance(line, LogLine):  # its key and its reader kept
        return LogLine.keyed(said, line.key, line.own)
    return said


def _reword_whys(table: dict[str, Any], names: list[str]) -> None:
    """The reasons a click on a still card gives, said to a learner too."""
    for slot in [*table.get("hand", []), *table.get("discards", [])]:
        if slot.why:
            slot.why = learner_reason(slot.why, names)
    if table.get("pack_why"):
        table["pack_why"] = learner_reason(table["pack_why"], names)


def learn_games(stars: dict[tuple[str, str], int]) -> list[dict[str, Any]]:
    """Each game's lessons in teaching order with the stars earned, the first not finished
    marked next, and how many are finished ("3 of 7 lessons")."""
    out = []
    for game in games():
        rows, marked = [], False
        for lesson in lessons_for(game):
            earned = stars.get((game, lesson.slug), 0)
            is_next = not earned and not marked
            marked = marked or is_next
            rows.append(
                {
                    "lesson": lesson,
                    "stars": earned,
                    "stars_text": stars_text(earned),
                    "stars_label": stars_label(earned),
                    "next": is_next,
                }
            )
        done = sum(1 for row in rows if row["stars"])
        out.append(
            {
                "game": game,
                "title": get_engine(game).title,
                "lessons": rows,
                "done": done,
                "progress": progress_text(done, len(rows)),
                "all_done": done == len(rows),
            }
        )
    return out


def progress_text(done: int, count: int) -> str:
    return f"{done} of {count} lessons"


def step_figure_rows(found: dict[tuple[str, str, int], StepFigures]) -> list[dict[str, Any]]:
    """Every lesson step in teaching order with its starts and finishes (0 when none yet) and
    the share finished."""
    rows = []
    for game in games():
        title = get_engine(game).short_title
        for lesson in lessons_for(game):
            for step in range(len(lesson.steps)):
                figures = found.get((game, lesson.slug, step))
                started = figures.started if figures else 0
                finished = figures.finished if figures else 0
                rows.append(
                    {
                        "game": title,
                        "lesson": lesson.title,
                        "step": step + 1,
                        "started": started,
                        "finished": finished,
                        "share": share_text(finished, started),
                    }
                )
    return rows


def week_figure_rows(weeks: list[WeekFigures]) -> list[dict[str, Any]]:
    return [
        {
            "week_of": week.week_of,
            "joined": week.joined,
            "played": week.played,
            "share": share_text(week.played, week.joined),
        }
        for week in weeks
    ]


def share_text(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "none yet"
