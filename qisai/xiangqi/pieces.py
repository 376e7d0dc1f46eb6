"""Xiangqi pieces: colours, piece types, the signed piece codes, :class:`Piece`.

Rule text: the national rules (seeds 000/001), chapter 1, clause 1.3.

Pieces are stored on the board as small signed ints: the absolute value is a
:class:`PieceType`, the sign the :class:`Color` (Red ``+1``, Black ``-1``), so
``piece * color > 0`` means "belongs to ``color``".
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from qisai.xiangqi.errors import FenError

__all__ = [
    "ADVISOR",
    "CANNON",
    "ELEPHANT",
    "HORSE",
    "KING",
    "PAWN",
    "ROOK",
    "Color",
    "Piece",
    "PieceType",
]


class Color(IntEnum):
    """Side: Red (红方, moves first, clause 2.1) or Black (黑方)."""

    RED = 1
    BLACK = -1

    @property
    def other(self) -> Color:
        """The opponent's colour."""
        return Color(-self.value)

    @property
    def chinese(self) -> str:
        """``红`` or ``黑``."""
        return "红" if self is Color.RED else "黑"


class PieceType(IntEnum):
    """The seven kinds of piece (clause 1.3)."""

    KING = 1  # 帅 / 将
    ADVISOR = 2  # 仕 / 士
    ELEPHANT = 3  # 相 / 象
    HORSE = 4  # 马
    ROOK = 5  # 车
    CANNON = 6  # 炮
    PAWN = 7  # 兵 / 卒


KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(1, 8)

_FEN_LETTER = {KING: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", ROOK: "r", CANNON: "c", PAWN: "p"}
# Accepted on input: some programs write E for the elephant and H for the horse.
_LETTER_TYPE = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
                "r": ROOK, "c": CANNON, "p": PAWN}
_CHINESE = {
    (KING, 1): "帅", (ADVISOR, 1): "仕", (ELEPHANT, 1): "相", (HORSE, 1): "马",
    (ROOK, 1): "车", (CANNON, 1): "炮", (PAWN, 1): "兵",
    (KING, -1): "将", (ADVISOR, -1): "士", (ELEPHANT, -1): "象", (HORSE, -1): "马",
    (ROOK, -1): "车", (CANNON, -1): "炮", (PAWN, -1): "卒",
}
_ENGLISH = {KING: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
            ROOK: "chariot", CANNON: "cannon", PAWN: "soldier"}


class Piece(NamedTuple):
    """A piece: its type and colour."""

    type: PieceType
    color: Color

    def symbol(self) -> str:
        """FEN letter: upper case for Red (``R``), lower case for Black (``r``)."""
        letter = _FEN_LETTER[self.type]
        return letter.upper() if self.color is Color.RED else letter

    def chinese(self) -> str:
        """The Chinese character used in notation (帅仕相马车炮兵 / 将士象马车炮卒)."""
        return _CHINESE[(int(self.type), int(self.color))]

    def english(self) -> str:
        """English name (general, advisor, elephant, horse, chariot, cannon, soldier)."""
        return _ENGLISH[self.type]

    @classmethod
    def from_symbol(cls, letter: str) -> Piece:
        """Parse a FEN letter (``E``/``H`` accepted for elephant/horse).

        Raises :class:`FenError` for any other character.
        """
        t = _LETTER_TYPE.get(letter.lower())
        if t is None or len(letter) != 1:
            raise FenError(f"未知的棋子字母 {letter!r}", f"unknown piece letter {letter!r}")
        return cls(PieceType(t), Color.RED if letter.isupper() else Color.BLACK)

    def value(self) -> int:
        """The signed int stored on the board."""
        return int(self.type) * int(self.color)

