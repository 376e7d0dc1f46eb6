"""Exceptions of the Xiangqi rules core.

Every error raised on bad input is a :class:`XiangqiError`, which is a
:class:`ValueError`, and its message says what was wrong and where (the FEN
field, the ply, the line of a file), in Chinese and in English (issue
32.8): each takes ``(zh, en)`` as :class:`~qisai.bilingual.BilingualError`
does, ``str()`` gives ``"中文 / English"``, ``.zh`` and ``.en`` each one.
"""

from __future__ import annotations

from qisai.bilingual import BilingualError


class XiangqiError(BilingualError):
    """Base class of every error the Xiangqi core raises on bad input (a
    :class:`ValueError` with a Chinese and an English text)."""


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

    def __init__(self, zh: str, en: str, candidates: list[str]) -> None:
        super().__init__(zh, en)
        self.candidates = candidates


class RecordError(XiangqiError):
    """A game record (PGN, XQF, CBL, ...) is malformed; the message says where."""
