"""Move trees stored in pre-order, as XQF and CBR/CBL files keep them.

Both formats write one record per move in pre-order with two flags: "a next
move follows" and "an alternative to this move follows".  This module turns
such a list into a :class:`~qisai.xiangqi.pgn.Game` tree, checking every move.
"""

from __future__ import annotations

from typing import NamedTuple

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import RecordError
from qisai.xiangqi.pgn import Game, GameNode
from qisai.xiangqi.squares import Move


class PreorderMove(NamedTuple):
    """One stored move: its squares (``None`` if the stored value is off the
    board), the raw stored values, the two flags, its comment and byte offset."""

    src: int | None
    dst: int | None
    raw: tuple[int, int]
    has_next: bool
    has_alt: bool
    comment: str
    offset: int


def attach_preorder(game: Game, board: Board, records: list[PreorderMove], *, strict: bool,
                    prefix: str, error: type[RecordError]) -> None:
    """Attach pre-order ``records`` to ``game``, whose position ``board`` holds.

    Each move is checked for legality.  With ``strict`` an illegal move or an
    off-board square raises ``error`` ("<prefix> at byte B (ply P): ...");
    otherwise that move's subtree is dropped (its records are still consumed)
    and the message goes to ``game.errors``.  ``board`` is left at the
    position where the walk ended.
    """
    parent: GameNode | None = game  # None: inside a dropped subtree
    depth = 0  # ply of ``parent``
    waiting: list[tuple[GameNode | None, int]] = []  # parents of pending alternatives
    for rec in records:
        ply = depth + 1
        node: GameNode | None = None
        if parent is not None:
            if rec.src is None or rec.dst is None:
                problem = f"square out of the board ({rec.raw[0]} -> {rec.raw[1]})"
            else:
                move = Move(rec.src, rec.dst)
                if board.is_legal(move):
                    node = parent.add_variation(move, rec.comment)
                    problem = ""
                else:
                    problem = f"illegal move {move.iccs()} in position {board.fen()}"
            if node is None:
                message = f"{prefix} at byte {rec.offset} (ply {ply}): {problem}"
                if strict:
                    raise error(message)
                game.errors.append(message + "; variation dropped")
        if rec.has_alt:
            waiting.append((parent, depth))
        if rec.has_next:
            if node is not None and node.move is not None:
                board.push_unchecked(node.move)
            parent, depth = node, ply
        elif waiting:
            parent, depth = waiting.pop()
            while len(board.move_stack) > depth:
                board.pop()
