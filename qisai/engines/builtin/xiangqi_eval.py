"""Evaluation of qisai's built-in Xiangqi engine: material and placement.

A position is scored by summing one table per piece kind: the piece's value
plus a bonus for where it stands (Red's view; Black's tables are mirrored).
Values are in centipawns, a soldier before the river being 30-ish and a
chariot 600, after the usual proportions of Xiangqi programs.  The sum is
kept incrementally by the search (:data:`TABLE` is indexed ``[piece + 7][sq]``
with the signed piece of :mod:`qisai.xiangqi.board`).
"""

from __future__ import annotations

from qisai.xiangqi.pieces import ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK

__all__ = ["MATERIAL", "TABLE", "evaluate_red"]

MATERIAL = {KING: 0, ADVISOR: 120, ELEPHANT: 120, HORSE: 270, ROOK: 600, CANNON: 285, PAWN: 30}


def _bonus(kind: int, file: int, rank: int) -> int:
    """Placement bonus for a Red piece on (file, rank), rank 0 = Red's back rank."""
    centre = 4 - abs(file - 4)  # 0 at the edge .. 4 on the central file
    if kind == PAWN:
        if rank <= 4:
            # Before the river only the pawns on files c, e, g matter a little.
            return 5 if file in (2, 4, 6) and rank == 4 else 0
        if rank == 9:
            return 10  # 老兵: a soldier on the last rank does little
        # Crossed: worth more, most near the palace (ranks 6-8, files d-f).
        near = 3 <= file <= 5
        return 30 + (25 if near else 10) + (12 if rank in (6, 7, 8) else 0) + centre * 3
    if kind == HORSE:
        # Horses want the centre and the enemy side; trapped on the edge or
        # at home they are weak.
        advance = min(rank, 7) * 6
        edge = -25 if file in (0, 8) else 0
        home = -10 if rank == 0 else 0
        return centre * 8 + advance + edge + home
    if kind == ROOK:
        open_ = 10 if rank >= 5 else 0
        rib = 12 if file in (3, 5) else 0
        return open_ + rib + (rank == 8) * 15 + centre * 2
    if kind == CANNON:
        central = 25 if file == 4 and rank <= 3 else 0
        return central + (rank == 2) * 5 + centre * 3 - (rank >= 8) * 10
    if kind == KING:
        return -15 * rank - 8 * abs(file - 4)
    if kind in (ADVISOR, ELEPHANT):
        return 8 if file == 4 else 0
    return 0


def _build() -> tuple[tuple[int, ...], ...]:
    rows: list[tuple[int, ...]] = []
    for signed in range(-7, 8):
        kind = abs(signed)
        row = []
        for sq in range(90):
            if kind == 0:
                row.append(0)
                continue
            f, r = sq % 9, sq // 9
            if signed > 0:
                row.append(MATERIAL[kind] + _bonus(kind, f, r))
            else:
                row.append(-(MATERIAL[kind] + _bonus(kind, 8 - f, 9 - r)))
        rows.append(tuple(row))
    return tuple(rows)


TABLE = _build()
"""``TABLE[piece + 7][square]``: signed score contribution (Red positive)."""


def evaluate_red(pieces: list[int]) -> int:
    """Return the score of a board given as 90 signed piece ints (Red's view)."""
    return sum(TABLE[p + 7][sq] for sq, p in enumerate(pieces) if p)
