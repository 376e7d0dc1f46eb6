"""Precomputed Xiangqi tables: move geometry, legal points, danger maps, Zobrist keys.

Rule text: the national rules (seeds 000/001), chapter 1 and clause 2.

Everything the move generator of :class:`~qisai.xiangqi.board.Board` needs
per square is a tuple built once, so the hot loops never test board edges.
"""

from __future__ import annotations

import random

from qisai.xiangqi.pieces import ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK
from qisai.xiangqi.squares import square

__all__ = [
    "ADVISOR_STEPS",
    "ELEPHANT_STEPS",
    "HORSE_ATTACKERS",
    "HORSE_STEPS",
    "KING_STEPS",
    "MAX_PIECES",
    "PAWN_ATTACKERS",
    "PAWN_STEPS",
    "RAYS",
    "ZOBRIST",
    "ZOBRIST_BLACK",
]

def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 9 and 0 <= r < 10


def _in_palace(f: int, r: int) -> bool:
    # 1.2: the palace (九宫) is files d-f, ranks 0-2 (Red) or 7-9 (Black).
    return 3 <= f <= 5 and (0 <= r <= 2 or 7 <= r <= 9)


def _own_half(r: int, red: bool) -> bool:
    return r <= 4 if red else r >= 5


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for sq in range(90):
        f, r = sq % 9, sq // 9
        dirs = []
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            ray = []
            nf, nr = f + df, r + dr
            while _on_board(nf, nr):
                ray.append(square(nf, nr))
                nf += df
                nr += dr
            dirs.append(tuple(ray))
        rays.append(tuple(dirs))
    return tuple(rays)


RAYS = _build_rays()
# The vertical rays only (up, down): generals face each other only on a file.
_KING_STEPS: list[tuple[int, ...]] = []
_ADVISOR_STEPS: list[tuple[int, ...]] = []
_ELEPHANT_STEPS: list[tuple[tuple[int, int], ...]] = []
_HORSE_STEPS: list[tuple[tuple[int, int], ...]] = []
_HORSE_ATTACKERS: list[tuple[tuple[int, int], ...]] = []
for _sq in range(90):
    _f, _r = _sq % 9, _sq // 9
    _KING_STEPS.append(tuple(square(_f + df, _r + dr) for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                             if _in_palace(_f + df, _r + dr) and _in_palace(_f, _r)))
    _ADVISOR_STEPS.append(tuple(square(_f + df, _r + dr) for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
                                if _in_palace(_f + df, _r + dr) and _in_palace(_f, _r)))
    # 2.4: the elephant moves two points diagonally, not across the river and
    # not when the eye (象眼) is occupied.
    _ELEPHANT_STEPS.append(tuple(
        (square(_f + df, _r + dr), square(_f + 2 * df, _r + 2 * dr))
        for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))
        if _on_board(_f + 2 * df, _r + 2 * dr) and (_r <= 4) == (_r + 2 * dr <= 4)))
    # 2.5: the horse moves one point orthogonally then one diagonally outward;
    # blocked when the first point (马腿) is occupied.
    _hs = []
    _ha = []
    for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
        if not _on_board(_f + df, _r + dr):
            continue
        leg_from = square(_f + (df // 2 if abs(df) == 2 else 0), _r + (dr // 2 if abs(dr) == 2 else 0))
        _hs.append((leg_from, square(_f + df, _r + dr)))
        # A horse at (f+df, r+dr) attacking this square has its leg next to
        # itself, one step back towards us along the long leg of the L.
        hf, hr = _f + df, _r + dr
        leg_to = square(hf - (df // 2 if abs(df) == 2 else 0), hr - (dr // 2 if abs(dr) == 2 else 0))
        _ha.append((square(hf, hr), leg_to))
    _HORSE_STEPS.append(tuple(_hs))
    _HORSE_ATTACKERS.append(tuple(_ha))

KING_STEPS = tuple(_KING_STEPS)
ADVISOR_STEPS = tuple(_ADVISOR_STEPS)
ELEPHANT_STEPS = tuple(_ELEPHANT_STEPS)
HORSE_STEPS = tuple(_HORSE_STEPS)
HORSE_ATTACKERS = tuple(_HORSE_ATTACKERS)


def _pawn_steps(red: bool) -> tuple[tuple[int, ...], ...]:
    # 2.7: a soldier moves one point forward; after crossing the river it may
    # also move one point sideways; it never moves back.
    out = []
    fwd = 1 if red else -1
    for sq in range(90):
        f, r = sq % 9, sq // 9
        steps = []
        if _on_board(f, r + fwd):
            steps.append(square(f, r + fwd))
        if not _own_half(r, red):
            for df in (1, -1):
                if _on_board(f + df, r):
                    steps.append(square(f + df, r))
        out.append(tuple(steps))
    return tuple(out)


PAWN_STEPS = {1: _pawn_steps(True), -1: _pawn_steps(False)}
# PAWN_ATTACKERS[c][sq]: squares from which a soldier of colour c attacks sq.
PAWN_ATTACKERS = {c: tuple(tuple(p for p in range(90) if sq in PAWN_STEPS[c][p]) for sq in range(90))
                  for c in (1, -1)}


def _legal_square(ptype: int, color: int, sq: int) -> bool:
    """Whether a piece of this kind may ever stand on ``sq`` (1.2, 2.2-2.7)."""
    f, r = sq % 9, sq // 9
    red = color == 1
    if ptype == KING:
        return _in_palace(f, r) and _own_half(r, red)
    if ptype == ADVISOR:
        return _in_palace(f, r) and _own_half(r, red) and (f + r) % 2 == (1 if red else 0)
    if ptype == ELEPHANT:
        rr = r if red else 9 - r
        return _own_half(r, red) and (f, rr) in {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
    if ptype == PAWN:
        rr = r if red else 9 - r
        return rr >= 5 or (rr >= 3 and f % 2 == 0)
    return True


# Danger maps for the legality fast path: when the side to move is not in
# check, a move can only expose its general if it leaves or enters a line
# through the general (rook, cannon screen, facing generals) or leaves a
# horse-leg point next to it.
_LINE = tuple(tuple((s % 9 == k % 9) or (s // 9 == k // 9) for s in range(90)) for k in range(90))
_LEG = tuple(tuple(abs(s % 9 - k % 9) == 1 and abs(s // 9 - k // 9) == 1 for s in range(90))
             for k in range(90))
_DANGER_FROM = tuple(tuple(_LINE[k][s] or _LEG[k][s] for s in range(90)) for k in range(90))

_rng = random.Random(20261130)
# ZOBRIST[piece + 7][sq]; a fixed seed keeps keys stable across runs.
ZOBRIST = tuple(tuple(_rng.getrandbits(64) for _ in range(90)) for _ in range(15))
ZOBRIST_BLACK = _rng.getrandbits(64)

MAX_PIECES = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2, PAWN: 5}
