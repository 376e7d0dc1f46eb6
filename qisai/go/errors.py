"""qisai's own Go exceptions.

Every exception is a :class:`ValueError` subclass, so callers that only care
that the input was bad can catch ``ValueError``; each one says what was wrong
and where (the point, the move number, the SGF property), in Chinese and in
English (issue 32.8): each takes ``(zh, en)`` as
:class:`~qisai.bilingual.BilingualError` does (``.zh``, ``.en``; ``str()``
gives ``"中文 / English"``).
"""

from __future__ import annotations

import enum

from qisai.bilingual import BilingualError


class GoError(BilingualError):
    """Base class of every error raised by :mod:`qisai.go` (a
    :class:`ValueError` with a Chinese and an English text)."""


class CoordinateError(GoError):
    """A point name or a row/column pair does not name a point of the board."""


class BoardSizeError(GoError):
    """A board size outside 2..25."""


class SetupError(GoError):
    """Set-up stones (AB/AW/AE, handicap) that cannot be placed."""


class IllegalReason(enum.Enum):
    """Why a move is not allowed; the value is the Chinese term."""

    OCCUPIED = "已有棋子"
    """The point already holds a stone."""
    SUICIDE = "禁着点"
    """Forbidden point: the stone would have no liberty and captures nothing."""
    KO = "打劫"
    """Immediate recapture of a ko (rule 11(1): 劫争马上回提)."""
    SUPERKO = "全局同形再现"
    """The move recreates an earlier whole-board position (禁止全局同形再现)."""
    OUT_OF_TURN = "连走二步"
    """The player is not the one to move (competition rule 8(1))."""

    @property
    def english(self) -> str:
        """Return the English name of the reason."""
        return _ENGLISH[self]


_ENGLISH = {
    IllegalReason.OCCUPIED: "point is occupied",
    IllegalReason.SUICIDE: "suicide (forbidden point)",
    IllegalReason.KO: "ko recapture",
    IllegalReason.SUPERKO: "whole-board repetition (superko)",
    IllegalReason.OUT_OF_TURN: "move out of turn",
}


class IllegalMoveError(GoError):
    """A move the rules forbid.

    Attributes: ``reason`` (:class:`IllegalReason`), ``point`` (the name of the
    point, e.g. ``"D4"``), ``color`` (``"B"`` or ``"W"``) and ``move_number``
    (1-based number of the move that was attempted).
    """

    def __init__(self, reason: IllegalReason, point: str, color: str, move_number: int) -> None:
        self.reason = reason
        self.point = point
        self.color = color
        self.move_number = move_number
        side = {"B": "黑方", "W": "白方"}.get(color, color)
        super().__init__(
            f"第 {move_number} 手：{side} {point} 不合规则：{reason.value}",
            f"move {move_number}: {color} {point} is illegal: "
            f"{reason.english} ({reason.value})",
        )


class UndoError(GoError):
    """``undo`` was called with nothing to undo."""


class SgfError(GoError):
    """A malformed or unsupported SGF file.

    Attributes: ``prop`` (the property identifier, e.g. ``"KM"``, or ``None``)
    and ``node`` (0-based node number in the main line, or ``None``).
    """

    def __init__(self, zh: str, en: str, prop: str | None = None,
                 node: int | None = None) -> None:
        self.prop = prop
        self.node = node
        where, where_zh = [], []
        if node is not None:
            where.append(f"node {node}")
            where_zh.append(f"节点 {node}")
        if prop is not None:
            where.append(f"property {prop}")
            where_zh.append(f"属性 {prop}")
        prefix = f"SGF {', '.join(where)}: " if where else "SGF: "
        prefix_zh = f"SGF {'、'.join(where_zh)}：" if where else "SGF："
        super().__init__(prefix_zh + zh, prefix + en)


class ScoringError(GoError):
    """Dead stones or counting options that do not fit the position."""
