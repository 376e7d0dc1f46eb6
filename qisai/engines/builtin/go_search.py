"""The search of qisai's built-in Go engine: Monte-Carlo tree search with
RAVE, tree priors and heavy-ish playouts.

The search runs on its own small board (:class:`Playout`): a flat list with
a border ring, simple ko only, and groups kept incrementally (each stone
knows its group; each group its stones and its set of liberties), so a move
never re-floods a group and "is this group in atari?" is one ``len``.
Superko and every other rule are the caller's business: the GTP server
offers only the moves :meth:`qisai.go.board.Board.legal_points` allows.

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
colour) with komi.  New tree nodes get priors ("virtual" wins and visits)
from tactics (capture, escape, ladders, self-atari), shape, the distance to
the last move and the height of moves in empty areas; nodes keep UCT and
all-moves-as-first (RAVE) statistics, blended as in Gelly and Silver (2007).
A playout is worth mostly its win and a little its margin.  The subtree of
the move played and the reply to it is kept for the next search.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Iterable
from functools import cache

from qisai.engines.builtin.go_patterns import TABLE as _PATTERN

__all__ = ["EMPTY", "BLACK", "WHITE", "MctsSearcher", "Playout", "SearchOutcome", "simulate"]

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


# ------------------------------------------------------------------ tactics
def ladder_captures(pos: Playout, stone: int, depth: int = 0) -> bool:
    """Whether the group at ``stone``, in atari with its owner to move,
    is lost: it can neither capture a neighbour in atari nor extend to three
    liberties, and the attacker keeps it in atari (a ladder, 征子) until it
    dies.  Reads on copies; ``pos`` is unchanged."""
    cells = pos.cells
    gid = pos.gid
    libs = pos.libs
    root = gid[stone]
    group_libs = libs[root]
    if group_libs is None or len(group_libs) != 1:
        return False
    attacker = 3 - cells[stone]
    nb = pos.neighbours
    for s in pos.stones[root]:  # type: ignore[union-attr]
        for t in nb[s]:
            if cells[t] == attacker and len(libs[gid[t]]) == 1:  # type: ignore[arg-type]
                return False  # a counter-capture: assume it escapes
    (lib,) = group_libs
    if depth > 40:
        return False  # too long to read: assume it escapes
    if not pos.legal(lib):
        return True
    escaped = pos.copy()
    escaped.place(lib)
    after = escaped.libs[escaped.gid[stone]]
    assert after is not None
    if len(after) >= 3:
        return False
    if len(after) <= 1:
        return True
    for atari in list(after):
        if not escaped.legal(atari):
            continue
        chase = escaped.copy()
        chase.place(atari)
        if chase.libs[chase.gid[atari]] and len(chase.libs[chase.gid[atari]]) == 1:  # type: ignore[arg-type]
            continue  # the chasing stone is itself in atari: it would be taken
        if ladder_captures(chase, stone, depth + 1):
            return True
    return False


def _cfg_distances(pos: Playout, start: int, limit: int) -> dict[int, int]:
    """Return the common-fate-graph distance (a whole group is one step)
    from ``start`` to each point within ``limit``."""
    cells = pos.cells
    gid = pos.gid
    nb = pos.neighbours
    dist = {start: 0}
    frontier = [start]
    if cells[start] in (BLACK, WHITE):
        frontier = list(pos.stones[gid[start]] or [start])
        for s in frontier:
            dist[s] = 0
    d = 0
    while frontier and d < limit:
        d += 1
        nxt: list[int] = []
        for p in frontier:
            for q in nb[p]:
                if q in dist or cells[q] == BORDER:
                    continue
                if cells[q] == EMPTY:
                    dist[q] = d
                    nxt.append(q)
                else:
                    for s in pos.stones[gid[q]]:  # type: ignore[union-attr]
                        dist[s] = d
                        nxt.append(s)
        frontier = nxt
    return dist


# ----------------------------------------------------------------- the tree
class _Node:
    __slots__ = ("move", "color", "children", "visits", "wins", "n", "w", "rave_visits",
                 "rave_wins")

    def __init__(self, move: int, color: int, prior_visits: float, prior_wins: float) -> None:
        self.move = move
        self.color = color  # the colour that played ``move``
        self.children: list[_Node] | None = None
        self.visits = prior_visits  # with the prior
        self.wins = prior_wins
        self.n = 0  # real playouts through this node
        self.w = 0  # and those won by ``color`` (``wins`` holds the value)
        self.rave_visits = 0.0
        self.rave_wins = 0.0


class SearchOutcome:
    """The result of a search: the best move (an index, ``PASS``), its
    win rate for the side to move, the playouts run, every root move's
    visits (this search's and reused ones) and the average ownership of
    each point in this search's playouts (+1 Black, -1 White)."""

    def __init__(self, move: int, winrate: float, playouts: int,
                 visits: dict[int, float], ownership: list[float], *, reused: int = 0) -> None:
        self.move = move
        self.winrate = winrate
        self.playouts = playouts
        self.visits = visits
        self.ownership = ownership
        self.reused = reused
        """Playouts through the root kept from the previous search's tree."""


# Priors, in virtual playouts: (visits, wins) added to a new node.
PRIOR_EVEN = (10, 5)
PRIOR_CAPTURE_ONE = (15, 15)
PRIOR_CAPTURE_MANY = (30, 30)
PRIOR_ESCAPE = (20, 20)
PRIOR_LADDER_ATTACK = (20, 20)
PRIOR_FUTILE = (20, 0)
"""Extending a group that the ladder catches anyway."""
PRIOR_SELF_ATARI = (10, 0)
PRIOR_SELF_ATARI_BIG = (30, 0)
PRIOR_PATTERN = (10, 10)
PRIOR_CFG = ((24, 24), (22, 22), (8, 8))
"""By common-fate-graph distance 1, 2, 3 from the last move."""
PRIOR_LOW_EMPTY = (10, 0)
"""A first- or second-line move with no stone within three points."""
PRIOR_THIRD_EMPTY = (10, 10)


class MctsSearcher:
    """Monte-Carlo tree search with RAVE over :class:`Playout` positions."""

    rave_equivalence = 3500.0
    expand_after = 2
    exploration = 0.0
    margin_weight = 0.1
    """Share of a playout's value that rewards the margin (tanh of the
    lead over the board size) rather than the win alone."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.reuse = True
        """Keep the subtree of the last search's move and the reply to it."""
        self._tree: tuple[Playout, _Node, float] | None = None

    def _reused(self, base: Playout, komi: float) -> _Node | None:
        """The node of the previous search's tree for ``base``, if ``base``
        is the previous root plus the two moves ``last2`` and ``last``."""
        previous = self._tree
        self._tree = None
        if previous is None or not self.reuse or not base.last or not base.last2:
            return None
        old, node, old_komi = previous
        if old_komi != komi or old.size != base.size:
            return None
        pos = old
        for move in (base.last2, base.last):
            if node.children is None:
                return None
            node = next((c for c in node.children if c.move == move), None)  # type: ignore[assignment]
            if node is None or not pos.legal(move):
                return None
            pos = pos.copy()
            pos.place(move)
        if pos.cells != base.cells or pos.to_move != base.to_move or pos.ko != base.ko:
            return None
        return node

    # ------------------------------------------------------------- priors
    def _children(self, pos: Playout, allowed: set[int] | None) -> list[_Node]:
        color = pos.to_move
        enemy = 3 - color
        cells = pos.cells
        libs = pos.libs
        geo = pos.geo
        bonus: dict[int, list[int]] = {}

        def add(p: int, prior: tuple[int, int]) -> None:
            entry = bonus.get(p)
            if entry is None:
                bonus[p] = [prior[0], prior[1]]
            else:
                entry[0] += prior[0]
                entry[1] += prior[1]

        near_last: set[int] = set()
        for m in (pos.last, pos.last2):
            if m:
                near_last.update(geo.around[m])
        for r, group_libs in enumerate(libs):
            if group_libs is None:
                continue
            count = len(group_libs)
            stones = pos.stones[r]
            assert stones is not None
            if count == 1:
                (lib,) = group_libs
                if lib == pos.ko:
                    continue
                if cells[r] == enemy:
                    add(lib, PRIOR_CAPTURE_MANY if len(stones) > 1 else PRIOR_CAPTURE_ONE)
                else:
                    after = pos.liberties_after(lib)
                    if after >= 3:
                        add(lib, PRIOR_ESCAPE)
                    elif after == 2:
                        trial = pos.copy()
                        trial.place(lib)  # then the attacker's turn: does a ladder work?
                        if _ladder_attack_works(trial, r):
                            add(lib, PRIOR_FUTILE)
                        else:
                            add(lib, PRIOR_ESCAPE)
            elif count == 2 and cells[r] == enemy and near_last.intersection(stones):
                # Atari that the ladder turns into a capture.
                for lib in group_libs:
                    if not pos.legal(lib):
                        continue
                    trial = pos.copy()
                    trial.place(lib)
                    mine_libs = trial.libs[trial.gid[lib]]
                    if mine_libs is not None and len(mine_libs) >= 2 and \
                            ladder_captures(trial, r):
                        add(lib, PRIOR_LADDER_ATTACK)
        cfg = _cfg_distances(pos, pos.last, 3) if pos.last else {}
        codes = pos.codes
        out = []
        line = geo.line
        near = geo.near
        for p in pos.empties:
            if allowed is not None and p not in allowed:
                continue
            if pos.is_eye(p, color) or not pos.legal(p):
                continue
            visits, wins = PRIOR_EVEN
            extra = bonus.get(p)
            if extra is not None:
                visits += extra[0]
                wins += extra[1]
            if (extra is None or extra[1] == 0) and pos.liberties_after(p) < 2:
                big = any(cells[q] == color for q in geo.neighbours[p])
                v, w = PRIOR_SELF_ATARI_BIG if big else PRIOR_SELF_ATARI
                visits += v
                wins += w
            if _PATTERN[codes[p]]:
                visits += PRIOR_PATTERN[0]
                wins += PRIOR_PATTERN[1]
            d = cfg.get(p)
            if d is not None and 1 <= d <= 3:
                v, w = PRIOR_CFG[d - 1]
                visits += v
                wins += w
            height = line[p]
            if height <= 2 and not any(cells[q] != EMPTY for q in near[p]):
                v, w = PRIOR_THIRD_EMPTY if height == 2 else PRIOR_LOW_EMPTY
                visits += v
                wins += w
            out.append(_Node(p, color, visits, wins))
        return out

    def _select(self, node: _Node) -> _Node:
        children = node.children
        assert children
        best = children[0]
        best_value = -1.0
        k = self.rave_equivalence
        c = self.exploration
        log_n = math.log(node.n + 1) if c else 0.0
        for child in children:
            v = child.visits
            q = child.wins / v
            rv = child.rave_visits
            if rv:
                beta = rv / (rv + v + v * rv / k)
                q += beta * (child.rave_wins / rv - q)
            if c:
                q += c * math.sqrt(log_n / (child.n + 1))
            if q > best_value:
                best, best_value = child, q
        return best

    # ------------------------------------------------------------- search
    def search(self, root_pos: Playout, komi: float, *, allowed: Iterable[int] | None = None,
               seconds: float = 1.0, max_playouts: int | None = None,
               stop: threading.Event | None = None) -> SearchOutcome:
        """Search ``root_pos`` for ``seconds`` (or ``max_playouts``).

        ``root_pos`` is read from its ``cells``, ``to_move``, ``ko`` and
        ``last``/``last2`` (it is not changed).  ``allowed`` limits the root
        moves (the caller's fully legal moves).  Returns the most visited
        root move, or ``PASS`` if there is none.
        """
        base = root_pos.copy()
        base.resync()
        allowed_set = set(allowed) if allowed is not None else None
        root = self._reused(base, komi)
        if root is None or not root.children:
            root = _Node(PASS, 3 - base.to_move, 0, 0)
            root.children = self._children(base, allowed_set)
        elif allowed_set is not None:
            root.children = [c for c in root.children if c.move in allowed_set]
        reused = root.n
        size = base.size
        n_cells = len(base.cells)
        ownership = [0.0] * n_cells
        if not root.children:
            return SearchOutcome(PASS, 0.5, 0, {}, ownership)
        deadline = time.monotonic() + seconds
        playouts = 0
        max_moves = size * size * 3
        rng = self.rng
        expand_after = self.expand_after
        select = self._select
        margin_weight = self.margin_weight
        margin_scale = float(size)
        while True:
            if max_playouts is not None and playouts >= max_playouts:
                break
            if playouts and (time.monotonic() >= deadline or (stop and stop.is_set())):
                break
            pos = base.copy()
            node = root
            path = [root]
            amaf = [0] * n_cells
            while True:
                children = node.children
                if children is None:
                    if node.n < expand_after:
                        break
                    children = node.children = self._children(pos, None)
                if not children:
                    break
                node = select(node)
                move = node.move
                if not amaf[move]:
                    amaf[move] = node.color
                pos.place(move)
                path.append(node)
            lead = simulate(pos, komi, rng, amaf, max_moves, ownership)
            black_wins = lead > 0
            # The value of a playout for Black: mostly the win, a little the
            # margin, so that a won (or lost) game is still played for points
            # rather than thrown about at random when every move wins (loses).
            black_value = (1 - margin_weight) * black_wins + \
                margin_weight * 0.5 * (1 + math.tanh(lead / margin_scale))
            white_value = 1 - black_value
            for nd in path:
                nd.visits += 1
                nd.n += 1
                if nd.color == BLACK:
                    nd.wins += black_value
                    nd.w += black_wins
                else:
                    nd.wins += white_value
                    nd.w += not black_wins
                kids = nd.children
                if kids:
                    for child in kids:
                        if amaf[child.move] == child.color:
                            child.rave_visits += 1
                            child.rave_wins += black_value if child.color == BLACK else white_value
            playouts += 1
        if self.reuse:
            self._tree = (base, root, komi)
        best = max(root.children, key=lambda c: (c.n, c.wins / c.visits))
        visits = {c.move: float(c.n) for c in root.children}
        winrate = best.w / best.n if best.n else best.wins / best.visits
        own = [o / playouts for o in ownership]
        return SearchOutcome(best.move, winrate, playouts, visits, own, reused=reused)


def _ladder_attack_works(pos: Playout, root: int) -> bool:
    """After an escape to two liberties (attacker to move): can an atari
    on either liberty start a ladder that captures the group at ``root``?"""
    group_libs = pos.libs[pos.gid[root]]
    if group_libs is None or len(group_libs) != 2:
        return False
    for atari in list(group_libs):
        if not pos.legal(atari):
            continue
        chase = pos.copy()
        chase.place(atari)
        own = chase.libs[chase.gid[atari]]
        if own is not None and len(own) == 1:
            continue
        if ladder_captures(chase, root):
            return True
    return False
