"""SVG pictures of a Go board (pure: returns text, writes nothing).

Grid lines, star points (星, 天元), coordinates in GTP letters/numbers, the
stones, a ring on the last move, crosses on dead stones and small squares on
territory (from a :class:`qisai.go.scoring.Score`).
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from qisai.go.board import Board, PointLike
from qisai.go.coords import GTP_COLUMNS, Point, star_points
from qisai.go.rules import Color
from qisai.go.scoring import Score, expand_dead

_CELL = 24
_MARGIN = 30


def board_svg(
    board: Board,
    coordinates: bool = True,
    last_move: bool = True,
    dead: Iterable[PointLike] = (),
    score: Score | None = None,
    title: str | None = None,
) -> str:
    """Return an SVG picture of ``board`` as a string.

    ``dead`` names dead groups (one point each) to cross out; with ``score``
    its dead stones are crossed and its territory marked.  Raises
    :class:`qisai.go.errors.ScoringError` if a ``dead`` point is empty.
    """
    n = board.size
    margin = _MARGIN if coordinates else _CELL // 2 + 2
    width = 2 * margin + (n - 1) * _CELL

    def xy(p: Point) -> tuple[int, int]:
        row, col = p
        return margin + col * _CELL, margin + (n - 1 - row) * _CELL

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {width}" '
        f'width="{width}" height="{width}" font-family="sans-serif">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{width}" height="{width}" fill="#dcb35c"/>')
    low, high = margin, margin + (n - 1) * _CELL
    for k in range(n):
        pos = margin + k * _CELL
        out.append(f'<line x1="{low}" y1="{pos}" x2="{high}" y2="{pos}" stroke="#000" stroke-width="1"/>')
        out.append(f'<line x1="{pos}" y1="{low}" x2="{pos}" y2="{high}" stroke="#000" stroke-width="1"/>')
    for p in star_points(n):
        x, y = xy(p)
        out.append(f'<circle class="star" cx="{x}" cy="{y}" r="3" fill="#000"/>')
    if coordinates:
        for k in range(n):
            pos = margin + k * _CELL
            letter = GTP_COLUMNS[k]
            number = n - k
            for ty in (margin - 16, high + 22):
                out.append(f'<text x="{pos}" y="{ty}" font-size="11" text-anchor="middle">{letter}</text>')
            for tx in (margin - 18, high + 18):
                out.append(
                    f'<text x="{tx}" y="{pos + 4}" font-size="11" text-anchor="middle">{number}</text>'
                )
    dead_stones = set(expand_dead(board, dead))
    if score is not None:
        dead_stones |= score.dead
        for points, fill in ((score.black_territory, "#000"), (score.white_territory, "#fff")):
            for p in sorted(points):
                x, y = xy(p)
                out.append(
                    f'<rect class="territory" x="{x - 4}" y="{y - 4}" width="8" height="8" '
                    f'fill="{fill}" stroke="#000" stroke-width="0.5"/>'
                )
    radius = _CELL // 2 - 1
    for color, fill in ((Color.BLACK, "#000"), (Color.WHITE, "#fff")):
        for p in board.stones(color):
            x, y = xy(p)
            opacity = ' fill-opacity="0.5"' if p in dead_stones else ""
            out.append(
                f'<circle class="stone {color.name.lower()}" cx="{x}" cy="{y}" r="{radius}" '
                f'fill="{fill}" stroke="#000" stroke-width="1"{opacity}/>'
            )
    for p in sorted(dead_stones):
        x, y = xy(p)
        d = 5
        colour = "#f00"
        out.append(
            f'<path class="dead" d="M{x - d},{y - d}L{x + d},{y + d}M{x - d},{y + d}L{x + d},{y - d}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
    last = board.last_move()
    if last_move and last is not None and last.point is not None and not last.setup:
        x, y = xy(last.point)
        ring = "#fff" if last.color is Color.BLACK else "#000"
        out.append(
            f'<circle class="last" cx="{x}" cy="{y}" r="{radius // 2}" fill="none" '
            f'stroke="{ring}" stroke-width="2"/>'
        )
    out.append("</svg>")
    return "\n".join(out)
