"""Ratings as pages show them: "1234?" for a provisional rating, "+14" / "-9" for a change, and
the profile's rating-over-time chart as server-rendered SVG (docs/ratings.md, Display).

Pure, like the rest of the package: plain values in, text out. The SVG scales with its box
(``viewBox``, width 100%), so it reads at 390 px wide, and needs no JavaScript.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

from games.skill import is_provisional


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


@dataclass(frozen=True)
class ChartPoint:
    """The rating shown after one rated match, and when that match finished."""

    when: datetime
    ordinal: int


# The drawing's own units; the browser scales them to the box's width.
# 400 wide: on a 390 px phone the chart gets about 370 px, so its 15-unit labels read at about
# 14 px; the box stops growing at 30rem (about 18 px labels) on a desktop.
WIDTH, HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 50, 8, 14, 28
FONT = 15


def rating_chart_svg(points: Sequence[ChartPoint], *, title: str) -> str:
    """An SVG line chart of ``points`` in order (oldest first), with the lowest and highest
    rating marked on the left and the first and last dates below. "" for no points.

    The points are spaced evenly by match (not by date), so a burst of matches in one day
    stays readable; the dates under the ends say the span.
    """
    if not points:
        return ""
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

    coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5"><title>{escape(str(v))} after match '
        f"{i + 1}, {p.when:%d %b %Y}</title></circle>"
        for i, (p, v) in enumerate(zip(points, values, strict=True))
    )
    first, last = points[0].when, points[-1].when
    label = escape(title)
    return (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'preserveAspectRatio="xMidYMid meet" '
        f'role="img" aria-label="{label}" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f"<title>{label}</title>"
        f'<g class="axis" font-size="{FONT}" fill="currentColor">'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="currentColor" '
        f'stroke-opacity="0.4"/>'
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" '
        f'stroke="currentColor" stroke-opacity="0.4"/>'
        f'<text x="{LEFT - 5}" y="{TOP + 5}" text-anchor="end">{high}</text>'
        f'<text x="{LEFT - 5}" y="{HEIGHT - BOTTOM}" text-anchor="end">{low}</text>'
        f'<text x="{LEFT}" y="{HEIGHT - 6}">{first:%d %b %Y}</text>'
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{last:%d %b %Y}</text>'
        f"</g>"
        f'<polyline class="line" points="{coords}" fill="none" stroke="currentColor" '
        f'stroke-width="2.5" stroke-linejoin="round"/>'
        f'<g class="dots" fill="currentColor">{dots}</g>'
        f"</svg>"
    )
