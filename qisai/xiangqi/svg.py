"""Board pictures as SVG: grid, river, palaces, pieces with their characters.

>>> from qisai.xiangqi import Board, Move
>>> b = Board()
>>> b.push(Move.from_iccs("h2e2"))
>>> text = board_svg(b, arrows=[(Move.from_iccs("h9g7"))])
>>> text.startswith("<svg")
True

The picture has the nine files and ten ranks, the river (楚河 汉界), the
two palaces with their diagonals, every piece as a disc with its character
(帅仕相马车炮兵 in red, 将士象马车炮卒 in black), the file numbers as players
use them (Red 九..一 along its side, Black 1..9 along its side) or ICCS
coordinates, the last move, a general in check, and optional arrows.  Red
is at the bottom unless ``flipped``.  Pure: returns a string, writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import NamedTuple

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import FILES, Move

__all__ = ["Arrow", "SvgError", "board_svg"]

CELL = 50
MARGIN = 50
WIDTH = 2 * MARGIN + 8 * CELL
HEIGHT = 2 * MARGIN + 9 * CELL
_RED_FILES = "九八七六五四三二一"  # files a..i as Red counts them (from its right)
_FONT = "KaiTi, STKaiti, 'AR PL UKai CN', 'Noto Serif CJK SC', 'Source Han Serif SC', serif"
_COLORS = {
    "board": "#f2d49b", "line": "#5b3a1a", "red": "#c0141c", "black": "#1b1b1b",
    "piece": "#fbeed0", "last": "#3a7bd5", "check": "#e0201b", "coord": "#5b3a1a",
}


class SvgError(XiangqiError):
    """Bad arguments for a board picture (square off the board, bad option)."""


class Arrow(NamedTuple):
    """An arrow from ``tail`` to ``head`` (squares 0..89) in ``color`` (any CSS colour)."""

    tail: int
    head: int
    color: str = "#15781b"


def _point(sq: int, flipped: bool) -> tuple[float, float]:
    f, r = sq % 9, sq // 9
    if flipped:
        return MARGIN + (8 - f) * CELL, MARGIN + r * CELL
    return MARGIN + f * CELL, MARGIN + (9 - r) * CELL


def _line(x1: float, y1: float, x2: float, y2: float, cls: str, width: float = 1.5) -> str:
    return (f'<line class="{cls}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
            f'stroke="{_COLORS["line"]}" stroke-width="{width:g}"/>')


def _grid() -> list[str]:
    out = [f'<rect class="board" x="0" y="0" width="{WIDTH}" height="{HEIGHT}" '
           f'fill="{_COLORS["board"]}"/>',
           f'<rect class="border" x="{MARGIN - 6}" y="{MARGIN - 6}" width="{8 * CELL + 12}" '
           f'height="{9 * CELL + 12}" fill="none" stroke="{_COLORS["line"]}" stroke-width="3"/>']
    left, right = MARGIN, MARGIN + 8 * CELL
    top, bottom = MARGIN, MARGIN + 9 * CELL
    for i in range(10):
        y = top + i * CELL
        out.append(_line(left, y, right, y, "rank"))
    for f in range(9):
        x = left + f * CELL
        if f in (0, 8):
            out.append(_line(x, top, x, bottom, "file"))
        else:  # 1.1: the inner files stop at the river
            out.append(_line(x, top, x, top + 4 * CELL, "file"))
            out.append(_line(x, top + 5 * CELL, x, bottom, "file"))
    # 1.2: the palaces (九宫) with their diagonals.
    for y0 in (top, top + 7 * CELL):
        x0 = left + 3 * CELL
        out.append(_line(x0, y0, x0 + 2 * CELL, y0 + 2 * CELL, "palace"))
        out.append(_line(x0 + 2 * CELL, y0, x0, y0 + 2 * CELL, "palace"))
    # The river (河界): 楚河 on the left half, 汉界 on the right, upright either way.
    river_y = top + 4.5 * CELL
    for text, x in (("楚 河", left + 2 * CELL), ("汉 界", left + 6 * CELL)):
        out.append(f'<text class="river" x="{x:g}" y="{river_y:g}" font-family="{_FONT}" '
                   f'font-size="{CELL * 0.6:g}" fill="{_COLORS["line"]}" text-anchor="middle" '
                   f'dominant-baseline="central">{text}</text>')
    return out


def _coordinates(style: str, flipped: bool) -> list[str]:
    out = []
    size = CELL * 0.34

    def label(x: float, y: float, text: str, cls: str) -> None:
        out.append(f'<text class="{cls}" x="{x:g}" y="{y:g}" font-family="{_FONT}" '
                   f'font-size="{size:g}" fill="{_COLORS["coord"]}" text-anchor="middle" '
                   f'dominant-baseline="central">{text}</text>')

    top_y, bottom_y = MARGIN * 0.42, HEIGHT - MARGIN * 0.42
    for f in range(9):
        x = MARGIN + (8 - f if flipped else f) * CELL
        if style == "chinese":
            # Red counts its files from its right (九 on file a), Black from its
            # right (1 on file a); each side's numbers stand on its own side.
            red, black = _RED_FILES[f], str(f + 1)
            label(x, top_y, red if flipped else black, "coord")
            label(x, bottom_y, black if flipped else red, "coord")
        else:
            label(x, top_y, FILES[f], "coord")
            label(x, bottom_y, FILES[f], "coord")
    if style == "iccs":
        for r in range(10):
            y = MARGIN + (r if flipped else 9 - r) * CELL
            label(MARGIN * 0.42, y, str(r), "coord")
            label(WIDTH - MARGIN * 0.42, y, str(r), "coord")
    return out


def _square_mark(sq: int, flipped: bool, cls: str, color: str) -> str:
    x, y = _point(sq, flipped)
    h = CELL * 0.5
    return (f'<rect class="{cls}" x="{x - h:g}" y="{y - h:g}" width="{CELL:g}" height="{CELL:g}" '
            f'fill="{color}" fill-opacity="0.28" stroke="{color}" stroke-width="2"/>')


def _piece(board: Board, sq: int, flipped: bool) -> str:
    p = board.piece_at(sq)
    assert p is not None
    x, y = _point(sq, flipped)
    color = _COLORS["red"] if p.color is Color.RED else _COLORS["black"]
    side = "red" if p.color is Color.RED else "black"
    r = CELL * 0.44
    return (f'<g class="piece {side} {p.symbol()}" data-square="{FILES[sq % 9]}{sq // 9}">'
            f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{_COLORS["piece"]}" stroke="{color}" '
            f'stroke-width="2"/>'
            f'<circle cx="{x:g}" cy="{y:g}" r="{r * 0.82:g}" fill="none" stroke="{color}" '
            f'stroke-width="1"/>'
            f'<text x="{x:g}" y="{y:g}" font-family="{_FONT}" font-size="{CELL * 0.54:g}" '
            f'fill="{color}" text-anchor="middle" dominant-baseline="central">{p.chinese()}</text>'
            f'</g>')


def _check_square(sq: int, name: str) -> int:
    if not isinstance(sq, int) or isinstance(sq, bool) or not 0 <= sq < 90:
        raise SvgError(f"{name}：点 {sq!r} 不在棋盘上（0..89）",
                       f"{name}: square {sq!r} is off the board (0..89)")
    return sq


def board_svg(board: Board | None = None, *, flipped: bool = False,
              last_move: Move | None = None, arrows: Iterable[Arrow | Move | tuple[int, int]] = (),
              coordinates: str | None = "chinese", check: bool = True, size: int = 450) -> str:
    """An SVG picture of ``board`` (the start position if ``None``).

    ``flipped`` puts Black at the bottom.  ``last_move`` is marked (default:
    the board's last move, if any).  ``arrows`` are :class:`Arrow` values,
    moves or ``(tail, head)`` square pairs.  ``coordinates`` is ``"chinese"``
    (file numbers: Red 九..一, Black 1..9), ``"iccs"`` (a..i and 0..9) or
    ``None``.  With ``check`` a general in check is ringed.  ``size`` is the
    width in pixels (the height keeps the board's proportions).

    Returns the SVG document as a string.
    Raises :class:`SvgError` for a square off the board, an unknown
    ``coordinates`` style or a size below 1.
    """
    if board is None:
        board = Board()
    if coordinates not in ("chinese", "iccs", None):
        raise SvgError(f"坐标应为 'chinese'、'iccs' 或 None，不是 {coordinates!r}",
                       f"coordinates must be 'chinese', 'iccs' or None, not {coordinates!r}")
    if not isinstance(size, int) or size < 1:
        raise SvgError(f"尺寸应为正整数，不是 {size!r}",
                       f"size must be a positive integer, not {size!r}")
    if last_move is None:
        last_move = board.peek()
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'width="{size}" height="{round(size * HEIGHT / WIDTH)}" class="xiangqi-board">']
    parts += _grid()
    if coordinates is not None:
        parts += _coordinates(coordinates, flipped)
    if last_move is not None:
        parts.append(_square_mark(_check_square(last_move[0], "last move"), flipped,
                                  "lastmove from", _COLORS["last"]))
        parts.append(_square_mark(_check_square(last_move[1], "last move"), flipped,
                                  "lastmove to", _COLORS["last"]))
    if check and board.is_check():
        x, y = _point(board.king_square(board.turn), flipped)
        parts.append(f'<circle class="check" cx="{x:g}" cy="{y:g}" r="{CELL * 0.52:g}" '
                     f'fill="{_COLORS["check"]}" fill-opacity="0.45"/>')
    for sq, _p in board.iter_squares():
        parts.append(_piece(board, sq, flipped))
    arrow_list = [a if isinstance(a, Arrow) else Arrow(a[0], a[1]) for a in arrows]
    markers: dict[str, str] = {}
    for i, a in enumerate(arrow_list):
        tail, head = _check_square(a.tail, "arrow"), _check_square(a.head, "arrow")
        color = escape(str(a.color), quote=True)
        if color not in markers:
            markers[color] = f"arrowhead-{len(markers)}"
        x1, y1 = _point(tail, flipped)
        x2, y2 = _point(head, flipped)
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        shrink = CELL * 0.3
        x2, y2 = x2 - dx / length * shrink, y2 - dy / length * shrink
        parts.append(f'<line class="arrow" data-index="{i}" x1="{x1:g}" y1="{y1:g}" '
                     f'x2="{x2:.1f}" y2="{y2:.1f}" stroke="{color}" stroke-width="{CELL * 0.16:g}" '
                     f'stroke-linecap="round" opacity="0.8" '
                     f'marker-end="url(#{markers[color]})"/>')
    if markers:
        defs = ["<defs>"]
        for color, ident in markers.items():
            defs.append(f'<marker id="{ident}" viewBox="0 0 10 10" refX="5" refY="5" '
                        f'markerWidth="3" markerHeight="3" orient="auto">'
                        f'<path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>')
        defs.append("</defs>")
        parts[1:1] = defs
    parts.append("</svg>")
    return "\n".join(parts)
