"""Draws the installable app's icons (``static/icons/*.png``) from the favicon's shape.

``python tools/draw_icons.py`` writes ``icon-192.png`` and ``icon-512.png`` (the favicon's
tilted card with its "P", on no background) and ``maskable-192.png`` and ``maskable-512.png``
(the same on the felt green to the edges, the card inside the middle 80% a system may cut to
a circle). The card's place, corner, border, tilt and colours are read from
``static/favicon.svg``; the "P", a font glyph there, is drawn here from bars and arcs. Only the
standard library (zlib for PNG): Pillow is not one of the project's packages. The PNGs are
committed; run this again only when the favicon changes.
"""

from __future__ import annotations

import math
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAVICON = ROOT / "static" / "favicon.svg"
STYLESHEET = ROOT / "static" / "css" / "parlour.css"
OUT = ROOT / "static" / "icons"
SIZES = (192, 512)
SAMPLES = 4  # per side of a pixel: 16 samples smooth the edges
Colour = tuple[int, int, int]


def _hex(colour: str) -> Colour:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


@dataclass(frozen=True)
class Card:
    """The favicon's rectangle, in its 64-unit box."""

    x: float
    y: float
    width: float
    height: float
    radius: float
    border: float
    angle: float  # degrees
    cx: float
    cy: float
    fill: Colour
    stroke: Colour
    letter: Colour


def card_read(svg: str) -> Card:
    rect = re.search(r"<rect ([^>]*)/>", svg).group(1)  # type: ignore[union-attr]

    def attr(name: str, text: str = rect) -> str:
        return re.search(rf'\b{name}="([^"]*)"', text).group(1)  # type: ignore[union-attr]

    angle, cx, cy = map(float, re.search(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", rect).groups())  # type: ignore[union-attr]
    text = re.search(r"<text ([^>]*)>", svg).group(1)  # type: ignore[union-attr]
    return Card(
        x=float(attr("x")),
        y=float(attr("y")),
        width=float(attr("width")),
        height=float(attr("height")),
        radius=float(attr("rx")),
        border=float(attr("stroke-width")),
        angle=angle,
        cx=cx,
        cy=cy,
        fill=_hex(attr("fill")),
        stroke=_hex(attr("stroke")),
        letter=_hex(attr("fill", text)),
    )


def _in_rounded(px: float, py: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if px < x0 or px > x1 or py < y0 or py > y1:
        return False
    dx = max(x0 + r - px, 0.0, px - (x1 - r))
    dy = max(y0 + r - py, 0.0, py - (y1 - r))
    return dx * dx + dy * dy <= r * r


def _in_d(
    px: float, py: float, left: float, top: float, bottom: float, cx: float, rx: float
) -> bool:
    """A "D": a bar from ``left`` to ``cx`` and a half ellipse right of it."""
    if py < top or py > bottom or px < left:
        return False
    if px <= cx:
        return True
    cy, ry = (top + bottom) / 2, (bottom - top) / 2
    return ((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 <= 1


def _in_letter(px: float, py: float) -> bool:
    """A bold serif "P" where the favicon's text puts it (cap height 23 to 42)."""
    stem = 24.0 <= px <= 29.5 and 23.0 <= py <= 42.0
    foot = 21.5 <= px <= 32.5 and 40.3 <= py <= 42.0
    head = 21.5 <= px <= 29.5 and 23.0 <= py <= 24.6
    outer = _in_d(px, py, 24.0, 23.0, 35.0, 32.0, 7.0)
    inner = _in_d(px, py, 29.5, 25.8, 32.2, 32.0, 2.8)
    return stem or foot or head or (outer and not inner)


def sample(card: Card, px: float, py: float) -> Colour | None:
    """The favicon's colour at ``(px, py)`` of its 64-unit box (``None``: nothing there)."""
    if _in_letter(px, py):
        return card.letter
    turn = math.radians(-card.angle)  # into the card's own upright frame
    dx, dy = px - card.cx, py - card.cy
    ux = card.cx + dx * math.cos(turn) - dy * math.sin(turn)
    uy = card.cy + dx * math.sin(turn) + dy * math.cos(turn)
    half = card.border / 2
    x0, y0 = card.x, card.y
    x1, y1 = card.x + card.width, card.y + card.height
    if _in_rounded(ux, uy, x0 + half, y0 + half, x1 - half, y1 - half, card.radius - half):
        return card.fill
    if _in_rounded(ux, uy, x0 - half, y0 - half, x1 + half, y1 + half, card.radius + half):
        return card.stroke
    return None


def render(card: Card, size: int, background: Colour | None, scale: float) -> bytes:
    """RGBA rows of a ``size`` square icon: 64 favicon units span ``scale`` of it, centred on
    the card's centre."""
    units = 64 / (size * scale)
    rows = []
    step = 1 / SAMPLES
    for y in range(size):
        row = bytearray([0])  # PNG filter: none
        for x in range(size):
            totals = [0.0, 0.0, 0.0, 0.0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    fx = (x + (sx + 0.5) * step - size / 2) * units + card.cx
                    fy = (y + (sy + 0.5) * step - size / 2) * units + card.cy
                    colour = sample(card, fx, fy) or background
                    if colour is not None:
                        totals[0] += colour[0]
                        totals[1] += colour[1]
                        totals[2] += colour[2]
                        totals[3] += 1
            covered = totals[3]
            if covered:
                row += bytes(round(t / covered) for t in totals[:3])
                row.append(round(255 * covered / SAMPLES**2))
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return b"".join(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba_rows, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    card = card_read(FAVICON.read_text())
    felt = re.search(r"--felt:\s*(#[0-9a-fA-F]{6})", STYLESHEET.read_text()).group(1)  # type: ignore[union-attr]
    OUT.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        # Plain: the favicon as it is, filling the square. Maskable: on felt, the tilted card's
        # farthest corner (about 36 units from its centre) inside the safe circle (40%).
        (OUT / f"icon-{size}.png").write_bytes(png(size, render(card, size, None, 1.0)))
        maskable = render(card, size, _hex(felt), 0.7)
        (OUT / f"maskable-{size}.png").write_bytes(png(size, maskable))
        print(f"static/icons/icon-{size}.png, static/icons/maskable-{size}.png")


if __name__ == "__main__":
    main()
