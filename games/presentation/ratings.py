"""Ratings as pages show them: "1234?" for a provisional rating, "+14" / "-9" for a change, and
the profile's rating-over-time chart, drawn as SVG by ``games/_rating_chart.html`` from the
coordinates worked out here (docs/ratings.md, Display).

Pure, like the rest of the package: plain values in, text and numbers out; it loads no
framework at all. The SVG scales with its box (``viewBox``, width 100%), so it reads at 390 px
wide, and needs no JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games.skill import is_provisional

if TYPE_CHECKING:  # the selectors' dataclasses, for the hints only
    from games.selectors.ratings import ChartPoint, GameRating, SeatChange


def rating_text(ordinal: int, rated_matches: int) -> str:
    """The conservative rating as a whole number, with "?" while it is provisional."""
    return f"{ordinal}?" if is_provisional(rated_matches) else str(ordinal)


def change_text(delta: int) -> str:
    """A rating change: "+14", "-9", "+0"."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return str(delta)
    return "+0"


# The drawing's own units; the browser scales them to the box's width.
# 400 wide: on a 390 px phone the chart gets about 370 px, so its 15-unit labels read at about
# 14 px; the box stops growing at 30rem (about 18 px labels) on a desktop.
WIDTH, HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 50, 8, 14, 28
FONT = 15


@dataclass(frozen=True)
class ChartDot:
    x: str  # coordinates as printed, one decimal
    y: str
    ordinal: int
    number: int  # the rated match it follows, from 1
    when: datetime


@dataclass(frozen=True)
class RatingChart:
    """What ``games/_rating_chart.html`` draws: a line over the dots, the lowest and highest
    rating on the left and the first and last dates below, in the drawing's units."""

    title: str
    coords: str  # the polyline's "x,y x,y ..."
    dots: list[ChartDot]
    high: int
    low: int
    first: datetime
    last: datetime
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT  # the plot's right edge (x)
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM  # the plot's bottom edge (y)
    font: int = FONT
    label_x: int = LEFT - 5
    label_top: int = TOP + 5
    date_y: int = HEIGHT - 6


def rating_chart(points: Sequence[ChartPoint], *, title: str) -> RatingChart | None:
    """A line chart of ``points`` in order (oldest first); ``None`` for no points.

    The points are spaced evenly by match (not by date), so a burst of matches in one day
    stays readable; the dates under the ends say the span.
    """
    if not points:
        return None
    values = [p.ordinal for p in points]
    low, high = min(values), max(values)
    if high - low < 10:  # a flat line still needs a scale
        middle = (high + low) // 2
        low, high = middle - 5, middle + 5
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (span_x * i / (len(points) - 1) if len(points) > 1 else span_x / 2)

    def y(value: int) -> float:
        return TOP + span_y * (high - value) / (high - low)

    dots = [
        ChartDot(f"{x(i):.1f}", f"{y(p.ordinal):.1f}", p.ordinal, i + 1, p.when)
        for i, p in enumerate(points)
    ]
    return RatingChart(
        title=title,
        coords=" ".join(f"{d.x},{d.y}" for d in dots),
        dots=dots,
        high=high,
        low=low,
        first=points[0].when,
        last=points[-1].when,
    )


@dataclass(frozen=True)
class RatingLine:
    """A person's rating at one game as the profile shows it."""

    game: str
    title: str
    rating: str  # "1234?"
    matches: int
    provisional: bool
    changes: list[str]  # the latest few, newest first: "+14", "-9"
    chart: RatingChart | None


def rating_lines(ratings: Sequence[GameRating], *, owner: str) -> list[RatingLine]:
    """A profile's ratings (``profile_ratings``) in words, each with its chart."""
    return [
        RatingLine(
            game=r.game,
            title=r.title,
            rating=rating_text(r.ordinal, r.matches),
            matches=r.matches,
            provisional=r.provisional,
            changes=[change_text(d) for d in r.deltas],
            chart=rating_chart(
                r.points, title=_("%(name)s's %(game)s rating") % {"name": owner, "game": r.title}
            ),
        )
        for r in ratings
    ]


@dataclass(frozen=True)
class SeatChangeLine:
    """One seat's change on a finished table: "+14", now "1114?"."""

    seat: int
    name: str
    change: str
    delta: int
    rating: str


def seat_change_lines(changes: Mapping[int, SeatChange], names: list[str]) -> list[SeatChangeLine]:
    """A rated table's changes (``match_rating_changes``), by seat."""
    return [
        SeatChangeLine(
            seat=c.seat,
            name=names[c.seat],
            change=change_text(c.delta),
            delta=c.delta,
            rating=rating_text(c.ordinal, c.matches),
        )
        for _, c in sorted(changes.items())
    ]
