"""The natural move limit (自然限着, 4.2.4) and the audit of a claim (23.3).

4.2.4: a game is drawn when in 60 consecutive moves (回合; an event may
lower the number) neither side has captured a piece.  23.3: a player may
claim it; the arbiter audits the count, and of the claimant's moves that
check the opponent at most 10 are counted.

>>> from qisai.xiangqi.board import Board
>>> b = Board("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
>>> natural_limit_reached(b)
False
"""

from __future__ import annotations

from dataclasses import dataclass

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color

__all__ = [
    "DEFAULT_LIMIT_MOVES",
    "MAX_COUNTED_CHECKS",
    "LimitAudit",
    "audit_limit_claim",
    "natural_limit_reached",
    "plies_without_capture",
]

DEFAULT_LIMIT_MOVES = 60  # 4.2.4: "连续60个回合"
MAX_COUNTED_CHECKS = 10  # 23.3: "提出方对非提出方将军的着数，最多只计10着"


def plies_without_capture(board: Board) -> int:
    """Return the number of half-moves since the last capture (the board's
    half-move clock: its history plus the FEN's clock when the history holds
    no capture)."""
    return board.halfmove_clock


def natural_limit_reached(board: Board, limit_moves: int = DEFAULT_LIMIT_MOVES) -> bool:
    """Return whether ``limit_moves`` moves (回合, two plies each) have passed
    without a capture (4.2.4).

    Raises :class:`ValueError` if ``limit_moves`` is not positive.
    """
    if limit_moves < 1:
        raise XiangqiError(f"自然限着应为正数，不是 {limit_moves}",
                           f"the move limit must be positive, not {limit_moves}")
    return plies_without_capture(board) >= 2 * limit_moves


@dataclass(frozen=True, slots=True)
class LimitAudit:
    """The arbiter's count for a natural-limit claim (23.3).

    Attributes:
        claimant: the side that claims.
        limit_moves: the event's limit (4.2.4).
        claimant_moves / opponent_moves: moves of each side since the last
            capture; ``claimant_checks`` how many of the claimant's checked.
        counted_moves: the rounds that count: the claimant's moves with at
            most ``MAX_COUNTED_CHECKS`` checks among them, and no more than
            the opponent's moves.
        unaudited_plies: plies before the recorded history (from the FEN's
            half-move clock) whose checks cannot be audited; counted as plain
            moves.
        valid: whether the claim holds (then the game is drawn, 23.3).
        clause, explanation_zh, explanation_en: for the verdict.
    """

    claimant: Color
    limit_moves: int
    claimant_moves: int
    claimant_checks: int
    opponent_moves: int
    counted_moves: int
    unaudited_plies: int
    valid: bool
    clause: str
    explanation_zh: str
    explanation_en: str


def audit_limit_claim(board: Board, claimant: Color,
                      limit_moves: int = DEFAULT_LIMIT_MOVES,
                      max_counted_checks: int = MAX_COUNTED_CHECKS) -> LimitAudit:
    """Audit ``claimant``'s claim of the natural move limit (4.2.4, 23.3).

    Replays the board's history since the last capture, counting each
    side's moves and the claimant's checks, of which at most
    ``max_counted_checks`` count.  Returns the :class:`LimitAudit`; the
    referee draws the game when ``valid`` and otherwise penalises the claim
    (23.3).  Raises :class:`ValueError` if ``limit_moves`` is not positive or
    ``max_counted_checks`` is negative.
    """
    if limit_moves < 1:
        raise XiangqiError(f"自然限着应为正数，不是 {limit_moves}",
                           f"the move limit must be positive, not {limit_moves}")
    if max_counted_checks < 0:
        raise XiangqiError("max_counted_checks（计入的将军数上限）不能为负",
                           "max_counted_checks must not be negative")
    b = board.root()
    moves = list(board.move_stack)
    # Plies before the recorded history that are still without a capture.
    unaudited = b.halfmove_clock
    first_mover_before = b.turn
    claimant_moves = opponent_moves = checks = 0
    for m in moves:
        mover = b.turn
        if b.is_capture(m):
            # 4.2.4 counts moves in which nobody captured: the count starts
            # after the capture, as the half-move clock does.
            claimant_moves = opponent_moves = checks = unaudited = 0
            b.push_unchecked(m)
            continue
        b.push_unchecked(m)
        if mover is claimant:
            claimant_moves += 1
            if b.is_check():
                checks += 1
        else:
            opponent_moves += 1
    # Unaudited plies alternate sides, ending with the side before the root's mover.
    if unaudited:
        mine = unaudited // 2 + (unaudited % 2 if first_mover_before is not claimant else 0)
        claimant_moves += mine
        opponent_moves += unaudited - mine
    counted_claimant = claimant_moves - checks + min(checks, max_counted_checks)
    counted = min(counted_claimant, opponent_moves)
    valid = counted >= limit_moves
    side_zh = claimant.chinese + "方"
    side_en = claimant.name.capitalize()
    if valid:
        zh = (f"{side_zh}提出自然限着，审核属实：连续{counted}个回合双方均未吃子"
              f"（将军最多计{max_counted_checks}着），判和（4.2.4、23.3）")
        en = (f"{side_en}'s claim of the {limit_moves}-move limit holds: {counted} moves "
              f"without a capture (at most {max_counted_checks} checks counted); "
              "draw (4.2.4, 23.3)")
    else:
        zh = (f"{side_zh}提出自然限着，审核不属实：只计{counted}个回合（限{limit_moves}），"
              "判提出方犯规一次，加计5分钟（23.3）")
        en = (f"{side_en}'s claim does not hold: only {counted} of {limit_moves} moves "
              "count; the claim is a foul and costs 5 minutes (23.3)")
    return LimitAudit(claimant, limit_moves, claimant_moves, checks, opponent_moves, counted,
                      unaudited, valid, "23.3", zh, en)
