"""One entry of a Go game record (:class:`Move`): a move, a pass or a set-up.

The board (:mod:`qisai.go.board`) writes these into its history as it
plays; what reads a history (the engines' servers, the arena's opponents)
needs the entry, not the board.
"""

from __future__ import annotations

from typing import NamedTuple

from qisai.go.coords import Point
from qisai.go.rules import Color

__all__ = ["Move", "as_move"]


class Move(NamedTuple):
    """One entry of the game record: a move, a pass or a set-up (immutable).

    ``point`` is ``None`` for a pass (and for a set-up); ``captured`` lists
    the stones removed by the move (提子).  For a set-up, ``color`` is the
    player to move after it and ``position`` holds the whole position after
    it, one value per point in bottom-row-first order (0 empty, 1 Black,
    2 White).
    """

    color: Color
    point: Point | None
    captured: tuple[Point, ...] = ()
    setup: bool = False
    position: tuple[int, ...] = ()

    @property
    def is_pass(self) -> bool:
        """Return True if this is a pass (虚着)."""
        return self.point is None and not self.setup


def as_move(value: object) -> Move:
    """Return ``value``, which must be a :class:`Move` (asserted)."""
    assert isinstance(value, Move)
    return value
