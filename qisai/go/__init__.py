"""Rules of Go (围棋), pure: no I/O, no printing, no clocks.

The pieces a referee or an engine needs::

    from qisai.go import Board, CHINESE, score, estimate_dead, read_sgf, replay

    board = Board(19, CHINESE)          # positional superko, no suicide
    board.play("Q16"); board.play((3, 3)); board.pass_move(); board.undo()
    board.legal_points()                # every legal point for the side to move
    board.is_game_over()                # two passes in succession (then confirm, 4(4))
    count = score(board, dead=estimate_dead(board))
    count.result.sgf(), count.result.chinese()   # "W+0.5", "白胜1/4子"

Modules: :mod:`~qisai.go.board` (play, captures, ko/superko, undo, set-up),
:mod:`~qisai.go.scoring` (数子 and 数目, results), :mod:`~qisai.go.deadstones`
(Benson, Monte Carlo ownership), :mod:`~qisai.go.sgf` (FF[4] read/write),
:mod:`~qisai.go.svg` (pictures), :mod:`~qisai.go.coords` (point names),
:mod:`~qisai.go.rules` (rule settings), :mod:`~qisai.go.move` (record entries),
:mod:`~qisai.go.errors`.
"""

from __future__ import annotations

from qisai.go.board import Board
from qisai.go.coords import (
    Point,
    gtp_name,
    handicap_points,
    parse_gtp,
    parse_sgf_point,
    sgf_name,
    star_points,
)
from qisai.go.deadstones import DeadMarks, benson_alive, estimate_dead, ownership
from qisai.go.errors import (
    BoardSizeError,
    CoordinateError,
    GoError,
    IllegalMoveError,
    IllegalReason,
    ScoringError,
    SetupError,
    SgfError,
    UndoError,
)
from qisai.go.move import Move
from qisai.go.rules import (
    AGA,
    CHINESE,
    ING,
    JAPANESE,
    KATAGO_TERRITORY,
    PRESETS,
    TROMP_TAYLOR,
    Color,
    KoRule,
    Rules,
    Scoring,
)
from qisai.go.scoring import (
    Result,
    ResultReason,
    Score,
    area_result,
    find_fill_points,
    find_seki,
    score,
)
from qisai.go.sgf import SgfGame, SgfNode, first_illegal, game_from_board, read_sgf, replay
from qisai.go.svg import board_svg

__all__ = [
    "Board", "Move", "Point", "gtp_name", "parse_gtp", "sgf_name", "parse_sgf_point",
    "star_points", "handicap_points", "DeadMarks", "benson_alive", "estimate_dead", "ownership",
    "GoError", "BoardSizeError", "CoordinateError", "IllegalMoveError", "IllegalReason",
    "ScoringError", "SetupError", "SgfError", "UndoError", "CHINESE", "JAPANESE",
    "TROMP_TAYLOR", "KATAGO_TERRITORY", "ING", "AGA", "PRESETS", "Color", "KoRule", "Rules", "Scoring", "Result",
    "ResultReason", "Score", "area_result", "find_fill_points", "find_seki", "score", "SgfGame", "SgfNode",
    "first_illegal", "game_from_board", "read_sgf", "replay", "board_svg",
]
