"""Move trees stored in pre-order, as XQF and CBR/CBL files keep them.

Both formats write one record per move in pre-order with two flags: "a next
move follows" and "an alternative to this move follows".  This module turns
such a list into a :class:`~qisai.xiangqi.pgn.Game` tree, checking every move.
"""

from __future__ import annotations

import re
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


_PLACES = ((re.compile(r"(CB[LR]) game (\d+) \(byte (\d+)\)"), r"\1 第 \2 局（第 \3 字节）"),
           (re.compile(r"CBF move (\d+) \((.*)\)$"), r"CBF 第 \1 着（\2）"),
           (re.compile(r"XQF record"), "XQF 记录"), (re.compile(r": node$"), "：节点"))


def where_zh(where: str) -> str:
    """Return a record reader's place words (``CBL game 3 (byte 512)``,
    ``CBF move 4 ('77-47')``, ``XQF record``) in Chinese, for the Chinese
    text of its errors."""
    for pattern, words in _PLACES:
        where = pattern.sub(words, where)
    return where


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
                    if rec.src is None or rec.dst is None:
                        problem_zh = f"点在棋盘外（{rec.raw[0]} -> {rec.raw[1]}）"
                    else:
                        problem_zh = f"局面 {board.fen()} 中 {move.iccs()} 不合规则"
                    raise error(f"{where_zh(prefix)}第 {rec.offset} 字节（第 {ply} 步）："
                                f"{problem_zh}", message)
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
