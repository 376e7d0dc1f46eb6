"""Repetition rulings for Xiangqi (棋例): the interface the referee calls.

The referee detects a repetition itself: the position (placement and side to
move, the Zobrist key) occurring ``repetition_count`` times since the last
capture (4.2.3, 23.2, 24).  It then asks a :data:`RepetitionJudge` to rule
on the window of moves from the first occurrence to now.

:func:`default_judge` uses the repetition code module ``qisai.xiangqi.qili``
when it provides a ruling function, and otherwise :func:`checks_only_judge`,
which classifies moves as checks or not and so rules one-sided perpetual
check (24.1, 26.1) and draws (26.2, 26.3), but cannot see chases (捉) and
mate threats (杀); its rulings say so.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from qisai.referee.rulesets import RepetitionCode
from qisai.referee.verdict import Side
from qisai.xiangqi.board import Board, Color, Move

__all__ = [
    "RepetitionJudge",
    "RepetitionQuery",
    "RepetitionRuling",
    "RulingKind",
    "checks_only_judge",
    "default_judge",
]


@dataclass(frozen=True)
class RepetitionQuery:
    """A repeated window: from ``start_fen`` (first occurrence of the
    repeated position) the ``moves`` return to it ``count - 1`` times."""

    start_fen: str
    moves: tuple[Move, ...]
    count: int
    code: RepetitionCode


class RulingKind(enum.Enum):
    """What a repetition ruling decides."""

    DRAW = "draw"
    """不变作和 (24.2, 26.2, 26.3)."""
    LOSES = "loses"
    """``side`` loses now (24.1: one-sided perpetual check)."""
    MUST_CHANGE = "must_change"
    """24.3: ``side`` must change; repeating the cycle again loses."""


@dataclass(frozen=True)
class RepetitionRuling:
    """A ruling with its clause and reasons in Chinese and English."""

    kind: RulingKind
    side: Side | None
    perpetual_check: bool
    clause: str
    detail_zh: str
    detail_en: str


RepetitionJudge = Callable[[RepetitionQuery], RepetitionRuling]
"""A function that rules on a repeated window."""


def _side(color: Color) -> Side:
    return Side.FIRST if color is Color.RED else Side.SECOND


def checks_only_judge(query: RepetitionQuery) -> RepetitionRuling:
    """Rule on ``query`` by checks alone.

    Returns LOSES for one-sided perpetual check (every move of one side is a
    check, the other side's are not all checks: 24.1, 26.1) and DRAW
    otherwise (both checking: 26.3; else 26.2).  It cannot classify chases
    or mate threats, and says so in the ruling's detail.  Raises
    :class:`qisai.xiangqi.errors.XiangqiError` if the moves do not replay.
    """
    board = Board(query.start_fen)
    all_checks = {Side.FIRST: True, Side.SECOND: True}
    moved = {Side.FIRST: False, Side.SECOND: False}
    for move in query.moves:
        side = _side(board.turn)
        board.push(move)
        moved[side] = True
        if not board.is_check():
            all_checks[side] = False
    perpetual = [s for s in Side if moved[s] and all_checks[s]]
    if len(perpetual) == 1:
        s = perpetual[0]
        return RepetitionRuling(RulingKind.LOSES, s, True, "24.1, 26.1",
                                "单方面长将", "one-sided perpetual check")
    if len(perpetual) == 2:
        return RepetitionRuling(RulingKind.DRAW, None, False, "24.2, 26.3",
                                "双方长将，不变作和", "both sides check perpetually")
    return RepetitionRuling(RulingKind.DRAW, None, False, "24.2, 26.2",
                            "无单方面长将；仅按将军判定，未判定捉、杀",
                            "no one-sided perpetual check; judged by checks only, "
                            "chases and mate threats not classified")


def _qili_judge() -> RepetitionJudge | None:
    """Return an adapter to ``qisai.xiangqi.qili`` if it offers a ruling."""
    try:
        qili: Any = importlib.import_module("qisai.xiangqi.qili")
    except ImportError:
        return None
    adapter = getattr(qili, "referee_ruling", None)
    if callable(adapter):
        judge: RepetitionJudge = adapter
        return judge
    return None


def default_judge(query: RepetitionQuery) -> RepetitionRuling:
    """Rule on ``query`` with the 棋例 module if present, else by checks."""
    judge = _qili_judge()
    if judge is not None:
        return judge(query)
    return checks_only_judge(query)
