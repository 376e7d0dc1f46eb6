"""Checks and mates by checks in the repetition code 棋例 (28.1, 28.2).

:func:`mate_by_checks` finds a forced mate in which every move is a check
(28.2 "下一着照将或连续照将，将死对方").  Every search counts nodes against a
:class:`NodeBudget`; when it runs out the answer is "no mate": the
conservative answer, which can only make a move idle, never forbidden.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from qisai.xiangqi.board import Board
from qisai.xiangqi.squares import Move

__all__ = ["NodeBudget", "checking_moves", "mate_by_checks"]


def _near(a: int, b: int) -> bool:
    return abs(a % 9 - b % 9) <= 1 and abs(a // 9 - b // 9) <= 1


def _horse_distance(a: int, b: int) -> bool:
    df, dr = abs(a % 9 - b % 9), abs(a // 9 - b // 9)
    return (df, dr) in ((1, 2), (2, 1))


def _may_check(f: int, t: int, k: int) -> bool:
    """Cheap geometric filter: can moving a piece from ``f`` to ``t`` check
    the general on ``k`` (directly, by discovery, as a cannon screen, by
    unblocking a horse leg or by opening the generals' file)?"""
    kf, kr = k % 9, k // 9
    return (f % 9 == kf or f // 9 == kr or t % 9 == kf or t // 9 == kr
            or _near(f, k) or _near(t, k) or _horse_distance(t, k))


def checking_moves(board: Board, moves: Iterable[Move] | None = None) -> list[Move]:
    """Return the legal moves of the side to move that give check (将, 28.1).

    ``moves`` restricts the candidates (default: all legal moves).
    """
    k = board.king_square(board.turn.other)
    out: list[Move] = []
    for m in board.legal_moves() if moves is None else moves:
        if not _may_check(m.from_square, m.to_square, k):
            continue
        board.push_unchecked(m)
        if board.is_check():
            out.append(m)
        board.pop()
    return out



@dataclass
class NodeBudget:
    """The nodes a search may still visit."""

    left: int

    def take(self) -> bool:
        """Spend one node; return whether the budget allowed it."""
        self.left -= 1
        return self.left >= 0


def _mate(board: Board, checks: int, budget: NodeBudget) -> list[Move] | None:
    for x in checking_moves(board):
        if not budget.take():
            return None
        board.push_unchecked(x)
        replies = board.legal_moves()
        if not replies:
            board.pop()
            return [x]
        if checks > 1:
            line: list[Move] | None = None
            for y in replies:
                board.push_unchecked(y)
                sub = _mate(board, checks - 1, budget)
                board.pop()
                if sub is None:
                    line = None
                    break
                if line is None:
                    line = [y, *sub]
            if line is not None:
                board.pop()
                return [x, *line]
        board.pop()
    return None


def mate_by_checks(board: Board, max_checks: int, budget: int = 600) -> list[Move] | None:
    """Return a forced mate of the side to move in which every one of its
    moves is a check (28.2 "下一着照将或连续照将，将死对方"), or ``None``.

    Tries 1, 2, ... ``max_checks`` checks and returns the first line found
    (attacker's and defender's moves alternating).  Returns ``None`` when
    the side to move is itself in check, or when ``budget`` nodes run out.
    """
    if board.is_check():
        return None
    b = board.copy(stack=False)
    spent = NodeBudget(budget)
    for depth in range(1, max_checks + 1):
        line = _mate(b, depth, spent)
        if line is not None:
            return line
        if spent.left <= 0:
            return None
    return None

