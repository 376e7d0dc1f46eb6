"""Xiangqi (象棋) rules: board, moves, notation, records.  Pure: no I/O.

>>> from qisai.xiangqi import Board, Move
>>> b = Board()
>>> len(b.legal_moves())
44
>>> b.push(Move.from_iccs("h2e2"))
>>> b.fen()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
"""

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    RecordError,
    XiangqiError,
)
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pieces import Color, Piece, PieceType
from qisai.xiangqi.squares import Move, square, square_file, square_name, square_rank

__all__ = [
    "STARTING_FEN",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "Piece",
    "PieceType",
    "RecordError",
    "XiangqiError",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]
