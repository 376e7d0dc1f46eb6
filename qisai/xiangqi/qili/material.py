"""Material in the repetition code 棋例: piece values (25.3) as vectors.

25.3: "一车相当于双马、双炮或一马一炮；马炮相等；士相（象）相等；过河兵（卒）
价值浮动".  A value is a vector over the corners of the admissible values of
the floating pieces, so that a gain is *definite* (得子) only if it is a gain
whatever the advisor/elephant and the crossed pawn are worth.
"""

from __future__ import annotations

from qisai.xiangqi.pieces import Color, Piece, PieceType

__all__ = [
    "EPS",
    "MATED",
    "Vec",
    "ZERO",
    "definite",
    "piece_value",
    "vec_add",
    "vec_ge",
    "vec_max",
    "vec_min",
    "vec_sub",
]

Vec = tuple[float, float, float, float]
"""A material balance at the four corners of the admissible (w, p) box."""

EPS = 1e-3
# Corners (w, p): w = advisor/elephant value in (0, 1) against a horse = 1,
# p = crossed-pawn value in (0, 1] (25.3: "过河兵（卒）价值浮动").
_W: Vec = (EPS, EPS, 1 - EPS, 1 - EPS)
_P: Vec = (EPS, 1.0, EPS, 1.0)
ZERO: Vec = (0.0, 0.0, 0.0, 0.0)
_ONE: Vec = (1.0, 1.0, 1.0, 1.0)
_TWO: Vec = (2.0, 2.0, 2.0, 2.0)
MATED: Vec = (-100.0, -100.0, -100.0, -100.0)
"""The value of being mated: below any material balance."""


def vec_add(a: Vec, b: Vec) -> Vec:
    """Return ``a + b`` corner by corner."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def vec_sub(a: Vec, b: Vec) -> Vec:
    """Return ``a - b`` corner by corner."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def vec_max(a: Vec, b: Vec) -> Vec:
    """Return the larger of ``a`` and ``b`` at each corner."""
    return (max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def vec_min(a: Vec, b: Vec) -> Vec:
    """Return the smaller of ``a`` and ``b`` at each corner."""
    return (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def definite(v: Vec) -> bool:
    """Return whether ``v`` is a gain at every corner (a definite gain, 得子)."""
    return all(x > 1e-9 for x in v)


def vec_ge(a: Vec, b: Vec) -> bool:
    """Return whether ``a`` is at least ``b`` at every corner."""
    return all(x >= y - 1e-9 for x, y in zip(a, b, strict=True))


def _crossed(color: Color, sq: int) -> bool:
    # 25.3: a pawn counts as material only once it has crossed the river.
    rank = sq // 9
    return rank >= 5 if color is Color.RED else rank <= 4


def piece_value(piece: Piece | None, sq: int) -> Vec:
    """Return the material value (25.3) of ``piece`` standing on ``sq``.

    Rook 2, horse and cannon 1, advisor and elephant ``w`` (0 < w < 1), a
    crossed pawn ``p`` (0 < p <= 1), an uncrossed pawn and the general 0.
    Returns :data:`ZERO` for ``None``.
    """
    if piece is None:
        return ZERO
    t = piece.type
    if t is PieceType.ROOK:
        return _TWO
    if t is PieceType.HORSE or t is PieceType.CANNON:
        return _ONE
    if t is PieceType.ADVISOR or t is PieceType.ELEPHANT:
        return _W
    if t is PieceType.PAWN:
        return _P if _crossed(piece.color, sq) else ZERO
    return ZERO
