"""Positions of the analysis board, by the rules cores: a start position and
a line of moves in, the position after them out (with its legal moves and
notation), every move checked; an illegal move is refused with the rule it
breaks, in both languages (:mod:`qisai.web.play.explain`).

Xiangqi: a FEN and ICCS moves (``h2e2``); Go: a board size or an SGF (its
set-up and main line are the start) and GTP points (``D4``, ``pass``).
Nothing here keeps state: the page holds the tree of variations and asks
for each position by its path from the root.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qisai.web.play import explain

__all__ = ["MAX_MOVES", "MAX_SGF", "PositionError", "go_board", "go_position", "xiangqi_position"]

MAX_MOVES = 600
"""The longest line (moves from the root) the board replays."""


@dataclass
class PositionError(Exception):
    """A position or move refused: the HTTP-like ``status`` (400 bad input,
    422 illegal move) and the reason as ``{code, zh, en, clause}``; ``ply``
    is the number of the refused move in the line (1 = the first), if any."""

    status: int
    reason: dict[str, str]
    ply: int | None = None

    def body(self) -> dict[str, Any]:
        """The refusal as the API sends it (``detail`` in English)."""
        return {"detail": self.reason["en"], **self.reason, "ply": self.ply}


def _bad(message_en: str, message_zh: str, code: str = "analysis_input") -> PositionError:
    return PositionError(400, {"code": code, "zh": message_zh, "en": message_en, "clause": ""})


_SQUARES = [f"{'abcdefghi'[sq % 9]}{sq // 9}" for sq in range(90)]


def xiangqi_position(fen: str | None, moves: list[str]) -> dict[str, Any]:
    """Return the Xiangqi position after ``moves`` from ``fen`` (``None``:
    the start): ``fen``, ``legal`` (from-square -> to-squares), ``check``,
    ``over`` (checkmate or stalemate: 2.4, 4.1.1), ``last``, and per move
    ``texts`` (Chinese notation) and ``fens``.  Raises
    :class:`PositionError` for a bad FEN or an illegal move (its rule)."""
    from qisai.xiangqi import Board, Move
    from qisai.xiangqi.notation import format as fmt

    if len(moves) > MAX_MOVES:
        raise _bad(f"at most {MAX_MOVES} moves from the root", f"从起点最多 {MAX_MOVES} 着")
    try:
        board = Board(fen) if fen else Board()
    except ValueError as exc:
        raise _bad(f"FEN: {exc}", f"FEN 有误：{exc}", "analysis_fen") from None
    texts: list[str] = []
    fens: list[str] = []
    for i, text in enumerate(moves, 1):
        why = explain.xiangqi_why(board, str(text))
        if why is not None:
            raise PositionError(422, why, i)
        mv = Move.from_iccs(str(text))
        texts.append(fmt(board, mv, "chinese"))
        board.push(mv)
        fens.append(board.fen())
    legal: dict[str, list[str]] = {}
    for mv in board.legal_moves():
        legal.setdefault(_SQUARES[mv.from_square], []).append(_SQUARES[mv.to_square])
    last = board.peek()
    return {"kind": "xiangqi", "fen": board.fen(), "legal": legal, "check": board.is_check(),
            "over": not legal, "last": None if last is None else last.iccs(),
            "to_move": "first" if board.turn.name == "RED" else "second",
            "texts": texts, "fens": fens}


MAX_SGF = 64 * 1024
"""The largest SGF the board reads (characters)."""


def go_board(size: int | None, sgf: str | None) -> Any:
    """Return the Go board to start from: the SGF's set-up and main line
    played out, else an empty board of ``size`` (2-25).  Raises
    :class:`PositionError` for a bad size or SGF."""
    from qisai.go import Board
    from qisai.go.sgf import read_sgf, replay

    if sgf:
        if len(sgf) > MAX_SGF:
            raise _bad(f"SGF: at most {MAX_SGF} characters", f"SGF 最多 {MAX_SGF} 个字符")
        try:
            game = read_sgf(sgf)
            if game.size > 25 or len(game.main_line()) > MAX_MOVES + 1:
                raise ValueError(f"at most 25x25 and {MAX_MOVES} moves")
            return replay(game, strict_turn=False)
        except Exception as exc:  # any error of a hostile file is a bad input
            raise _bad(f"SGF: {exc}", f"SGF 有误：{exc}", "analysis_sgf") from None
    if size is None or not 2 <= size <= 25:
        raise _bad("size: a board of 2 to 25 lines", "棋盘大小应为 2 至 25 路")
    return Board(size)


def go_position(size: int | None, sgf: str | None, moves: list[str],
                komi: float = 7.5) -> dict[str, Any]:
    """Return the Go position after ``moves`` (GTP points or ``pass``) from
    the start :func:`go_board` gives: ``size``, ``grid`` (top row first,
    ``b``/``w``/``.``), ``forbidden`` points with their reason (Go 10:
    suicide, ko), ``to_move``, ``last``, ``captures`` and the line as
    ``sgf``.  Raises :class:`PositionError` for an illegal move (its rule)."""
    from qisai.go import Color, coords
    from qisai.go.sgf import game_from_board

    if len(moves) > MAX_MOVES:
        raise _bad(f"at most {MAX_MOVES} moves from the root", f"从起点最多 {MAX_MOVES} 着")
    board = go_board(size, sgf)
    n = board.size
    for i, text in enumerate(moves, 1):
        name = str(text).strip()
        try:
            point = coords.parse_gtp(name, n)
        except ValueError:  # CoordinateError too
            raise PositionError(400, {**explain.text("refused", f"{name[:8]!r} is not a point"),
                                      "code": "analysis_point"}, i) from None
        if point is not None:
            reason = board.legal_reason(point)
            if reason is not None:
                raise PositionError(422, explain.text(f"go_{reason.name.lower()}"), i)
        board.play(point)
    grid = []
    for r in range(n - 1, -1, -1):
        grid.append("".join("." if (c := board.get((r, col))) is None
                            else ("b" if c.name == "BLACK" else "w") for col in range(n)))
    last = board.last_move()
    last_name = None
    if last is not None and not last.setup:
        last_name = "pass" if last.is_pass else coords.gtp_name(last.point, n)
    return {"kind": "go", "size": n, "grid": grid, "forbidden": explain.go_forbidden(board),
            "to_move": "first" if board.to_move.name == "BLACK" else "second",
            "last": last_name,
            "captures": {"first": board.captures(Color.BLACK),
                         "second": board.captures(Color.WHITE)},
            "sgf": game_from_board(board, komi=komi).to_sgf()}
