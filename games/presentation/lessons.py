"""The lessons in words (docs/lessons.md): a lesson's page on the real table, the engine's
refusals said to a learner, stars, the Learn page's lists and the staff's figures."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.lessons import Lesson, games, lessons_for
from games.logs import LogEntry
from games.presentation import table_build
from games.presentation.common import LogLine
from games.presentation.reasons import reason_words

if TYPE_CHECKING:
    from games.selectors.lessons import StepFigures, WeekFigures

# The lesson's other seats, as the table and its log name them: the Faraway Tree's children
# and friends, named as printed. The learner is "You" (``learner_names``).
OTHER_NAMES = ("Jo", "Bessie", "Fanny", "Dick", "Silky", "Connie")  # i18n: data
MAX_STARS = 3
# The table's log lines name a seat in the third person; in English the learner's, named
# "You", read in the second ("You was dealt" is "You were dealt"). Other languages name the
# learner with words that read in the third person (their catalogues' "You" in this context).
_SECOND_PERSON = (
    (re.compile(r"^You was "), "You were "),  # i18n: data
    (re.compile(r"^You has played their "), "You have played your "),  # i18n: data
    (re.compile(r"^You has "), "You have "),  # i18n: data
    (re.compile(r"^(You .*) and wins!$"), r"\1 and win!"),  # i18n: data
    (re.compile(r"You\u2019s |You's "), "your "),  # i18n: data
    (re.compile(r": You misses "), ": you miss "),  # i18n: data
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
    reason: Mapping[str, Any] | None = None
    ok: bool | None = None
    stars: int = 0  # earned, once finished


def learner_name() -> str:
    """The learner's seat as the table and its log name it: "You"."""
    return pgettext("the learner's seat, named in a lesson's log", "You")


def learner_names(count: int) -> list[str]:
    return [learner_name(), *OTHER_NAMES[: count - 1]]


def learner_reason(reason: Mapping[str, Any] | None, names: list[str]) -> str:
    """The engine's refusal said to a learner: the seats it mentions named instead of
    numbered ("waiting for seat(s) 0, 1" is "waiting for you and Jo to vote")."""

    def name(seat: int) -> str:
        if seat == 0:
            return pgettext("voter", "you")  # "waiting for you and Jo to vote"
        return names[seat] if 0 <= seat < len(names) else str(seat)

    return reason_words(reason, name)


def learner_answer(at: LessonAt, names: list[str]) -> str:
    """The answer to the learner's last try in the reader's language: the words (a step's
    hint, say) and, when the engine refused the try, its reason."""
    said = [_(at.answer) if at.answer else "", learner_reason(at.reason, names)]
    return " ".join(text for text in said if text)


def worded(lesson: Lesson) -> Lesson:
    """``lesson`` with its title in the reader's language (its steps' words are translated
    where they are shown)."""
    return replace(lesson, title=_(lesson.title))


def stars_text(stars: int) -> str:
    """Stars as the eye reads them: "★★☆"."""
    return "\u2605" * stars + "\u2606" * (MAX_STARS - stars)


def stars_label(stars: int) -> str:
    if not stars:
        return _("not finished yet")
    return ngettext("%(stars)d of %(most)d star", "%(stars)d of %(most)d stars", MAX_STARS) % {
        "stars": stars,
        "most": MAX_STARS,
    }


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
    english = (get_language() or "en").startswith("en")
    if english:
        table["events"] = [_second_person(line) for line in table["events"]]
    for player in table.get("players", []):
        if player.get("index") == 0:
            player["label"] = names[0]  # not "You (you)"
    challenge = table.get("challenge")
    if english and challenge and challenge.get("challenger_name") == names[0]:
        challenge["verb"] = "challenge"  # i18n: data (English only: "You challenge Jo's ...")
    order = lessons_for(lesson.game)
    index = order.index(lesson)
    following = order[index + 1] if index + 1 < len(order) else None
    return {
        "lesson": worded(lesson),
        "game_title": get_engine(lesson.game).title,
        "position": index + 1,
        "count": len(order),
        "step_text": _("Step %(step)s of %(steps)s")
        % {"step": min(at.step + 1, len(lesson.steps)), "steps": len(lesson.steps)},
        "say": "" if finished else _(lesson.steps[at.step].say),
        "answer": learner_answer(at, names),
        "answer_ok": at.ok,
        "finished": finished,
        "stars": at.stars,
        "stars_text": stars_text(at.stars),
        "stars_label": stars_label(at.stars),
        "tries_text": ngettext(
            "%(tries)d move, the target %(target)d",
            "%(tries)d moves, the target %(target)d",
            at.tries,
        )
        % {"tries": at.tries, "target": lesson.target},
        "next_lesson": worded(following) if following else None,
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
                    "lesson": worded(lesson),
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
    return ngettext("%(done)d of %(count)d lesson", "%(done)d of %(count)d lessons", count) % {
        "done": done,
        "count": count,
    }


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
                        "lesson": _(lesson.title),
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
    return f"{round(100 * part / whole)}%" if whole else _("none yet")
