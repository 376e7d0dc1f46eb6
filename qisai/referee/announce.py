"""The arbiter's announcements at an exhibition: "第三台，炮二平五".

At a blindfold display (蒙目棋) the master sits with his back to the boards;
the arbiter reads each board's move aloud and the master calls his reply
(seed 001: "裁判报出的各组走棋").  This module writes those sentences, in
Chinese or English, for Xiangqi (any notation :mod:`qisai.xiangqi.notation`
writes) and Go (GTP coordinates, as Chinese arbiters read them: "黑 Q16"),
and reads the blindfold player's typed reply back into a move, with the
parser's message when it is not one.

The Go byo-yomi calls (30, 40, 50, 55, 58 s ...) are the clock's
(:meth:`qisai.referee.clock.Clock.calls`); they are not repeated here.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from qisai.bilingual import en_of
from qisai.go.coords import Point as GoPoint
from qisai.go.coords import gtp_name, parse_gtp
from qisai.go.errors import CoordinateError
from qisai.xiangqi import notation as xq_notation
from qisai.xiangqi.board import Board as XiangqiBoard
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.squares import Move as XiangqiMove

__all__ = [
    "Announcement", "AnnounceError", "chinese_numeral", "board_label",
    "announce_xiangqi", "announce_go", "read_xiangqi_reply", "read_go_reply",
]

_DIGITS = "零一二三四五六七八九"
_UNITS = ((1000, "千"), (100, "百"), (10, "十"))


class AnnounceError(ValueError):
    """A board number, language or typed reply cannot be used; the message
    says what and, for a reply, why (the parser's words)."""


def chinese_numeral(n: int) -> str:
    """Return ``n`` (1..9999) in Chinese numerals as an arbiter reads a board
    number: 3 -> 三, 10 -> 十, 12 -> 十二, 108 -> 一百零八, 110 -> 一百一十.

    Raises :class:`AnnounceError` outside 1..9999.
    """
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9999:
        raise AnnounceError(f"board number {n!r} is not in 1..9999")
    out: list[str] = []
    rest = n
    zero_pending = False
    for value, unit in _UNITS:
        digit, rest = divmod(rest, value)
        if digit:
            if zero_pending:
                out.append("零")
                zero_pending = False
            # 10..19 are read 十, 十一 ... (not 一十一) when they stand alone.
            if not (value == 10 and digit == 1 and not out):
                out.append(_DIGITS[digit])
            out.append(unit)
        elif out:
            zero_pending = True
    if rest:
        if zero_pending:
            out.append("零")
        out.append(_DIGITS[rest])
    return "".join(out)


def board_label(number: int, lang: str = "zh") -> str:
    """Return the name of board ``number`` as announced: 第三台 / board 3.

    Raises :class:`AnnounceError` for a number outside 1..9999 or an unknown
    language (``zh``, ``zh-Hant``, ``en``).
    """
    _check_lang(lang)
    if lang == "en":
        chinese_numeral(number)  # same bounds in both languages
        return f"board {number}"
    return f"第{chinese_numeral(number)}台"


@dataclass(frozen=True, slots=True)
class Announcement:
    """One announcement: the sentence in the requested language and the move
    alone (as written in the record's notation)."""

    board: int
    text: str
    move: str


def _check_lang(lang: str) -> None:
    if lang not in ("zh", "zh-Hant", "en"):
        raise AnnounceError(f"unknown language {lang!r}; expected zh, zh-Hant or en")


def announce_xiangqi(number: int, board: XiangqiBoard, move: XiangqiMove,
                     lang: str = "zh", notation: str | None = None) -> Announcement:
    """Announce ``move``, legal in ``board`` (the position before it), played
    on exhibition board ``number``.

    ``notation`` defaults to Chinese (炮二平五) for ``zh``/``zh-Hant`` and WXF
    (C2.5) for ``en``; any notation :func:`qisai.xiangqi.notation.format`
    writes may be given.  ``zh-Hant`` writes traditional characters (砲二平五).

    Returns the :class:`Announcement` ("第三台，炮二平五" / "board 3, C2.5").
    Raises :class:`AnnounceError` for a bad number or language, and the
    notation module's errors for an illegal move.
    """
    _check_lang(lang)
    if notation is None:
        notation = "wxf" if lang == "en" else "chinese"
    text = xq_notation.format(board, move, notation, traditional=lang == "zh-Hant")
    label = board_label(number, lang)
    sep = ", " if lang == "en" else "，"
    return Announcement(number, f"{label}{sep}{text}", text)


def announce_go(number: int, colour: str, point: GoPoint | None, size: int,
                lang: str = "zh") -> Announcement:
    """Announce a Go move on exhibition board ``number``: ``colour`` is
    ``"black"`` or ``"white"``, ``point`` ``None`` for a pass.

    Returns "第三台，黑 Q16" / "board 3, Black Q16"; a pass is "第三台，白 停一手"
    / "board 3, White passes".  Raises :class:`AnnounceError` for a bad
    number, colour or language and :class:`qisai.go.coords.CoordinateError`
    for a point off the board.
    """
    _check_lang(lang)
    if colour not in ("black", "white"):
        raise AnnounceError(f"unknown colour {colour!r}; expected black or white")
    label = board_label(number, lang)
    if lang == "en":
        who = colour.capitalize()
        move = "passes" if point is None else gtp_name(point, size)
        return Announcement(number, f"{label}, {who} {move}", move)
    who = "黑" if colour == "black" else "白"
    move = "停一手" if point is None else gtp_name(point, size)
    return Announcement(number, f"{label}，{who} {move}", move)


def read_xiangqi_reply(board: XiangqiBoard, text: str) -> XiangqiMove:
    """Read a blindfold player's typed reply: any notation the notation
    module reads (炮二平五, 炮25, C2.5, h2e2; traditional characters too).

    Returns the legal move.  Raises :class:`AnnounceError` carrying the
    parser's message (what was wrong and why) for a typo or an illegal move;
    nothing is played.
    """
    if not isinstance(text, str) or not text.strip():
        raise AnnounceError("no move typed")
    if len(text) > 32:
        raise AnnounceError("a move is at most 32 characters")
    try:
        return xq_notation.parse(board, text.strip())
    except XiangqiError as exc:
        raise AnnounceError(en_of(exc)) from exc


def read_go_reply(text: str, size: int) -> GoPoint | None:
    """Read a blindfold Go player's typed reply: a GTP point (``Q16``,
    case ignored) or ``pass`` / ``停`` / ``停一手``.

    Returns the point, or ``None`` for a pass.  Legality on the board (an
    occupied or forbidden point) is the referee's to rule.  Raises
    :class:`AnnounceError` with the coordinate parser's message.
    """
    if not isinstance(text, str) or not text.strip():
        raise AnnounceError("no move typed")
    if len(text) > 16:
        raise AnnounceError("a move is at most 16 characters")
    s = text.strip()
    if s in ("停", "停一手", "虚着", "虛著"):
        return None
    try:
        return parse_gtp(s, size)
    except CoordinateError as exc:
        raise AnnounceError(en_of(exc)) from exc
