"""Points of a Go board and their names.

A point is a ``(row, col)`` pair of ints, 0-based, row 0 at the bottom (the
row GTP calls 1) and column 0 at the left (GTP ``A``), as in sgfmill.  Three
spellings are read and written:

* GTP: ``"D4"``, letters ``A``..``Z`` without ``I``, row numbers from 1 at
  the bottom; ``"pass"`` is a pass.
* SGF: ``"dp"``, column letter then row letter counted from the *top*;
  ``""`` and (on boards up to 19x19) ``"tt"`` are a pass.
* row/column pairs.
"""

from __future__ import annotations

from qisai.go.errors import BoardSizeError, CoordinateError, SetupError

Point = tuple[int, int]
"""A point of the board as ``(row, col)``, row 0 at the bottom."""

MIN_SIZE = 2
MAX_SIZE = 25

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def check_size(size: int) -> int:
    """Return ``size`` if it is a board size qisai supports (2..25).

    Raises :class:`BoardSizeError` otherwise.
    """
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise BoardSizeError(f"棋盘大小 {size!r} 不在 {MIN_SIZE}..{MAX_SIZE} 之内",
                             f"board size {size!r} is not in {MIN_SIZE}..{MAX_SIZE}")
    return size


def check_point(point: Point, size: int) -> Point:
    """Return ``point`` if it lies on a ``size`` board.

    Raises :class:`CoordinateError` if it is not a pair of ints in range.
    """
    try:
        row, col = point
    except (TypeError, ValueError):
        raise CoordinateError(f"{point!r} 不是（行, 列）对",
                              f"{point!r} is not a (row, col) pair") from None
    if not (isinstance(row, int) and isinstance(col, int)) or isinstance(row, bool) or isinstance(col, bool):
        raise CoordinateError(f"{point!r} 不是整数的（行, 列）对",
                              f"{point!r} is not a (row, col) pair of ints")
    if not (0 <= row < size and 0 <= col < size):
        raise CoordinateError(f"{point!r} 不在 {size}x{size} 的棋盘上",
                              f"{point!r} is off a {size}x{size} board")
    return (row, col)


def gtp_name(point: Point | None, size: int) -> str:
    """Return the GTP name of ``point`` (``"D4"``), or ``"pass"`` for ``None``.

    Raises :class:`CoordinateError` if the point is off the board.
    """
    if point is None:
        return "pass"
    row, col = check_point(point, size)
    return f"{GTP_COLUMNS[col]}{row + 1}"


def parse_gtp(name: str, size: int) -> Point | None:
    """Return the point named ``name`` in GTP form, or ``None`` for ``pass``.

    Case is ignored.  Raises :class:`CoordinateError` for anything else,
    including ``I`` as a column and points off a ``size`` board.
    """
    check_size(size)
    text = name.strip().upper()
    if text == "PASS":
        return None
    if len(text) < 2 or text[0] not in GTP_COLUMNS or not text[1:].isdigit():
        raise CoordinateError(f"{name!r} 不是 D4 这样的 GTP 点名",
                              f"{name!r} is not a GTP point such as D4")
    col = GTP_COLUMNS.index(text[0])
    row = int(text[1:]) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise CoordinateError(f"{name!r} 不在 {size}x{size} 的棋盘上",
                              f"{name!r} is off a {size}x{size} board")
    return (row, col)


def sgf_name(point: Point | None, size: int) -> str:
    """Return the SGF name of ``point`` (``"dp"``), or ``""`` for a pass.

    Raises :class:`CoordinateError` if the point is off the board.
    """
    if point is None:
        return ""
    row, col = check_point(point, size)
    return SGF_LETTERS[col] + SGF_LETTERS[size - 1 - row]


def parse_sgf_point(text: str, size: int) -> Point | None:
    """Return the point of an SGF move value, or ``None`` for a pass.

    ``""`` is a pass, and so is ``"tt"`` on boards up to 19x19 (FF[3]).
    Raises :class:`CoordinateError` for anything else off the board.
    """
    check_size(size)
    if text == "" or (text == "tt" and size <= 19):
        return None
    if len(text) != 2 or text[0] not in SGF_LETTERS or text[1] not in SGF_LETTERS:
        raise CoordinateError(f"{text!r} 不是 dp 这样的 SGF 点名",
                              f"{text!r} is not an SGF point such as dp")
    col = SGF_LETTERS.index(text[0])
    row = size - 1 - SGF_LETTERS.index(text[1])
    if not (0 <= row < size and 0 <= col < size):
        raise CoordinateError(f"{text!r} 不在 {size}x{size} 的棋盘上",
                              f"{text!r} is off a {size}x{size} board")
    return (row, col)


def star_points(size: int) -> list[Point]:
    """Return the star points (星, with 天元 the centre) of a ``size`` board.

    19x19: nine points on the 4th lines; 13x13: five on the 4th lines; 9x9: the 3rd
    lines (five points).  In general: the corners of the 3rd line (below
    13x13) or the 4th, the centre on odd boards, and the side points on odd
    boards from 15x15; boards below 7x7 only have the centre (if odd, from 5).
    """
    check_size(size)
    if size < 7:
        return [(size // 2, size // 2)] if size % 2 == 1 and size >= 5 else []
    edge = 2 if size < 13 else 3
    far = size - 1 - edge
    points = [(edge, edge), (edge, far), (far, edge), (far, far)]
    if size % 2 == 1:
        mid = size // 2
        points.append((mid, mid))
        if size >= 15:
            points += [(edge, mid), (far, mid), (mid, edge), (mid, far)]
    return sorted(points)


def handicap_points(size: int, stones: int) -> list[Point]:
    """Return the fixed handicap points (让子) for ``stones`` stones.

    The placement is GTP's ``fixed_handicap`` (the same as GNU Go's): star
    points of the 3rd line below 13x13 and of the 4th line from 13x13; up to
    9 stones on odd boards from 9x9, up to 4 on 7x7 and even boards from 8x8.

    Raises :class:`qisai.go.errors.SetupError` if the board has no such
    placement.
    """
    check_size(size)
    limit = 9 if size % 2 == 1 and size >= 9 else (4 if size >= 7 else 0)
    if not 2 <= stones <= limit:
        raise SetupError(f"{size}x{size} 棋盘上没有 {stones} 子让子的固定位置",
                         f"no fixed placement of {stones} handicap stones on {size}x{size}")
    edge = 2 if size < 13 else 3
    far = size - 1 - edge
    mid = size // 2
    # GTP order: the two "opposite corners" first (upper right, lower left).
    corners = [(far, far), (edge, edge), (far, edge), (edge, far)]
    if stones <= 4:
        return corners[:stones]
    sides = [(mid, edge), (mid, far), (edge, mid), (far, mid)]
    if stones == 5:
        return corners + [(mid, mid)]
    if stones == 6:
        return corners + sides[:2]
    if stones == 7:
        return corners + sides[:2] + [(mid, mid)]
    if stones == 8:
        return corners + sides
    return corners + sides + [(mid, mid)]
