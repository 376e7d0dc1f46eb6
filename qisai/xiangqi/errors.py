"""Exceptions of the Xiangqi rules core.

Every error raised on bad input is a :class:`XiangqiError`, which is a
:class:`ValueError`, and its message says what was wrong and where (the FEN
field, the ply, the line of a file).
"""

from __future__ import annotations


class XiangqiError(ValueError):
    """Base class of every error the Xiangqi core raises on bad input."""


class FenError(XiangqiError):
    """A FEN string is malformed or describes an impossible position."""


class InvalidMoveError(XiangqiError):
    """A move string cannot be parsed (not a move in any notation)."""


class IllegalMoveError(XiangqiError):
    """A well-formed move that the rules forbid in the current position."""


class AmbiguousMoveError(XiangqiError):
    """A move in notation that matches more than one legal move.

    ``candidates`` holds the matching moves (ICCS strings).
    """

    def __init__(self, message: str, candidates: list[str]) -> None:
        super().__init__(message)
        self.candidates = candidates


class RecordError(XiangqiError):
    """A game record (PGN, XQF, CBL, ...) is malformed; the message says where."""
