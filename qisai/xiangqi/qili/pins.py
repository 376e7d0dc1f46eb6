"""The AXF rule on a rook pinned by a horse (车被马牵制), for the repetition code.

A rook is *pinned by a horse* when it stands on the leg square (马腿) of an
enemy horse that, were the leg free, would attack the rook's own general: the
rook may not leave its square except by taking that horse.  The AXF rule book
(diagrams 39-41 and 105, as transcribed in the test data's AXF cases
``AXF-OX-043``-``045``, ``AXF-FSF-020``/``021``; spec ``docs/specs/qili.md``
§8 and Q7) rules on it in two ways, both kept here:

* such a rook is chased by any attack on it, protected or not: its roots do
  not count (it cannot take part in an exchange; "cannot chase this rook
  with any pieces") - :func:`rook_pinned_by_horse` lets the threat scan
  treat it as unprotected;
* when both sides chase perpetually, chasing a rook pinned by a horse
  weighs more than any other chase: that side must change and the other
  goes free ("长将 > 长捉被马牵制的车 > 长捉其他子") - :func:`pinned_rook_victims`
  and the verdict table in :func:`qisai.xiangqi.qili.verdict.decide`.

The CXA text has no such clause (spec §8.2); the profile field
``pinned_rook_chase_first`` turns both on (AXF) or off (CXA).
"""

from __future__ import annotations

from qisai.xiangqi.board import Board
from qisai.xiangqi.pieces import PieceType

__all__ = ["pinned_rook_victims", "rook_pinned_by_horse"]


def rook_pinned_by_horse(board: Board, sq: int) -> int | None:
    """Return the square of the enemy horse that pins the rook on ``sq``, or
    ``None`` (also for an empty square or a piece that is not a rook).

    The rook stands on the horse's leg and the horse's move over that leg
    lands on the rook's own general.
    """
    rook = board.piece_at(sq)
    if rook is None or rook.type is not PieceType.ROOK:
        return None
    king = board.king_square(rook.color)
    rf, rr = sq % 9, sq // 9
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        hf, hr = rf - df, rr - dr  # the horse is on the far side of its leg
        if not (0 <= hf < 9 and 0 <= hr < 10):
            continue
        h = hr * 9 + hf
        horse = board.piece_at(h)
        if horse is None or horse.type is not PieceType.HORSE or horse.color is rook.color:
            continue
        for pf, pr in ((dr, df), (-dr, -df)):
            tf, tr = rf + df + pf, rr + dr + pr
            if 0 <= tf < 9 and 0 <= tr < 10 and tr * 9 + tf == king:
                return h
    return None


def pinned_rook_victims(board: Board, targets: tuple[int, ...]) -> frozenset[int]:
    """Return those of ``targets`` (squares of chased pieces in ``board``)
    that hold a rook pinned by a horse."""
    return frozenset(t for t in targets if rook_pinned_by_horse(board, t) is not None)
