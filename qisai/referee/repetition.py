"""Repetition rulings for Xiangqi (棋例): the interface the referee calls.

The referee detects a repetition itself: the position (placement and side to
move, the Zobrist key) occurring ``repetition_count`` times since the last
capture (4.2.3, 23.2, 24) and since the latest order to change (24.3: after
an order a new cycle is judged on its own).  It then asks a
:data:`RepetitionJudge` to rule on the window of moves from the first
occurrence to now.  It also keeps the orders to change: a ruling against one
side that is not perpetual check orders the change (24.3, 26.4), and the
side loses only when the position of the order recurs and the judge rules
the cycle since the order against it again.

:func:`default_judge` is :func:`qili_judge`, which hands the window to the
repetition code module :mod:`qisai.xiangqi.qili` (将/杀/捉/闲 for every move,
26.1-26.4, CXA or AXF).  :func:`checks_only_judge` is a simpler judge that
sees checks only (one-sided perpetual check, 24.1, 26.1); it is kept for
callers that want a fast, conservative ruling and says in every ruling that
chases and mate threats were not classified.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from qisai.referee.rulesets import RepetitionCode
from qisai.referee.verdict import Side
from qisai.xiangqi.board import Board
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.cycle import judge
from qisai.xiangqi.qili.rulings import CycleKind
from qisai.xiangqi.squares import Move

__all__ = [
    "RepetitionJudge",
    "RepetitionQuery",
    "RepetitionRuling",
    "RulingKind",
    "checks_only_judge",
    "default_judge",
    "qili_judge",
]


@dataclass(frozen=True)
class RepetitionQuery:
    """A repeated window: from ``start_fen`` (first occurrence of the
    repeated position) the ``moves`` return to it ``count - 1`` times."""

    start_fen: str
    moves: tuple[Move, ...]
    count: int
    code: RepetitionCode
    required: int = 3
    """The occurrence at which the arbiter first rules on this window: the
    rule profile's repetition count (4.2.3: three times), or more when the
    ruling waited for a claim.  The referee passes ``count``: whether an
    order to change was disobeyed (24.3) is the referee's to decide, so a
    judge should order the change here rather than rule a loss (24.1
    perpetual check aside)."""


class RulingKind(enum.Enum):
    """What a repetition ruling decides."""

    DRAW = "draw"
    """不变作和 (24.2, 26.2, 26.3)."""
    LOSES = "loses"
    """``side`` loses now (24.1: one-sided perpetual check).  A loss that is
    not perpetual check is read by the referee as an order to change when no
    order was given (24.3)."""
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
    full_zh: str = ""
    """The whole reasoning, move by move (for the UI), if the judge gives one."""
    full_en: str = ""


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


def qili_judge(query: RepetitionQuery) -> RepetitionRuling:
    """Rule on ``query`` with the repetition code :func:`qisai.xiangqi.qili.cycle.judge`.

    The window is replayed from ``start_fen``; the 棋例 module classifies
    every move and applies 26.1-26.4 and 24.1-24.3 under the CXA or AXF
    profile.  Raises :class:`qisai.xiangqi.errors.XiangqiError` if the moves
    do not replay, :class:`ValueError` if the window is not a repetition.
    """
    board = Board(query.start_fen)
    for move in query.moves:
        board.push(move)
    ruling = judge(board, query.code.value, occurrences=query.required)
    if ruling is None:
        raise ValueError(f"no repetition after {len(query.moves)} moves from {query.start_fen}")
    verdict_zh = ruling.explanation_zh.splitlines()[-1]
    verdict_en = ruling.explanation_en.splitlines()[-1]
    loser, changer = ruling.verdict.loser, ruling.verdict.must_change
    if loser is not None:
        perpetual = ruling.status(loser).kind is CycleKind.PERPETUAL_CHECK
        return RepetitionRuling(RulingKind.LOSES, _side(loser), perpetual, ruling.clause,
                                verdict_zh, verdict_en, ruling.explanation_zh, ruling.explanation_en)
    if changer is not None:
        return RepetitionRuling(RulingKind.MUST_CHANGE, _side(changer), False, ruling.clause,
                                verdict_zh, verdict_en, ruling.explanation_zh, ruling.explanation_en)
    return RepetitionRuling(RulingKind.DRAW, None, False, ruling.clause, verdict_zh, verdict_en,
                            ruling.explanation_zh, ruling.explanation_en)


def default_judge(query: RepetitionQuery) -> RepetitionRuling:
    """Rule on ``query`` with the 棋例 module (:func:`qili_judge`)."""
    return qili_judge(query)
