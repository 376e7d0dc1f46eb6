"""The playout board and playout policy of qisai's built-in Go engine.

The search (:mod:`~qisai.engines.builtin.go_search`) runs on its own small
board (:class:`Playout`): a flat list with a border ring, simple ko only,
and groups kept incrementally (each stone knows its group; each group its
stones and its set of liberties), so a move never re-floods a group and
"is this group in atari?" is one ``len``.  Superko and every other rule are
the caller's business: the GTP server offers only the moves
:meth:`qisai.go.board.Board.legal_points` allows.

Playouts (the design of MoGo and Pachi/michi, written anew here): after
each move, with high probability

1. capture an enemy group in atari next to the last move, or save an own
   group the last move put in atari (by extending, if that gives it two
   liberties or more, or by capturing a neighbour of it);
2. else play a 3x3 shape (:mod:`~qisai.engines.builtin.go_patterns`) next
   to the last move;
3. else a random move that does not fill an own eye and is not a
   self-atari (a lone stone may sometimes throw in).

The end is counted by area (stones plus empty points surrounded by one
colour) with komi.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache

from qisai.engines.builtin.go_patterns import TABLE as _PATTERN

__all__ = ["BLACK", "BORDER", "EMPTY", "PASS", "WHITE", "Playout", "simulate"]

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = 0


class _Geometry:
    """Tables that depend only on the board size (shared by all positions)."""

    __slots__ = ("size", "stride", "n", "points", "neighbours", "diagonals", "ring", "around",
                 "line", "near", "shifts")

    def __init__(self, size: int) -> None:
        s = size + 2
        n = s * s
        self.size = size
        self.stride = s
        self.n = n
        self.points = [(r + 1) * s + c + 1 for r in range(size) for c in range(size)]
        on = [False] * n
        for p in self.points:
            on[p] = True
        self.neighbours: list[tuple[int, ...]] = [
            (p - s, p + s, p - 1, p + 1) if on[p] else () for p in range(n)]
        self.diagonals: list[tuple[int, ...]] = [
            (p - s - 1, p - s + 1, p + s - 1, p + s + 1) if on[p] else () for p in range(n)]
        # The 3x3 neighbourhood in go_patterns.RING order, and with the point itself.
        self.ring: list[tuple[int, ...]] = [
            (p - s - 1, p - s, p - s + 1, p - 1, p + 1, p + s - 1, p + s, p + s + 1) if on[p]
            else () for p in range(n)]
        self.around: list[tuple[int, ...]] = [
            ((p,) + self.ring[p]) if on[p] else () for p in range(n)]
        # For a stone at p: each neighbour q in the 3x3 and the bit shift of
        # p in q's pattern code (p is q's RING point 7 - i when q is p's i).
        self.shifts: list[tuple[tuple[int, int], ...]] = [
            tuple((q, 2 * (7 - i)) for i, q in enumerate(self.ring[p])) for p in range(n)]
        self.line = [-1] * n
        self.near: list[tuple[int, ...]] = [()] * n
        for p in self.points:
            r, c = p // s - 1, p % s - 1
            self.line[p] = min(r, c, size - 1 - r, size - 1 - c)
            self.near[p] = tuple(q for q in self.points if q != p
                                 and abs(q // s - 1 - r) + abs(q % s - 1 - c) <= 3)


@cache
def _geometry(size: int) -> _Geometry:
    return _Geometry(size)


class Playout:
    """A Go position for simulations: ``size`` x ``size`` in a bordered list.

    Points are indices ``(row + 1) * (size + 2) + col + 1``; index 0 (a
    border point) stands for a pass.  ``cells`` may be written directly to
    set up a position, but then :meth:`resync` must be called before
    :meth:`play` (the search does so itself).
    """

    __slots__ = ("size", "stride", "geo", "cells", "gid", "stones", "libs", "empties", "where",
                 "codes", "ko", "to_move", "passes", "last", "last2", "points", "neighbours",
                 "diagonals")

    def __init__(self, size: int) -> None:
        geo = _geometry(size)
        self.geo = geo
        self.size = size
        self.stride = geo.stride
        self.points = geo.points
        self.neighbours = geo.neighbours
        self.diagonals = geo.diagonals
        self.cells = [BORDER] * geo.n
        for p in geo.points:
            self.cells[p] = EMPTY
        self.gid = [0] * geo.n
        """The group of each stone, named by one of its stones (its root)."""
        self.stones: list[list[int] | None] = [None] * geo.n
        """Per root: the stones of the group."""
        self.libs: list[set[int] | None] = [None] * geo.n
        """Per root: the liberties of the group."""
        self.empties = list(geo.points)
        self.where = [0] * geo.n
        for i, p in enumerate(self.empties):
            self.where[p] = i
        self.codes = [0] * geo.n
        """Per point: the 3x3 pattern code of its neighbourhood (go_patterns)."""
        self._recode()
        self.ko = 0
        self.to_move = BLACK
        self.passes = 0
        self.last = PASS
        self.last2 = PASS

    def copy(self) -> Playout:
        """Return an independent copy (the geometry tables are shared)."""
        other = Playout.__new__(Playout)
        other.geo = self.geo
        other.size = self.size
        other.stride = self.stride
        other.points = self.points
        other.neighbours = self.neighbours
        other.diagonals = self.diagonals
        other.cells = self.cells[:]
        other.gid = self.gid[:]
        other.stones = [s[:] if s is not None else None for s in self.stones]
        other.libs = [s.copy() if s is not None else None for s in self.libs]
        other.empties = self.empties[:]
        other.where = self.where[:]
        other.codes = self.codes[:]
        other.ko = self.ko
        other.to_move = self.to_move
        other.passes = self.passes
        other.last = self.last
        other.last2 = self.last2
        return other

    def _recode(self) -> None:
        cells = self.cells
        codes = self.codes
        for p in self.points:
            code = 0
            for i, q in enumerate(self.geo.ring[p]):
                code |= cells[q] << (2 * i)
            codes[p] = code

    def resync(self) -> None:
        """Rebuild groups, liberties, pattern codes and the empty list from
        ``cells``."""
        self._recode()
        cells = self.cells
        n = len(cells)
        self.gid = [0] * n
        self.stones = [None] * n
        self.libs = [None] * n
        self.empties = [p for p in self.points if cells[p] == EMPTY]
        for i, p in enumerate(self.empties):
            self.where[p] = i
        for p in self.points:
            if cells[p] in (BLACK, WHITE) and not self.gid[p]:
                stones, libs = self.group_liberties(p)
                for s in stones:
                    self.gid[s] = p
                self.stones[p] = stones
                self.libs[p] = libs

    def index(self, row: int, col: int) -> int:
        """Return the index of ``(row, col)`` (row 0 at the bottom)."""
        return (row + 1) * self.stride + col + 1

    def point(self, index: int) -> tuple[int, int] | None:
        """Return ``(row, col)`` of an index, ``None`` for the pass."""
        if index == PASS:
            return None
        return index // self.stride - 1, index % self.stride - 1

    def group_liberties(self, p: int, limit: int = 1000) -> tuple[list[int], set[int]]:
        """Return the stones of the group at ``p`` and its liberties, by flood
        fill over ``cells`` (the search stops once ``limit`` liberties are
        found)."""
        cells = self.cells
        color = cells[p]
        stones = [p]
        seen = {p}
        libs: set[int] = set()
        nb = self.neighbours
        i = 0
        while i < len(stones):
            for q in nb[stones[i]]:
                c = cells[q]
                if c == EMPTY:
                    libs.add(q)
                    if len(libs) >= limit:
                        return stones, libs
                elif c == color and q not in seen:
                    seen.add(q)
                    stones.append(q)
            i += 1
        return stones, libs

    def is_eye(self, p: int, color: int) -> bool:
        """Whether the empty point ``p`` is an eye of ``color`` (all neighbours
        own or border; at most one enemy diagonal inside, none on the edge)."""
        cells = self.cells
        for q in self.neighbours[p]:
            c = cells[q]
            if c != color and c != BORDER:
                return False
        enemy = 3 - color
        bad = 0
        edge = False
        for q in self.diagonals[p]:
            c = cells[q]
            if c == enemy:
                bad += 1
            elif c == BORDER:
                edge = True
        return bad == 0 if edge else bad <= 1

    def legal(self, p: int) -> bool:
        """Whether the side to move may play the empty-or-not point ``p``
        (occupancy, simple ko and suicide)."""
        cells = self.cells
        if cells[p] != EMPTY or p == self.ko:
            return False
        nbs = self.neighbours[p]
        for q in nbs:
            if cells[q] == EMPTY:
                return True
        color = self.to_move
        gid = self.gid
        libs = self.libs
        for q in nbs:
            c = cells[q]
            if c == BORDER:
                continue
            count = len(libs[gid[q]])  # type: ignore[arg-type]
            if c == color:
                if count > 1:
                    return True
            elif count == 1:
                return True
        return False

    def liberties_after(self, p: int) -> int:
        """Return how many liberties the side to move's group at the empty
        point ``p`` would have after playing there (captured neighbours
        count one each: a lower bound when a large group is taken)."""
        cells = self.cells
        color = self.to_move
        gid = self.gid
        libs = self.libs
        out: set[int] = set()
        for q in self.neighbours[p]:
            c = cells[q]
            if c == EMPTY:
                out.add(q)
            elif c == color:
                out |= libs[gid[q]]  # type: ignore[arg-type]
            elif c != BORDER and len(libs[gid[q]]) == 1:  # type: ignore[arg-type]
                out.add(q)
        out.discard(p)
        return len(out)

    def play(self, p: int) -> list[int] | None:
        """Play ``p`` for the side to move (``PASS`` passes).

        Returns the captured stones, or ``None`` (position unchanged) if the
        move is illegal: occupied, simple ko, or suicide.
        """
        if p == PASS:
            self.pass_move()
            return []
        if not self.legal(p):
            return None
        return self.place(p)

    def pass_move(self) -> None:
        """Pass for the side to move."""
        self.passes += 1
        self.ko = 0
        self.to_move = 3 - self.to_move
        self.last2 = self.last
        self.last = PASS

    def place(self, p: int) -> list[int]:
        """Play the legal move ``p`` (see :meth:`legal`; not checked here)
        and return the captured stones."""
        color = self.to_move
        enemy = 3 - color
        cells = self.cells
        gid = self.gid
        libs = self.libs
        stones = self.stones
        neighbours = self.neighbours
        nbs = neighbours[p]
        empties = self.empties
        where = self.where
        codes = self.codes
        shifts = self.geo.shifts
        cells[p] = color
        for q, shift in shifts[p]:
            codes[q] += color << shift
        i = where[p]
        q = empties.pop()
        if q != p:
            empties[i] = q
            where[q] = i
        own = 0
        fresh = set()
        for q in nbs:
            c = cells[q]
            if c == EMPTY:
                fresh.add(q)
            elif c == color:
                r = gid[q]
                if not own:
                    own = r
                elif r != own:
                    # Merge the smaller group into the larger.
                    big, small = (own, r) if len(stones[own]) >= len(stones[r]) else (r, own)  # type: ignore[arg-type]
                    moved = stones[small]
                    for s in moved:  # type: ignore[union-attr]
                        gid[s] = big
                    stones[big].extend(moved)  # type: ignore[union-attr,arg-type]
                    libs[big] |= libs[small]  # type: ignore[operator]
                    stones[small] = None
                    libs[small] = None
                    own = big
        if own:
            gid[p] = own
            stones[own].append(p)  # type: ignore[union-attr]
            mine = libs[own]
            mine |= fresh  # type: ignore[operator]
            mine.discard(p)
        else:
            gid[p] = p
            stones[p] = [p]
            mine = libs[p] = fresh
        captured: list[int] = []
        for q in nbs:
            if cells[q] == enemy:
                r = gid[q]
                theirs = libs[r]
                theirs.discard(p)  # type: ignore[union-attr]
                if not theirs:
                    group = stones[r]
                    for s in group:  # type: ignore[union-attr]
                        cells[s] = EMPTY
                        for t, shift in shifts[s]:
                            codes[t] -= enemy << shift
                        gid[s] = 0
                        where[s] = len(empties)
                        empties.append(s)
                        for t in neighbours[s]:
                            if cells[t] == color:
                                libs[gid[t]].add(s)  # type: ignore[union-attr]
                    stones[r] = None
                    libs[r] = None
                    captured += group  # type: ignore[arg-type]
        if len(captured) == 1 and len(mine) == 1 and len(stones[gid[p]]) == 1:  # type: ignore[arg-type]
            self.ko = captured[0]
        else:
            self.ko = 0
        self.passes = 0
        self.last2 = self.last
        self.last = p
        self.to_move = enemy
        return captured

    def score(self, komi: float) -> float:
        """Return Black's area lead minus komi (empty points count for the
        colour that surrounds them on all sides)."""
        cells = self.cells
        total = 0.0
        for p in self.points:
            c = cells[p]
            if c == BLACK:
                total += 1
            elif c == WHITE:
                total -= 1
            else:
                owner = 0
                for q in self.neighbours[p]:
                    v = cells[q]
                    if v == BLACK or v == WHITE:
                        if owner and owner != v:
                            owner = -1
                            break
                        owner = v
                if owner == BLACK:
                    total += 1
                elif owner == WHITE:
                    total -= 1
        return total - komi

    def candidate_moves(self) -> list[int]:
        """Empty points that are not own eyes (legality is not tested)."""
        color = self.to_move
        cells = self.cells
        return [p for p in self.points if cells[p] == EMPTY and not self.is_eye(p, color)]


# ------------------------------------------------------------------ playouts
# Probabilities of the playout heuristics (the values michi uses).
P_TACTICS = 0.9
P_PATTERN = 0.95
P_ALLOW_THROW_IN = 0.25
"""Chance to allow a single-stone self-atari among random moves."""


def _atari_moves(pos: Playout, points: Iterable[int], out: list[int]) -> None:
    """Append to ``out`` the moves that capture an enemy group in atari or
    save an own group from atari, for groups with a stone among ``points``."""
    cells = pos.cells
    gid = pos.gid
    libs = pos.libs
    color = pos.to_move
    ko = pos.ko
    seen: list[int] = []
    for q in points:
        c = cells[q]
        if c != BLACK and c != WHITE:
            continue
        r = gid[q]
        group_libs = libs[r]
        if len(group_libs) != 1 or r in seen:  # type: ignore[arg-type]
            continue
        seen.append(r)
        for lib in group_libs:  # type: ignore[union-attr]
            if lib == ko:
                continue
            if c != color:
                out.append(lib)
            elif pos.liberties_after(lib) >= 2:
                out.append(lib)
        if c == color:
            # Capturing a neighbour in atari saves the group as well.
            nb = pos.neighbours
            for s in pos.stones[r]:  # type: ignore[union-attr]
                for t in nb[s]:
                    if cells[t] == 3 - color:
                        theirs = libs[gid[t]]
                        if len(theirs) == 1:  # type: ignore[arg-type]
                            for lib in theirs:  # type: ignore[union-attr]
                                if lib != ko:
                                    out.append(lib)


def _playout_move(pos: Playout, rng: random.Random) -> int:
    """Choose the next playout move (``PASS`` if none is acceptable)."""
    cells = pos.cells
    color = pos.to_move
    last = pos.last
    random_ = rng.random
    if last:
        geo = pos.geo
        if random_() < P_TACTICS:
            # Only the last move's group and its neighbours changed their
            # liberties: look for ataris there.
            libs = pos.libs
            gid = pos.gid
            for q in geo.around[last]:
                c = cells[q]
                if (c == BLACK or c == WHITE) and len(libs[gid[q]]) == 1:  # type: ignore[arg-type]
                    found: list[int] = []
                    _atari_moves(pos, geo.around[last], found)
                    if found:
                        return found[int(random_() * len(found))]
                    break
        if random_() < P_PATTERN:
            codes = pos.codes
            shapes = [q for q in geo.ring[last] if cells[q] == EMPTY and _PATTERN[codes[q]]]
            while shapes:
                k = int(random_() * len(shapes))
                q = shapes[k]
                if pos.legal(q) and pos.liberties_after(q) >= 2:
                    return q
                shapes[k] = shapes[-1]
                shapes.pop()
    empties = pos.empties
    n = len(empties)
    if not n:
        return PASS
    ko = pos.ko
    nbs = pos.neighbours
    i = int(random_() * n)
    for _ in range(n):
        p = empties[i]
        i += 1
        if i == n:
            i = 0
        if p == ko:
            continue
        free = mine = foe = 0
        for q in nbs[p]:
            c = cells[q]
            if c == EMPTY:
                free += 1
            elif c == color:
                mine += 1
            elif c != BORDER:
                foe += 1
        if free >= 2:
            return p  # two liberties of its own: legal and no self-atari
        if not free and not foe and pos.is_eye(p, color):
            continue
        if not pos.legal(p):
            continue
        if pos.liberties_after(p) >= 2:
            return p
        # Self-atari: almost always bad, but a lone stone may throw in.
        if not mine and random_() < P_ALLOW_THROW_IN:
            return p
    return PASS


def simulate(pos: Playout, komi: float, rng: random.Random, amaf: list[int],
             max_moves: int, ownership: list[float] | None = None) -> float:
    """Play ``pos`` out (in place) and return Black's area lead minus komi.

    ``amaf[p]`` receives the colour of the first play on each point that has
    none yet; ``ownership`` (if given) gains +1 for each point Black ends
    up owning and -1 for White.
    """
    moves = 0
    while pos.passes < 2 and moves < max_moves:
        p = _playout_move(pos, rng)
        if p == PASS:
            pos.pass_move()
        else:
            if not amaf[p]:
                amaf[p] = pos.to_move
            pos.place(p)
        moves += 1
    cells = pos.cells
    nbs = pos.neighbours
    total = 0.0
    for p in pos.points:
        c = cells[p]
        if c == EMPTY:
            for q in nbs[p]:
                v = cells[q]
                if v == BLACK or v == WHITE:
                    if c and c != v:
                        c = EMPTY
                        break
                    c = v
        if c == BLACK:
            total += 1
            if ownership is not None:
                ownership[p] += 1
        elif c == WHITE:
            total -= 1
            if ownership is not None:
                ownership[p] -= 1
    return total - komi
