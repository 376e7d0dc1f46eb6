"""3x3 shape patterns for qisai's built-in Go engine.

A pattern is the 3x3 neighbourhood of a candidate move (the centre, always
empty).  The shapes are the well-known hand-made ones of MoGo (Gelly, Wang,
Munos and Teytaud, "Modification of UCT with patterns in Monte-Carlo Go",
2006): hane, cut, the diagonal attachment and a few edge shapes.  They are
matched in all eight symmetries and with the colours either way round: the
playouts and the tree priors use them for both players.

A neighbourhood is packed into a 16-bit code, two bits a point (empty,
black, white, off-board) in the order of :data:`RING`, and looked up in a
table of all 65536 codes, so matching costs eight reads and a lookup.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

__all__ = ["PATTERNS", "RING", "TABLE", "code_at", "matches", "ring_offsets"]

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3

RING: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1),
                                     (1, -1), (1, 0), (1, 1))
"""The eight neighbours as (row step, column step), in code order (bit pairs
0-1, 2-3, ... 14-15)."""

# Rows top to bottom, the move in the middle of the second row.  ``X`` and
# ``O`` are stones of the two colours, ``.`` empty, ``x`` not X (empty or
# O), ``o`` not O, ``#`` off the board, ``?`` anything.
PATTERNS: tuple[tuple[str, str, str, str], ...] = (
    ("hane, enclosing", "XOX", ".*.", "???"),
    ("hane, not cutting", "XO.", ".*.", "?.?"),
    ("hane, magari", "XO?", "X*.", "x.?"),
    ("diagonal attachment", ".O.", "X*.", "..."),
    ("cut, unprotected", "XO?", "O*o", "?o?"),
    ("cut, peeped", "XO?", "O*X", "???"),
    ("cut, de", "?X?", "O*O", "ooo"),
    ("cut, keima", "OX?", "o*O", "???"),
    ("edge: chase", "X.?", "O*?", "###"),
    ("edge: block the cut", "OX?", "X*O", "###"),
    ("edge: block the connection", "?X?", "x*O", "###"),
    ("edge: sagari", "?XO", "x*x", "###"),
    ("edge: cut", "?OX", "X*O", "###"),
)
"""(name, top row, middle row, bottom row) of each shape."""


def _allowed(symbol: str, x: int, o: int) -> tuple[int, ...]:
    return {
        ".": (EMPTY,), "X": (x,), "O": (o,), "x": (EMPTY, o), "o": (EMPTY, x),
        "#": (BORDER,), "?": (EMPTY, BLACK, WHITE, BORDER),
    }[symbol]


def _symmetries(dr: int, dc: int) -> list[tuple[int, int]]:
    return [(dr, dc), (dr, -dc), (-dr, dc), (-dr, -dc), (dc, dr), (dc, -dr), (-dc, dr), (-dc, -dr)]


def _build() -> bytes:
    table = bytearray(1 << 16)
    for _, *rows in PATTERNS:
        grid = {(r - 1, c - 1): rows[r][c] for r in range(3) for c in range(3)}
        for sym in range(8):
            # Where does each RING point of the board come from in the pattern?
            source = []
            for dr, dc in RING:
                for (pr, pc), symbol in grid.items():
                    if (pr, pc) != (0, 0) and _symmetries(pr, pc)[sym] == (dr, dc):
                        source.append(symbol)
                        break
            for x, o in ((BLACK, WHITE), (WHITE, BLACK)):
                choices = [_allowed(s, x, o) for s in source]
                for values in itertools.product(*choices):
                    code = 0
                    for i, v in enumerate(values):
                        code |= v << (2 * i)
                    table[code] = 1
    return bytes(table)


TABLE: bytes = _build()
"""``TABLE[code]`` is 1 if the neighbourhood ``code`` matches a pattern."""


def ring_offsets(stride: int) -> tuple[int, ...]:
    """Return the index offsets of the :data:`RING` points on a board whose
    rows are ``stride`` apart."""
    return tuple(dr * stride + dc for dr, dc in RING)


def code_at(cells: Sequence[int], p: int, stride: int) -> int:
    """Return the neighbourhood code of point ``p`` (``cells`` holds 0 empty,
    1 black, 2 white, 3 off-board, rows ``stride`` apart)."""
    s = stride
    return (cells[p - s - 1] | cells[p - s] << 2 | cells[p - s + 1] << 4 | cells[p - 1] << 6
            | cells[p + 1] << 8 | cells[p + s - 1] << 10 | cells[p + s] << 12
            | cells[p + s + 1] << 14)


def matches(cells: Sequence[int], p: int, stride: int) -> bool:
    """Whether the empty point ``p`` completes one of the :data:`PATTERNS`."""
    return bool(TABLE[code_at(cells, p, stride)])
