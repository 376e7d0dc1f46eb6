"""Move notation (记谱, clause 7.5): read and write ICCS, engine, Chinese and WXF.

Four notations are understood:

``"iccs"``
    Coordinates, files ``a``..``i`` from Red's left, ranks ``0``..``9`` from
    Red's side: ``h2e2``.  ``h2-e2`` and upper case are read too.
``"engine"``
    The same with ranks ``1``..``10`` (Fairy-Stockfish, UCI): ``h3e3``.
``"chinese"``
    The file notation of clause 7.5.  The *full* form ``炮二平五`` / ``马8进7``:
    piece, the file it stands on, 进 (forward) / 退 (back) / 平 (sideways), and
    the number: the steps moved for a piece going straight up or down the file
    (帅车炮兵) or the file it lands on (平, and the diagonal movers 马相仕).
    Each side counts files from its own right: Red 一..九, Black 1..9.
    Two like pieces on one file are told apart by 前/后 instead of the file
    (``前车进一``).  The *short* form of 7.5 drops the direction (``炮25``,
    ``马87``) and the *symbol* forms write it as ``+``/``-``/``.``/``=``
    (``炮2.5``, ``马8+7``, ``炮2=5``).
``"wxf"``
    The World Xiangqi Federation letters K A E H R C P: ``C2.5``, ``H8+7``;
    ``R+.3`` / ``C--1`` for the front / rear of two like pieces on a file, and
    the WXF rules for tandem soldiers (``P+.4``, ``P3.4`` for the middle one of
    three, ``++.4`` / ``--.4`` for the outermost of four or five, ``3+.4`` /
    ``33.4`` / ``3-.4`` when two files hold several soldiers).

What is written (one canonical form each):

* Chinese: simplified characters 帅仕相马车炮兵 / 将士象马车炮卒; Red's files
  and numbers in Chinese numerals (``炮二平五``), Black's in ASCII digits
  (``马8进7``), exactly as clause 7.5 prints them.  Two like pieces on a file:
  ``前``/``后`` and no file (``前车进一``).  Advisors and elephants never need
  it (their direction alone tells the two apart), so they keep the file
  (``仕六进五``).  Soldiers: on one crowded file ``前``/``后`` for two,
  ``前``/``中``/``后`` for three, ``一``..``五`` counted from the front for
  four or five; when two files each hold two or more soldiers, all soldiers on
  those files are numbered ``一``..``五`` taking the files from the mover's
  right to left and each file from front to back (``二兵平四``).
* WXF: upper-case letters, ``.`` for sideways, ASCII digits for both sides.
* Chinese in traditional characters (``traditional=True``): the same text with
  the fixed table :data:`TRADITIONAL` applied, 馬車帥將進後 for 马车帅将进后
  (``馬8進7``, ``前車進一``, ``帥五平四``, ``將5進1``, ``後炮平四``); 炮 仕 士 相
  象 兵 卒 退 平 前 中 and the numerals are the same in both scripts.

What is read: everything above, plus traditional and variant characters
(車馬砲俥傌包仕士相象帥將進後), ASCII, full-width and Chinese digits for either
side, ``前``/``中``/``后`` or ``一``..``五`` before the piece (also the
``前``/``二``/``三``/``四``/``后`` that some programs write for four or five
soldiers; a bare ``前兵`` when two files are crowded is ambiguous unless only
one of the two front soldiers can make the move), ``車前平三``
(position after the piece), ``前兵三进一`` (position, piece and file), WXF
selectors ``+``/``-`` and ``f``/``a``/``b`` before or after the letter,
``G``/``S``/``B``/``N`` for general, soldier, elephant and horse.  The piece
character is not checked against the colour to move (``士`` is read for
Red's advisor, as many programs write it): the side is the board's.

Every move read is checked against the position: :func:`parse` raises
:class:`~qisai.xiangqi.errors.InvalidMoveError` for text that is not a move,
:class:`~qisai.xiangqi.errors.IllegalMoveError` (saying why) when no legal
move fits and :class:`~qisai.xiangqi.errors.AmbiguousMoveError` (listing the
candidates in ICCS) when several do.  The short form of 7.5 carries no
direction, so it can be ambiguous: in the position of 7.5's own example
``车12`` can be 车一平二 or 车一进二.

>>> from qisai.xiangqi import Board
>>> b = Board()
>>> parse(b, "炮二平五").iccs()
'h2e2'
>>> format(b, parse(b, "C2.5"), "chinese")
'炮二平五'
>>> format_line(b, parse_line(b, "h2e2 h9g7 h0g2 i9h9"), "chinese")
['炮二平五', '马8进7', '马二进三', '车9平8']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    XiangqiError,
)
from qisai.xiangqi.notation_forms import CN_FORMS, WXF_FORMS, misfit
from qisai.xiangqi.pieces import Color, Piece, PieceType
from qisai.xiangqi.squares import Move, square_name

__all__ = [
    "NOTATIONS",
    "NotationError",
    "TRADITIONAL",
    "format",
    "format_line",
    "parse",
    "parse_line",
]

NOTATIONS: Final = ("chinese", "wxf", "iccs", "engine")

# Piece types as the ints of board.PieceType, for speed in the hot paths.
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(1, 8)

# 7.5: pieces that move along the file (帅车炮兵) count steps for 进/退; the
# others (马相仕) name the file they land on.
_STRAIGHT: Final = frozenset((KING, ROOK, CANNON, PAWN))
# How far a diagonal mover goes up or down the board for a given file change.
_DIAGONAL_RANKS: Final[dict[int, dict[int, int]]] = {
    HORSE: {1: 2, 2: 1},
    ELEPHANT: {2: 2},
    ADVISOR: {1: 1},
}
_CN_DIGITS: Final = "一二三四五六七八九"
_CN_PIECE: Final = {
    (KING, 1): "帅", (ADVISOR, 1): "仕", (ELEPHANT, 1): "相", (HORSE, 1): "马",
    (ROOK, 1): "车", (CANNON, 1): "炮", (PAWN, 1): "兵",
    (KING, -1): "将", (ADVISOR, -1): "士", (ELEPHANT, -1): "象", (HORSE, -1): "马",
    (ROOK, -1): "车", (CANNON, -1): "炮", (PAWN, -1): "卒",
}
_CN_ACTION: Final = {"+": "进", "-": "退", ".": "平"}
_WXF_LETTER: Final = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", ROOK: "R",
                      CANNON: "C", PAWN: "P"}
_ENGLISH: Final = {KING: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
                   ROOK: "chariot", CANNON: "cannon", PAWN: "soldier"}

# Reading Chinese: every character is mapped to a canonical ASCII token
# (piece letter, digit, + - . for 进退平, F/M/B for 前中后) and the result is
# matched against three small grammars.
_CN_READ: dict[str, str] = {}
for _chars, _tok in (
    ("车車俥伡", "R"), ("马馬傌", "H"), ("炮砲包", "C"), ("相象", "E"), ("仕士", "A"),
    ("帅帥将將", "K"), ("兵卒", "P"), ("进進", "+"), ("退", "-"), ("平", "."),
    ("前", "F"), ("中", "M"), ("后後", "B"),
):
    for _ch in _chars:
        _CN_READ[_ch] = _tok
for _i, _ch in enumerate(_CN_DIGITS):
    _CN_READ[_ch] = str(_i + 1)
for _ch in "123456789+-.":
    _CN_READ[_ch] = _ch
_CN_READ["="] = "."
_CJK_MARKERS: Final = frozenset(ch for ch in _CN_READ if not ch.isascii())

_CN_PREFIX = re.compile(r"([FMB1-5])([RHCEAKP])([1-9])?([-+.])([1-9])")
_CN_POSTFIX = re.compile(r"([RHCEAKP])([FMB])([-+.])([1-9])")
_CN_FILE = re.compile(r"([RHCEAKP])([1-9])([-+.])?([1-9])")

_WXF_TYPE: Final = {"K": KING, "G": KING, "A": ADVISOR, "E": ELEPHANT, "B": ELEPHANT,
                    "H": HORSE, "N": HORSE, "R": ROOK, "C": CANNON, "P": PAWN, "S": PAWN}
_WXF_L = "KGAEBHNRCPSkgaebhnrcps"
_WXF_S = r"+\-fabFAB"
_WXF_LETTER_FIRST = re.compile(rf"([{_WXF_L}])([1-9{_WXF_S}])([-+.=])([1-9])")
_WXF_SEL_FIRST = re.compile(rf"([{_WXF_S}])([{_WXF_L}])([-+.=])([1-9])")
_WXF_PAWN = re.compile(r"([-+]{2}|[1-9][-+]|[1-9]{2})([-+.=])([1-9])")
_WXF_SHORT = re.compile(rf"([{_WXF_L}])([1-9])([1-9])")
_COORD = re.compile(r"[a-iA-I]([0-9]{1,2})-?[a-iA-I]([0-9]{1,2})")
# A move number before a move ("1.", "12...") but not WXF "33.4".
_MOVE_NUMBER = re.compile(r"^[0-9]+\.+(?=[^0-9]|$)")


class NotationError(XiangqiError):
    """An unknown notation name was asked for (not one of :data:`NOTATIONS`)."""


def _unknown_notation(notation: object) -> NotationError:
    return NotationError(f"未知的记谱法 {notation!r}；应为 {', '.join(NOTATIONS)} 之一",
                         f"unknown notation {notation!r}; expected one of {', '.join(NOTATIONS)}")


@dataclass(frozen=True, slots=True)
class _Spec:
    """A move as read from text, before it is matched against the position.

    ``select`` names which of the pieces is meant: ``None`` (the piece on
    ``file``), ``"F"``/``"M"``/``"B"`` (前/中/后), ``"1"``..``"5"`` (一..五),
    or the WXF marks ``"+"``, ``"-"``, ``"++"``, ``"--"``, ``"mid"``.
    ``action`` is ``"+"`` (进), ``"-"`` (退), ``"."`` (平) or ``None`` (the
    short form of 7.5, direction unknown).
    """

    text: str
    ptype: int
    file: int | None  # the mover's own file number 1..9
    select: str | None
    action: str | None
    number: int
    wxf: bool = False


# ------------------------------------------------------------------ helpers

def _file_index(number: int, c: int) -> int:
    """Board file 0..8 (a..i) of the mover's file ``number`` 1..9 (7.5: from its right)."""
    return 9 - number if c == 1 else number - 1


def _file_number(file_index: int, c: int) -> int:
    """The mover's own file number 1..9 of board file 0..8."""
    return 9 - file_index if c == 1 else file_index + 1


def _groups(board: Board, c: int, ptype: int) -> dict[int, list[int]]:
    """Squares of the mover's ``ptype`` pieces by board file, each front to back."""
    value = ptype * c
    out: dict[int, list[int]] = {}
    for sq in board.pieces(Color(c)):
        if board.piece_value_at(sq) == value:
            out.setdefault(sq % 9, []).append(sq)
    for g in out.values():
        # Front is towards the opponent: higher ranks for Red, lower for Black.
        g.sort(key=lambda s: -(s // 9) * c)
    return out


def _file_group(board: Board, sq: int, value: int, c: int) -> list[int]:
    """Squares on ``sq``'s file holding ``value``, front to back."""
    f = sq % 9
    out = [s for s in range(f, 90, 9) if board.piece_value_at(s) == value]
    if c == 1:
        out.reverse()
    return out


def _crowded_files(groups: dict[int, list[int]], c: int) -> list[int]:
    """Files holding two or more of the pieces, from the mover's right to left."""
    return sorted((f for f, g in groups.items() if len(g) >= 2),
                  key=lambda f: _file_number(f, c))


def _side(c: int) -> str:
    return "Red" if c == 1 else "Black"


def _side_zh(c: int) -> str:
    return "红方" if c == 1 else "黑方"


def _piece_zh(ptype: int, c: int) -> str:  # as the side ``c`` writes it: 帅 or 将 ...
    return Piece(PieceType(ptype), Color(c)).chinese()


def _where(board: Board) -> tuple[str, str]:
    """``(zh, en)``: the ply and the side to move, for an error message."""
    ply, c = len(board.move_stack) + 1, int(board.turn)
    return f"第 {ply} 步（{_side_zh(c)}走）", f"ply {ply} ({_side(c)} to move)"


def _illegal_reason(board: Board, move: Move,
                    where: tuple[str, str] | None = None) -> tuple[str, str]:
    """``(zh, en)``: why ``move`` is not legal for the side to move (for
    error messages)."""
    f, t = move
    name = f"{square_name(f)}{square_name(t)}"
    wz, we = _where(board) if where is None else where
    if not (0 <= f < 90 and 0 <= t < 90):
        return (f"{wz}：{tuple(move)!r} 中的点号不在 0-89 之内",
                f"{we}: square number out of 0-89 in {tuple(move)!r}")
    v = board.piece_value_at(f)
    if not v:
        return (f"{wz}：{square_name(f)} 上没有棋子，不能走 {name}",
                f"{we}: no piece on {square_name(f)} for {name}")
    if v * board.turn < 0:
        return f"{wz}：{name} 走的是对方的棋子", f"{we}: {name} moves an opponent's piece"
    if not board.is_pseudo_legal(move):
        return (f"{wz}：{square_name(f)} 的{_piece_zh(abs(v), 1 if v > 0 else -1)}不能走到 "
                f"{square_name(t)}（第 2 条）",
                f"{we}: the {_ENGLISH[abs(v)]} on {square_name(f)} cannot move to "
                f"{square_name(t)} (clause 2)")
    return (f"{wz}：{name} 走后本方{'帅' if v > 0 else '将'}被将军或帅将对面（4.1.2）",
            f"{we}: {name} leaves the general in check or facing the other general (4.1.2)")


def _check_move(board: Board, move: Move) -> Move:
    if not board.is_legal(move):
        raise IllegalMoveError(*_illegal_reason(board, move))
    return move


def _normalize(text: object) -> str:
    if not isinstance(text, str):
        raise InvalidMoveError(f"着法应为字符串，不是 {type(text).__name__}",
                               f"a move must be a string, not {type(text).__name__}")
    # Full-width digits and signs (１, ＋, ．) become ASCII; spaces go.
    s = "".join(unicodedata.normalize("NFKC", text).split())
    if not s:
        raise InvalidMoveError("着法为空", "empty move text")
    return s


# ------------------------------------------------------------------ reading

def _read_chinese(text: str, s: str) -> _Spec:
    """Parse the Chinese full, short and symbol forms into a :class:`_Spec`."""
    tokens: list[str] = []
    for ch in s:
        tok = _CN_READ.get(ch)
        if tok is None:
            raise InvalidMoveError(f"中文着法 {text!r} 中有意外的字符 {ch!r}："
                                   f"第 {len(tokens) + 1} 个字符（{ch!r}）不是棋子、数字、"
                                   f"前/中/后或进/退/平",
                                   f"unexpected character {ch!r} in Chinese move {text!r}: "
                                   f"character {len(tokens) + 1} ({ch!r}) is not a piece, "
                                   f"number, 前/中/后 or 进/退/平")
        tokens.append(tok)
    t = "".join(tokens)
    m = _CN_FILE.fullmatch(t)
    if m:
        return _Spec(text, _WXF_TYPE[m[1]], int(m[2]), None, m[3], int(m[4]))
    m = _CN_PREFIX.fullmatch(t)
    if m:
        return _Spec(text, _WXF_TYPE[m[2]], int(m[3]) if m[3] else None, m[1], m[4], int(m[5]))
    m = _CN_POSTFIX.fullmatch(t)
    if m:
        return _Spec(text, _WXF_TYPE[m[1]], None, m[2], m[3], int(m[4]))
    raise InvalidMoveError(
        f"不是中文记谱的着法：{text!r}：{misfit(CN_FORMS, t, s, zh=True)}"
        f"（应如 '炮二平五'、'马8进7'、'前车进一'、'炮25' 或 '炮2.5'）",
        f"not a move in Chinese notation: {text!r}: {misfit(CN_FORMS, t, s)} "
        f"(expected e.g. '炮二平五', '马8进7', '前车进一', '炮25' or '炮2.5')")


_WXF_SELECT: Final = {"+": "+", "-": "-", "f": "+", "a": "+", "b": "-"}


def _read_wxf(text: str, s: str) -> _Spec:
    """Parse WXF (``C2.5``, ``R+.3``, ``+R.3``, ``P3.4``, ``++.4``, ``3+.4``, ``C25``)."""
    m = _WXF_LETTER_FIRST.fullmatch(s)
    if m:
        ptype = _WXF_TYPE[m[1].upper()]
        action = "." if m[3] == "=" else m[3]
        if m[2].isdigit():
            return _Spec(text, ptype, int(m[2]), None, action, int(m[4]), wxf=True)
        return _Spec(text, ptype, None, _WXF_SELECT[m[2].lower()], action, int(m[4]), wxf=True)
    m = _WXF_SEL_FIRST.fullmatch(s)
    if m:
        return _Spec(text, _WXF_TYPE[m[2].upper()], None, _WXF_SELECT[m[1].lower()],
                     "." if m[3] == "=" else m[3], int(m[4]), wxf=True)
    m = _WXF_PAWN.fullmatch(s)
    if m:
        sel = m[1]
        action = "." if m[2] == "=" else m[2]
        if sel in ("++", "--"):
            return _Spec(text, PAWN, None, sel, action, int(m[3]), wxf=True)
        if sel[1].isdigit():
            if sel[0] != sel[1]:
                raise InvalidMoveError(f"WXF 着法 {text!r}：第 2 个字符（{sel[1]!r}）：第 {sel[0]} 路"
                                       f"的中兵写作 {sel[0]}{sel[0]}",
                                       f"WXF move {text!r}: character 2 ({sel[1]!r}): the middle "
                                       f"soldier of file {sel[0]} is written {sel[0]}{sel[0]}")
            return _Spec(text, PAWN, int(sel[0]), "mid", action, int(m[3]), wxf=True)
        return _Spec(text, PAWN, int(sel[0]), sel[1], action, int(m[3]), wxf=True)
    m = _WXF_SHORT.fullmatch(s)
    if m:
        return _Spec(text, _WXF_TYPE[m[1].upper()], int(m[2]), None, None, int(m[3]), wxf=True)
    raise InvalidMoveError(f"不是 WXF 记谱的着法：{text!r}：{misfit(WXF_FORMS, s, s, zh=True)}"
                           f"（应如 'C2.5'、'H8+7'、'R+.3'）",
                           f"not a move in WXF notation: {text!r}: {misfit(WXF_FORMS, s, s)} "
                           f"(expected e.g. 'C2.5', 'H8+7', 'R+.3')")


def _select(board: Board, c: int, spec: _Spec) -> list[int]:
    """Squares of the pieces ``spec`` may name (before looking at the move)."""
    groups = _groups(board, c, spec.ptype)
    sel = spec.select
    if sel is None:
        assert spec.file is not None
        g = groups.get(_file_index(spec.file, c), [])
        # WXF: on a file of three or five soldiers the plain file names the
        # middle one (the front and rear ones are written with + and -).
        if spec.wxf and spec.ptype == PAWN and len(g) in (3, 5):
            return [g[len(g) // 2]]
        return list(g)
    if spec.file is not None:
        files = [_file_index(spec.file, c)]
    else:
        files = _crowded_files(groups, c)
    if sel.isdigit():
        # 一..五: counted front to back, files from the mover's right to left.
        combined = [sq for f in files for sq in groups.get(f, []) if len(groups[f]) >= 2]
        k = int(sel)
        return [combined[k - 1]] if k <= len(combined) else []
    out = []
    for f in files:
        g = groups.get(f, [])
        n = len(g)
        if n < 2:
            continue
        if sel == "F":
            out.append(g[0])
        elif sel == "B":
            out.append(g[-1])
        elif sel in ("M", "mid"):
            if n % 2:
                out.append(g[n // 2])
        elif sel == "+":
            out.append(g[1] if n >= 4 else g[0])
        elif sel == "-":
            out.append(g[-2] if n >= 4 else g[-1])
        elif sel == "++":
            if n >= 4:
                out.append(g[0])
        elif sel == "--" and n >= 4:
            out.append(g[-1])
    return out


def _targets(ptype: int, c: int, frm: int, action: str | None, number: int) -> list[int]:
    """Destination squares of a piece on ``frm`` for ``action`` and ``number`` (7.5)."""
    f, r = frm % 9, frm // 9
    out = []
    for a in (action,) if action else ("+", "-", "."):
        if ptype in _STRAIGHT:
            if a == ".":
                tf = _file_index(number, c)
                if tf != f:
                    out.append(r * 9 + tf)
            else:
                nr = r + (number if a == "+" else -number) * c
                if 0 <= nr <= 9:
                    out.append(nr * 9 + f)
        elif a != ".":
            tf = _file_index(number, c)
            dr = _DIAGONAL_RANKS[ptype].get(abs(tf - f))
            if dr is not None:
                nr = r + (dr if a == "+" else -dr) * c
                if 0 <= nr <= 9:
                    out.append(nr * 9 + tf)
    return out


def _resolve(board: Board, spec: _Spec) -> Move:
    """The one legal move ``spec`` describes; raises Illegal/Ambiguous otherwise."""
    c = int(board.turn)
    name = _ENGLISH[spec.ptype]
    name_zh = _piece_zh(spec.ptype, c)
    where_zh, where = _where(board)
    if spec.number < 1 or spec.number > 9:
        raise InvalidMoveError(f"{spec.text!r}：数字 {spec.number} 不在 1-9 之内",
                               f"{spec.text!r}: number {spec.number} is not 1-9")
    squares = _select(board, c, spec)
    if not squares:
        if spec.select is None:
            assert spec.file is not None
            raise IllegalMoveError(f"{where_zh}：{spec.text!r}：{_side_zh(c)}第 {spec.file} 路"
                                   f"上没有{name_zh}",
                                   f"{where}: {spec.text!r}: {_side(c)} has no {name} on file "
                                   f"{spec.file}")
        raise IllegalMoveError(f"{where_zh}：{spec.text!r}：{_side_zh(c)}在有两个或更多{name_zh}"
                               f"的路上没有这个位置的{name_zh}",
                               f"{where}: {spec.text!r}: {_side(c)} has no {name} in that "
                               f"position on a file with two or more of them")
    candidates: list[Move] = []
    tried: list[Move] = []
    for frm in squares:
        for to in _targets(spec.ptype, c, frm, spec.action, spec.number):
            move = Move(frm, to)
            tried.append(move)
            if board.is_legal(move):
                candidates.append(move)
    if len(candidates) == 1:
        return candidates[0]
    written = "wxf" if spec.wxf else "chinese"
    if candidates:
        names = [m.iccs() for m in candidates]
        listed = ", ".join(f"{m.iccs()} ({_write(board, m, written)})" for m in candidates)
        raise AmbiguousMoveError(f"{where_zh}：{spec.text!r} 合乎 {len(names)} 个合法着法："
                                 f"{listed}",
                                 f"{where}: {spec.text!r} fits {len(names)} legal moves: "
                                 f"{listed}", names)
    if tried:
        why_zh, why = _illegal_reason(board, tried[0], (f"{where_zh}：{spec.text!r}",
                                                        f"{where}: {spec.text!r}"))
    else:
        how = {"+": "forward", "-": "back", ".": "sideways"}.get(spec.action or "", "")
        how_zh = {"+": "进", "-": "退", ".": "平"}.get(spec.action or "", "走")
        pieces = " or ".join(square_name(sq) for sq in squares)
        if spec.ptype in _STRAIGHT:
            why_zh = (f"{where_zh}：{spec.text!r}：{pieces.replace(' or ', '或')} 的{name_zh}不能{how_zh} "
                      f"{spec.number}（出了棋盘或仍在本路）")
            why = (f"{where}: {spec.text!r}: the {name} on {pieces} cannot move {how} "
                   f"{spec.number} (off the board or onto its own file)")
        elif spec.action == ".":
            why_zh = f"{where_zh}：{spec.text!r}：{name_zh}从不平走；7.5 写作进/退"
            why = f"{where}: {spec.text!r}: the {name} never moves sideways (平); 7.5 writes 进/退"
        else:
            why_zh = (f"{where_zh}：{spec.text!r}：{pieces.replace(' or ', '或')} 的{name_zh}到不了第 {spec.number} 路"
                      f"（7.5：{name_zh}的数字是落点所在的路）")
            why = (f"{where}: {spec.text!r}: the {name} on {pieces} cannot reach file "
                   f"{spec.number} (7.5: for the {name} the number is the file it lands on)")
    hint_zh, hint = _hint(board, squares, written)
    raise IllegalMoveError(why_zh + hint_zh, why + hint)


def _hint(board: Board, squares: list[int], notation: str) -> tuple[str, str]:
    """``(zh, en)``: the legal moves of the pieces on ``squares``, for an
    error message."""
    moves = [m for sq in squares for m in board.legal_moves_from(sq)]
    if not moves:
        return ("；该子无合法着法" if len(squares) == 1 else "；这些子无合法着法",
                "; that piece has no legal move" if len(squares) == 1 else
                "; those pieces have no legal move")
    listed = " ".join(_write(board, m, notation) for m in moves)
    return "；合法着法：" + listed, "; its legal moves: " + listed


def _parse_coordinates(board: Board, s: str, notation: str) -> Move:
    move = Move.from_iccs(s) if notation == "iccs" else Move.from_engine(s)
    return _check_move(board, move)


def parse(board: Board, text: str, notation: str | None = None) -> Move:
    """Read one move in ``notation`` (``None``: detect it) that is legal in ``board``.

    The board is not changed.  With ``notation=None`` text with Chinese
    characters is read as Chinese (full, short or symbol form), ``h2e2``-like
    coordinates as ICCS, or as the engine form (ranks 1-10) when they hold a
    rank ``10`` or only the engine reading is legal, and anything else as WXF.

    Returns the :class:`Move`.  Raises :class:`InvalidMoveError` if the text is
    not a move in that notation, :class:`IllegalMoveError` (with the reason)
    if no legal move fits, :class:`AmbiguousMoveError` (with the ICCS
    candidates) if several do, and :class:`NotationError` for an unknown
    ``notation``.

    >>> parse(Board(), "马8进7").iccs()  # Red may be written with digits too
    'b0c2'
    >>> parse(Board(), "车一平二")
    Traceback (most recent call last):
    ...
    qisai.xiangqi.errors.IllegalMoveError: 第 1 步（红方走）：'车一平二'：i0 的车不能走到 h0（第 2 条）；合法着法：车一进一 车一进二 / ply 1 (Red to move): '车一平二': the chariot on i0 cannot move to h0 (clause 2); its legal moves: 车一进一 车一进二
    """
    s = _normalize(text)
    if notation is None:
        if any(ch in _CJK_MARKERS for ch in s):
            return _resolve(board, _read_chinese(text, s))
        m = _COORD.fullmatch(s)
        if m:
            return _parse_auto_coordinates(board, s, m)
        return _resolve(board, _read_wxf(text, s))
    if notation == "chinese":
        return _resolve(board, _read_chinese(text, s))
    if notation == "wxf":
        return _resolve(board, _read_wxf(text, s))
    if notation in ("iccs", "engine"):
        return _parse_coordinates(board, s, notation)
    raise _unknown_notation(notation)


def _parse_auto_coordinates(board: Board, s: str, m: re.Match[str]) -> Move:
    ranks = (m[1], m[2])
    if "10" in ranks:
        return _parse_coordinates(board, s, "engine")
    if any(len(r) > 1 for r in ranks):
        raise InvalidMoveError(f"不是坐标着法：{s!r}（行为 0-9 或 1-10）",
                               f"not a coordinate move: {s!r} (ranks are 0-9 or 1-10)")
    try:
        return _parse_coordinates(board, s, "iccs")
    except IllegalMoveError:
        if "0" not in ranks:
            engine = Move.from_engine(s)
            if board.is_legal(engine):
                return engine
        raise


# ------------------------------------------------------------------ writing

def _chinese_number(n: int, c: int) -> str:
    # 7.5: Red writes Chinese numerals, Black Arabic digits.
    return _CN_DIGITS[n - 1] if c == 1 else str(n)


def _parts(board: Board, move: Move) -> tuple[int, int, str, int]:
    """``(ptype, colour, action, number)`` of a legal move, as 7.5 counts them."""
    frm, to = move
    v = board.piece_value_at(frm)
    c = 1 if v > 0 else -1
    ptype = abs(v)
    dr = to // 9 - frm // 9
    if dr == 0:
        action = "."
    else:
        action = "+" if dr * c > 0 else "-"
    if ptype in _STRAIGHT and action != ".":
        number = abs(dr)
    else:
        number = _file_number(to % 9, c)
    return ptype, c, action, number


def _format_chinese(board: Board, move: Move) -> str:
    ptype, c, action, number = _parts(board, move)
    frm = move.from_square
    piece = _CN_PIECE[(ptype, c)]
    tail = _CN_ACTION[action] + _chinese_number(number, c)
    prefix = ""
    if ptype == PAWN:
        groups = _groups(board, c, PAWN)
        crowded = _crowded_files(groups, c)
        f = frm % 9
        if f in crowded:
            if len(crowded) == 1:
                g = groups[f]
                i = g.index(frm)
                if len(g) == 2:
                    prefix = "前后"[i]
                elif len(g) == 3:
                    prefix = "前中后"[i]
                else:
                    prefix = _CN_DIGITS[i]
            else:
                combined = [sq for cf in crowded for sq in groups[cf]]
                prefix = _CN_DIGITS[combined.index(frm)]
    elif ptype not in (ADVISOR, ELEPHANT):
        g = _file_group(board, frm, ptype * c, c)
        if len(g) == 2:
            prefix = "前后"[g.index(frm)]
    if prefix:
        return prefix + piece + tail
    return piece + _chinese_number(_file_number(frm % 9, c), c) + tail


def _format_wxf(board: Board, move: Move) -> str:
    ptype, c, action, number = _parts(board, move)
    frm = move.from_square
    letter = _WXF_LETTER[ptype]
    tail = action + str(number)
    file_no = str(_file_number(frm % 9, c))
    if ptype == PAWN:
        groups = _groups(board, c, PAWN)
        crowded = _crowded_files(groups, c)
        f = frm % 9
        if f in crowded:
            g = groups[f]
            n, i = len(g), g.index(frm)
            if n >= 4:
                marks = ["++", "+", "mid", "-", "--"] if n == 5 else ["++", "+", "-", "--"]
            else:
                marks = ["+", "mid", "-"] if n == 3 else ["+", "-"]
            mark = marks[i]
            if len(crowded) > 1:
                # WXF: with crowded soldiers on two files the file comes first.
                return file_no + (file_no if mark == "mid" else mark) + tail
            if mark == "mid":
                return letter + file_no + tail
            if len(mark) == 2:
                return mark + tail
            return letter + mark + tail
    elif ptype not in (ADVISOR, ELEPHANT):
        g = _file_group(board, frm, ptype * c, c)
        if len(g) == 2:
            return letter + "+-"[g.index(frm)] + tail
    return letter + file_no + tail


#: Simplified -> traditional for the characters written in Chinese notation.
#: A fixed table, not prose conversion: these are the only written characters
#: whose traditional form differs (炮仕士相象兵卒退平前中 and the numerals do not).
TRADITIONAL: Final = str.maketrans("马车帅将进后", "馬車帥將進後")


def _write(board: Board, move: Move, notation: str, traditional: bool = False) -> str:
    """Write a move known to be legal (no checks)."""
    if notation == "chinese":
        text = _format_chinese(board, move)
        return text.translate(TRADITIONAL) if traditional else text
    if notation == "wxf":
        return _format_wxf(board, move)
    if notation == "iccs":
        return move.iccs()
    return move.engine()


def format(board: Board, move: Move, notation: str = "chinese", *,
           traditional: bool = False) -> str:
    """Write a legal ``move`` of ``board`` in ``notation``.

    ``notation`` is ``"chinese"`` (``炮二平五`` / ``马8进7``), ``"wxf"``
    (``C2.5``), ``"iccs"`` (``h2e2``) or ``"engine"`` (``h3e3``); see the
    module docstring for the canonical forms.  ``traditional=True`` writes
    Chinese notation in traditional characters (``馬8進7``); the other
    notations have no Chinese characters and ignore it.  The board is not changed.

    Returns the text.  Raises :class:`IllegalMoveError` if ``move`` is not
    legal in ``board``, :class:`InvalidMoveError` if it is not a move at all
    and :class:`NotationError` for an unknown notation.

    >>> format(Board(), Move.from_iccs("h0g2"))
    '马二进三'
    >>> format(Board(), Move.from_iccs("h0g2"), traditional=True)
    '馬二進三'
    """
    if notation not in NOTATIONS:
        raise _unknown_notation(notation)
    if not (isinstance(move, tuple) and len(move) == 2
            and all(isinstance(sq, int) for sq in move)):
        raise InvalidMoveError(f"不是着法：{move!r}（应为 Move(起点, 终点)）",
                               f"not a move: {move!r} (expected a Move(from_square, to_square))")
    move = Move(*move)
    _check_move(board, move)
    return _write(board, move, notation, traditional)


# ------------------------------------------------------------------ lines

def _tokens(text: str) -> list[str]:
    if not isinstance(text, str):
        raise InvalidMoveError(f"着法行应为字符串，不是 {type(text).__name__}",
                               f"a move line must be a string, not {type(text).__name__}")
    out = []
    for raw in text.replace(",", " ").replace("，", " ").split():
        tok = _MOVE_NUMBER.sub("", raw)
        # A bare number is a move number (7.5's table writes "1 炮二平五 马8进7").
        if tok and not tok.isdigit():
            out.append(tok)
    return out


def _coordinate_line(tokens: list[str]) -> str | None:
    """``"iccs"`` or ``"engine"`` if a line of coordinate moves shows which, else None."""
    ranks = {r for t in tokens if (m := _COORD.fullmatch(t)) for r in (m[1], m[2])}
    if "0" in ranks:
        return "iccs"
    if "10" in ranks:
        return "engine"
    return None


def parse_line(board: Board, text: str, notation: str | None = None) -> list[Move]:
    """Read a sequence of moves (separated by spaces or commas) from ``board``.

    Move numbers (``1``, ``1.``, ``12...``) are skipped.  With ``notation=None`` each
    move is detected as in :func:`parse`, except that a line of coordinate
    moves is read wholly as ICCS or wholly as engine moves (a rank ``0`` means
    ICCS, a rank ``10`` the engine form; otherwise ICCS is tried first for the
    whole line).  ``board`` is not changed.

    Returns the moves.  Raises the errors of :func:`parse`, their message
    naming the move's position in the line.
    """
    tokens = _tokens(text)
    chosen = notation
    if notation is None and tokens and all(_COORD.fullmatch(t) for t in tokens):
        chosen = _coordinate_line(tokens)
        if chosen is None:
            moves, error = _parse_tokens(board.copy(), tokens, "iccs")
            if error is None:
                return moves
            engine_moves, engine_error = _parse_tokens(board.copy(), tokens, "engine")
            if engine_error is None:
                return engine_moves
            # Report the reading that got further (ICCS on a tie).
            raise error if len(moves) >= len(engine_moves) else engine_error
    moves, error = _parse_tokens(board.copy(), tokens, chosen)
    if error is not None:
        raise error
    return moves


def _parse_tokens(b: Board, tokens: list[str],
                  notation: str | None) -> tuple[list[Move], XiangqiError | None]:
    """The moves read until the first bad one, and the error for that one (or None)."""
    moves: list[Move] = []
    for i, tok in enumerate(tokens):
        try:
            move = parse(b, tok, notation)
        except AmbiguousMoveError as e:
            return moves, AmbiguousMoveError(f"第 {i + 1} 着（{tok}）：{e.zh}", f"move {i + 1} ({tok}): {e.en}", e.candidates)
        except XiangqiError as e:
            return moves, type(e)(f"第 {i + 1} 着（{tok}）：{e.zh}", f"move {i + 1} ({tok}): {e.en}")
        b.push_unchecked(move)
        moves.append(move)
    return moves, None


def format_line(board: Board, moves: list[Move], notation: str = "chinese", *,
                traditional: bool = False) -> list[str]:
    """Write a sequence of moves played from ``board`` in ``notation``.

    ``traditional=True`` writes Chinese notation in traditional characters, as
    :func:`format`.  ``board`` is not changed.  Returns one string per move.  Raises
    :class:`IllegalMoveError` (naming the move's position) at the first move
    that is not legal, and :class:`NotationError` for an unknown notation.
    """
    if notation not in NOTATIONS:
        raise _unknown_notation(notation)
    b = board.copy()
    out = []
    for i, move in enumerate(moves):
        try:
            out.append(format(b, move, notation, traditional=traditional))
        except IllegalMoveError as e:
            raise IllegalMoveError(f"第 {i + 1} 着（{Move(*move).iccs()}）：{e.zh}",
                                   f"move {i + 1} ({Move(*move).iccs()}): {e.en}") from None
        b.push_unchecked(Move(*move))
    return out
