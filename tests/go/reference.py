"""A deliberately naive Go referee used as independent truth in the tests.

Everything is recomputed from scratch by flood fill on a tuple of rows; no
incremental state, no hashing.  Slow, short and obviously right.
"""

from __future__ import annotations

Grid = tuple[tuple[int, ...], ...]


def empty(size: int) -> Grid:
    return tuple(tuple(0 for _ in range(size)) for _ in range(size))


def neighbours(size: int, r: int, c: int) -> list[tuple[int, int]]:
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < size and 0 <= cc < size:
            out.append((rr, cc))
    return out


def chain(grid: Grid, r: int, c: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Return (stones, liberties) of the chain at (r, c)."""
    size = len(grid)
    color = grid[r][c]
    stones = {(r, c)}
    libs: set[tuple[int, int]] = set()
    todo = [(r, c)]
    while todo:
        p = todo.pop()
        for q in neighbours(size, *p):
            v = grid[q[0]][q[1]]
            if v == 0:
                libs.add(q)
            elif v == color and q not in stones:
                stones.add(q)
                todo.append(q)
    return stones, libs


def play(grid: Grid, color: int, r: int, c: int) -> tuple[Grid, int, int] | None:
    """Return (new grid, stones captured, own stones lost) or None if occupied.

    Opponent chains without liberties go first; then, if the new chain has no
    liberty, it is removed (suicide; callers decide whether that is allowed).
    """
    size = len(grid)
    if grid[r][c] != 0:
        return None
    rows = [list(row) for row in grid]
    rows[r][c] = color
    captured = 0
    g: Grid = tuple(tuple(row) for row in rows)
    for q in neighbours(size, r, c):
        if g[q[0]][q[1]] == 3 - color:
            stones, libs = chain(g, *q)
            if not libs:
                for s in stones:
                    rows[s[0]][s[1]] = 0
                captured += len(stones)
                g = tuple(tuple(row) for row in rows)
    lost = 0
    stones, libs = chain(g, r, c)
    if not libs:
        for s in stones:
            rows[s[0]][s[1]] = 0
        lost = len(stones)
        g = tuple(tuple(row) for row in rows)
    return g, captured, lost


class RefGame:
    """A brute-force referee.

    ``ko``: "positional" (no earlier position may recur), "situational" (no
    earlier position with the same player to move), or "simple" (a move may
    not recreate the position before the opponent's last move).
    ``suicide``: whether a move may remove its own chain.
    """

    def __init__(self, size: int, ko: str = "positional", suicide: bool = False) -> None:
        self.size = size
        self.ko = ko
        self.suicide = suicide
        self.grid = empty(size)
        self.to_move = 1
        self.positions: list[tuple[Grid, int]] = [(self.grid, 1)]

    def legal(self, r: int, c: int) -> bool:
        out = play(self.grid, self.to_move, r, c)
        if out is None:
            return False
        new, _captured, lost = out
        if lost and not self.suicide:
            return False
        after = (new, 3 - self.to_move)
        if self.ko == "positional":
            return all(g != new for g, _ in self.positions)
        if self.ko == "situational":
            return after not in self.positions
        return len(self.positions) < 2 or self.positions[-2][0] != new

    def legal_points(self) -> set[tuple[int, int]]:
        return {(r, c) for r in range(self.size) for c in range(self.size) if self.legal(r, c)}

    def play(self, r: int, c: int) -> None:
        out = play(self.grid, self.to_move, r, c)
        assert out is not None
        self.grid = out[0]
        self.to_move = 3 - self.to_move
        self.positions.append((self.grid, self.to_move))

    def pass_move(self) -> None:
        self.to_move = 3 - self.to_move
        self.positions.append((self.grid, self.to_move))
