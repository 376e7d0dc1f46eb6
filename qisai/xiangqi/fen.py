"""Xiangqi FEN: parsing and validating a FEN, and writing the placement field.

Rule text: the national rules (seeds 000/001), chapter 1 (1.2, 1.3) and
clauses 2.2-2.7 for the points a piece may stand on.

:func:`parse_fen` checks everything a FEN says on its own (fields, ranks,
letters, piece counts, points, side to move, counters) and names the field
and character at fault; :meth:`~qisai.xiangqi.board.Board.set_fen` adds the
checks that need the position (facing generals, the side not to move in
check).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from qisai.xiangqi.errors import FenError
from qisai.xiangqi.pieces import _FEN_LETTER, ADVISOR, KING, Color, Piece, PieceType
from qisai.xiangqi.squares import _prefix, square, square_name
from qisai.xiangqi.tables import MAX_PIECES, _legal_square

_MAX_COUNTER_DIGITS = 9
"""FEN's half-move clock and move number: at most this many digits."""

__all__ = ["STARTING_FEN", "ParsedFen", "parse_fen", "placement_fen"]

STARTING_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


class ParsedFen(NamedTuple):
    """What a FEN says: the signed piece on each square, side, counters."""

    board: list[int]
    turn: Color
    halfmove_clock: int
    fullmove_number: int


def parse_fen(fen: str, *, setup: bool = False, strict: bool = True) -> ParsedFen:
    """Parse and validate ``fen`` on its own (see :meth:`Board.set_fen
    <qisai.xiangqi.board.Board.set_fen>`, which also checks facing generals
    and the side not to move in check).

    ``setup=True`` is the lenient check for set-up positions: the points of
    advisors, elephants and soldiers are not checked.

    ``strict`` (the default) reads Xiangqi FEN as it is defined: fields 3
    and 4 are ``-`` (Xiangqi has no castling and no en-passant capture) and
    the move number (field 6) starts at 1.  ``strict=False`` is for files
    from programs that write chess-style fields (``KQkq``, ``e3``, move
    number 0): fields 3 and 4 are ignored and a move number 0 is read as 1.
    Fields 2-6 may be left out in either mode (Red to move, ``- - 0 1``).
    Raises :class:`FenError` naming the field and character at fault.
    """
    if not isinstance(fen, str):
        raise FenError(f"FEN 应为字符串，不是 {type(fen).__name__}",
                       f"FEN must be a string, not {type(fen).__name__}")
    spans = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", fen)]
    parts = [text for _, text in spans]
    if not parts:
        raise FenError("FEN 为空", "empty FEN")
    if len(parts) > 6:
        raise FenError(f"FEN 有 {len(parts)} 段，至多 6 段（第 7 段在第 {spans[6][0]} 个字符）",
                       f"FEN has {len(parts)} fields, at most 6 expected "
                       f"(field 7 at character {spans[6][0]})")
    rows = parts[0].split("/")
    if len(rows) != 10:
        raise FenError(f"FEN 第 1 段（棋子位置）有 {len(rows)} 行，应为 10 行",
                       f"FEN field 1 (placement) has {len(rows)} ranks, 10 expected")
    board = [0] * 90
    counts: dict[int, int] = {}
    row_start = spans[0][0]  # 1-based character position of the row in the FEN
    for i, row in enumerate(rows):
        rank = 9 - i
        where = f"FEN field 1 (placement), rank {rank} (row {i + 1})"
        where_zh = f"FEN 第 1 段（棋子位置）第 {i + 1} 行（横线 {rank}）"
        f = 0
        for k, ch in enumerate(row):
            at = f"{where}, character {row_start + k}"
            at_zh = f"{where_zh}第 {row_start + k} 个字符"
            if ch.isdigit() and ch.isascii():
                f += int(ch)
                if int(ch) == 0:
                    raise FenError(f"{at_zh}：不能用数字 0", f"{at}: digit 0 is not allowed")
                if f > 9:
                    raise FenError(f"{at_zh}：{f} 路，应为 9 路", f"{at}: {f} files, 9 expected")
            else:
                try:
                    p = Piece.from_symbol(ch)
                except FenError:
                    raise FenError(f"{at_zh}：未知的棋子字母 {ch!r}",
                                   f"{at}: unknown piece letter {ch!r}") from None
                if f >= 9:
                    raise FenError(f"{at_zh}：超过 9 路", f"{at}: more than 9 files")
                sq = square(f, rank)
                v = p.value()
                if (not setup or p.type == KING) and not _legal_square(p.type, p.color, sq):
                    rule = "1.2 palace" if p.type in (KING, ADVISOR) else "2.4/2.7"
                    rule_zh = "1.2 九宫" if p.type in (KING, ADVISOR) else "2.4/2.7"
                    raise FenError(f"{at_zh}：{p.color.chinese}{p.chinese()} {ch!r} 不能位于 "
                                   f"{square_name(sq)}（{rule_zh}）",
                                   f"{at}: {p.english()} {ch!r} cannot stand on {square_name(sq)} "
                                   f"({rule})")
                board[sq] = v
                counts[v] = counts.get(v, 0) + 1
                f += 1
        if f != 9:
            raise FenError(f"{where_zh}第 {row_start}-{row_start + len(row) - 1} 个字符："
                           f"{f} 路，应为 9 路",
                           f"{where}, characters {row_start}-{row_start + len(row) - 1}: "
                           f"{f} files, 9 expected")
        row_start += len(row) + 1
    for v, n in counts.items():
        if n > MAX_PIECES[abs(v)]:
            piece = Piece(PieceType(abs(v)), Color(1 if v > 0 else -1))
            raise FenError(f"FEN 第 1 段（棋子位置）：{piece.color.chinese}方{piece.chinese()}过多："
                           f"{n} 个（至多 {MAX_PIECES[abs(v)]} 个）",
                           f"FEN field 1 (placement): too many "
                           f"{piece.english()}s "
                           f"for {'Red' if v > 0 else 'Black'}: {n} (at most {MAX_PIECES[abs(v)]})")
    for c, name in ((1, "Red"), (-1, "Black")):
        if counts.get(c * KING, 0) != 1:
            general = "红方应有且只有一个帅" if c == 1 else "黑方应有且只有一个将"
            raise FenError(f"FEN 第 1 段（棋子位置）：{general}，"
                           f"现有 {counts.get(c * KING, 0)} 个",
                           f"FEN field 1 (placement): {name} must have exactly one general, "
                           f"found {counts.get(c * KING, 0)}")
    side = parts[1] if len(parts) > 1 else "w"
    if side in ("w", "r", "W", "R"):
        turn = Color.RED
    elif side in ("b", "B"):
        turn = Color.BLACK
    else:
        raise FenError(f"FEN 第 2 段（轮走方）第 {spans[1][0]} 个字符："
                       f"轮走方应为 'w'（红方）或 'b'（黑方），不是 {_prefix(side)}",
                       f"FEN field 2 (side to move), character {spans[1][0]}: "
                       f"side to move must be 'w' (Red) or 'b' (Black), not {_prefix(side)}")
    if strict:
        for idx, what, why in ((2, "castling", "Xiangqi has no castling"),
                               (3, "en passant", "Xiangqi has no en-passant capture")):
            if len(parts) > idx and parts[idx] != "-":
                raise FenError(f"FEN 第 {idx + 1} 段第 {spans[idx][0]} 个字符：应为 '-'"
                               f"（象棋无{'王车易位' if idx == 2 else '吃过路兵'}），"
                               f"不是 {_prefix(parts[idx])}",
                               f"FEN field {idx + 1} ({what}), character {spans[idx][0]}: "
                               f"must be '-' ({why}), not {_prefix(parts[idx])}")
    counters = []
    for idx, what in ((4, "halfmove clock"), (5, "move number")):
        what_zh = f"FEN 第 {idx + 1} 段（{'未吃子半回合数' if idx == 4 else '回合数'}）" \
            f"第 {spans[idx][0]} 个字符" if len(parts) > idx else ""
        if len(parts) > idx:
            if not parts[idx].isdigit() or not parts[idx].isascii():
                raise FenError(f"{what_zh}：应为非负整数，不是 {_prefix(parts[idx])}",
                               f"FEN field {idx + 1} ({what}), character {spans[idx][0]}: "
                               f"must be a non-negative integer, not {_prefix(parts[idx])}")
            if len(parts[idx]) > _MAX_COUNTER_DIGITS:
                raise FenError(f"{what_zh}：{len(parts[idx])} 位数字，至多 {_MAX_COUNTER_DIGITS} 位："
                               f"{_prefix(parts[idx])}",
                               f"FEN field {idx + 1} ({what}), character {spans[idx][0]}: "
                               f"{len(parts[idx])} digits, at most {_MAX_COUNTER_DIGITS}: "
                               f"{_prefix(parts[idx])}")
            counters.append(int(parts[idx]))
            if strict and idx == 5 and counters[-1] == 0:
                raise FenError(f"{what_zh}：应不小于 1（第一回合为第 1 回合），不是 0",
                               f"FEN field 6 (move number), character {spans[idx][0]}: "
                               "must be 1 or more (the first move is move 1), not 0")
    return ParsedFen(board, turn, counters[0] if counters else 0,
                     max(1, counters[1]) if len(counters) > 1 else 1)


def placement_fen(pieces: Mapping[int, Piece]) -> str:
    """The FEN placement field of ``{square: piece}`` (rank 9 first, Red upper case)."""
    chars = [""] * 90
    for sq, p in pieces.items():
        chars[sq] = p.symbol()
    return _placement(chars)


def _placement(chars: list[str]) -> str:
    # chars[sq] is the FEN letter on sq, "" for an empty point.
    return _compress([ch or "1" for ch in chars])


_RUNS = tuple(("1" * n, str(n)) for n in range(9, 1, -1))


def _compress(cells: list[str]) -> str:
    # cells[sq] is the FEN letter on sq, "1" for an empty point.  Ranks are
    # written from rank 9; then each run of k empty points becomes the digit
    # k, longest runs first (a rank holds at most 9), so the shorter
    # patterns only ever meet whole runs.  The board's FEN is written after
    # every refereed move: string replaces beat a loop over the points.
    text = "/".join(["".join(cells[r * 9:r * 9 + 9]) for r in range(9, -1, -1)])
    for run, digit in _RUNS:
        text = text.replace(run, digit)
    return text


# FEN letter of each signed piece value (index value + 7), "" for empty.
_SYMBOL = tuple((_FEN_LETTER[abs(v)].upper() if v > 0 else _FEN_LETTER[-v]) if v else ""
                for v in range(-7, 8))
_CELL = tuple(ch or "1" for ch in _SYMBOL)
"""The same with "1" for empty, as :func:`_compress` wants."""
