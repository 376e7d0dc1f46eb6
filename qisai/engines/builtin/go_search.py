"""The search of qisai's built-in Go engine: Monte-Carlo tree search with
RAVE and light playouts.

The tree search runs on its own small board (:class:`Playout`): a flat list
with a border ring, simple ko only and captures by flood fill, fast enough
in pure Python for a few hundred to a few thousand playouts a second on 9x9.
Superko and every other rule are the caller's business: the GTP server
offers only the moves :meth:`qisai.go.board.Board.legal_points` allows.

Playouts are "light": capture an opponent group left in atari by the last
move, save an own group put in atari by it when one move does, else a
random legal move that neither fills an own eye nor puts a group of more
than one stone in atari (self-atari); the end is counted by
area (stones plus one-point eyes) with komi.  Nodes keep both UCT and
all-moves-as-first (RAVE) statistics, blended as in Gelly and Silver (2007),
with a small prior that discourages the first line early on.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Iterable

__all__ = ["EMPTY", "BLACK", "WHITE", "MctsSearcher", "Playout", "SearchOutcome"]

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = 0


class Playout:
    """A Go position for simulations: ``size`` x ``size`` in a bordered list.

    Points are indices ``(row + 1) * (size + 2) + col + 1``; index 0 (a
    border point) stands for a pass.
    """

    __slots__ = ("size", "stride", "cells", "ko", "to_move", "passes", "neighbours",
                 "diagonals", "points")

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = size + 2
        n = self.stride * (size + 2)
        self.cells = [BORDER] * n
        self.points = [(r + 1) * self.stride + c + 1 for r in range(size) for c in range(size)]
        for p in self.points:
            self.cells[p] = EMPTY
        s = self.stride
        self.neighbours = [(p - s, p + s, p - 1, p + 1) if 0 < p < n - s and p > s else ()
                           for p in range(n)]
        self.diagonals = [(p - s - 1, p - s + 1, p + s - 1, p + s + 1) if p > s and p < n - s
                          else () for p in range(n)]
        self.ko = 0
        self.to_move = BLACK
        self.passes = 0

    def copy(self) -> Playout:
        """Return an independent copy (the geometry tables are shared)."""
        other = Playout.__new__(Playout)
        other.size = self.size
        other.stride = self.stride
        other.cells = self.cells[:]
        other.points = self.points
        other.neighbours = self.neighbours
        other.diagonals = self.diagonals
        other.ko = self.ko
        other.to_move = self.to_move
        other.passes = self.passes
        return other

    def index(self, row: int, col: int) -> int:
        """Return the index of ``(row, col)`` (row 0 at the bottom)."""
        return (row + 1) * self.stride + col + 1

    def point(self, index: int) -> tuple[int, int] | None:
        """Return ``(row, col)`` of an index, ``None`` for the pass."""
        if index == PASS:
            return None
        return index // self.stride - 1, index % self.stride - 1

    def group_liberties(self, p: int, limit: int = 1000) -> tuple[list[int], set[int]]:
        """Return the stones of the group at ``p`` and its liberties (the
        search stops once ``limit`` liberties are found)."""
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

    def play(self, p: int) -> list[int] | None:
        """Play ``p`` for the side to move (``PASS`` passes).

        Returns the captured stones, or ``None`` (position unchanged) if the
        move is illegal: occupied, simple ko, or suicide.
        """
        color = self.to_move
        if p == PASS:
            self.passes += 1
            self.ko = 0
            self.to_move = 3 - color
            return []
        cells = self.cells
        if cells[p] != EMPTY or p == self.ko:
            return None
        enemy = 3 - color
        cells[p] = color
        captured: list[int] = []
        nb = self.neighbours
        own_liberty = False
        for q in nb[p]:
            c = cells[q]
            if c == EMPTY:
                own_liberty = True
            elif c == enemy:
                # Fast path: a stone with an empty neighbour is not captured.
                if EMPTY in [cells[r] for r in nb[q]]:
                    continue
                stones, libs = self.group_liberties(q, 1)
                if not libs:
                    for s in stones:
                        cells[s] = EMPTY
                    captured += stones
        if captured or not own_liberty:
            stones, libs = self.group_liberties(p, 2)
            if not libs:
                cells[p] = EMPTY
                return None
            self.ko = (captured[0] if len(captured) == 1 and len(stones) == 1 and len(libs) == 1
                       else 0)
        else:
            self.ko = 0
        self.passes = 0
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


def _playout_move(pos: Playout, last: int, rng: random.Random, empties: list[int]) -> int:
    cells = pos.cells
    color = pos.to_move
    nb = pos.neighbours
    if last and [cells[q] for q in nb[last]].count(EMPTY) < 2:
        # Capture the last move's group if it is in atari; save an own group
        # the last move put in atari if its one liberty gives it more.
        if cells[last] == 3 - color:
            stones, libs = pos.group_liberties(last, 2)
            if len(libs) == 1:
                (lib,) = libs
                if lib != pos.ko:
                    return lib
        for q in nb[last]:
            if cells[q] == color and [cells[r] for r in nb[q]].count(EMPTY) < 2:
                stones, libs = pos.group_liberties(q, 2)
                if len(libs) == 1:
                    (lib,) = libs
                    trial = pos.copy()
                    if trial.play(lib) is not None:
                        _, after = trial.group_liberties(lib, 3)
                        if len(after) >= 2:
                            return lib
    n = len(empties)
    if n == 0:
        return PASS
    start = rng.randrange(n)
    for k in range(n):
        p = empties[(start + k) % n]
        if cells[p] != EMPTY or p == pos.ko or pos.is_eye(p, color):
            continue
        free = 0
        for q in nb[p]:
            if cells[q] == EMPTY:
                free += 1
        if free >= 2:
            return p  # two liberties of its own: neither suicide nor self-atari
        trial = pos.copy()
        captured = trial.play(p)
        if captured is None:
            continue  # suicide
        if captured:
            return p
        stones, libs = trial.group_liberties(p, 2)
        # Self-atari is almost always bad; a lone stone may be a throw-in.
        if len(libs) >= 2 or (len(stones) == 1 and rng.random() < 0.25):
            return p
    return PASS


def simulate(pos: Playout, komi: float, rng: random.Random, last: int,
             amaf: dict[int, int], max_moves: int) -> float:
    """Play ``pos`` out at random; return Black's area lead minus komi.

    ``amaf`` receives the colour of the first play on each point.
    """
    empties = [p for p in pos.points if pos.cells[p] == EMPTY]
    moves = 0
    while pos.passes < 2 and moves < max_moves:
        p = _playout_move(pos, last, rng, empties)
        color = pos.to_move
        captured = pos.play(p)
        if captured is None:  # a move the cheap tests let through
            captured = pos.play(PASS) or []
            p = PASS
        if p != PASS:
            if p not in amaf:
                amaf[p] = color
            empties.remove(p)
            empties += captured
        last = p
        moves += 1
    return pos.score(komi)


class _Node:
    __slots__ = ("move", "color", "children", "visits", "wins", "rave_visits", "rave_wins",
                 "expanded")

    def __init__(self, move: int, color: int, prior_visits: float, prior_wins: float) -> None:
        self.move = move
        self.color = color  # the colour that played ``move``
        self.children: list[_Node] = []
        self.visits = prior_visits
        self.wins = prior_wins
        self.rave_visits = 0.0
        self.rave_wins = 0.0
        self.expanded = False


class SearchOutcome:
    """The result of a search: the best move (an index, ``PASS``), its
    win rate for the side to move, the playouts run, and every root move's
    visits."""

    def __init__(self, move: int, winrate: float, playouts: int,
                 visits: dict[int, float], ownership: list[float]) -> None:
        self.move = move
        self.winrate = winrate
        self.playouts = playouts
        self.visits = visits
        self.ownership = ownership


class MctsSearcher:
    """Monte-Carlo tree search with RAVE over :class:`Playout` positions."""

    rave_equivalence = 800.0
    expand_after = 2
    prior = 10.0

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def _children(self, pos: Playout, allowed: set[int] | None) -> list[_Node]:
        color = pos.to_move
        size = pos.size
        cells = pos.cells
        stones = sum(1 for p in pos.points if cells[p] != EMPTY)
        early = stones < size * size // 3
        # Groups in atari: taking the last liberty of an enemy group, or
        # extending an own group from its last liberty, are tried first.
        captures: set[int] = set()
        saves: set[int] = set()
        seen: set[int] = set()
        for p in pos.points:
            if cells[p] in (BLACK, WHITE) and p not in seen:
                group, libs = pos.group_liberties(p)
                seen.update(group)
                if len(libs) == 1:
                    (captures if cells[p] != color else saves).update(libs)
        out = []
        for p in pos.candidate_moves():
            if allowed is not None and p not in allowed:
                continue
            row, col = pos.point(p) or (0, 0)
            line = min(row, col, size - 1 - row, size - 1 - col)
            rate = 0.5
            if early and size >= 7:
                rate = 0.2 if line == 0 else (0.4 if line == 1 else 0.55)
            # Prefer moves next to stones once the game is under way.
            if not early and any(cells[q] in (BLACK, WHITE) for q in pos.neighbours[p]):
                rate += 0.05
            if p in captures:
                rate = 0.85
            elif p in saves:
                rate = max(rate, 0.7)
            out.append(_Node(p, color, self.prior, self.prior * rate))
        return out

    def _select(self, node: _Node) -> _Node:
        best, best_value = node.children[0], -1.0
        log_n = math.log(node.visits + 1)
        k = self.rave_equivalence
        for child in node.children:
            q = child.wins / child.visits if child.visits else 0.5
            if child.rave_visits:
                r = child.rave_wins / child.rave_visits
                beta = child.rave_visits / (child.rave_visits + child.visits
                                            + child.rave_visits * child.visits / k)
                q = (1 - beta) * q + beta * r
            value = q + 0.2 * math.sqrt(log_n / (child.visits + 1))
            if value > best_value:
                best, best_value = child, value
        return best

    def search(self, root_pos: Playout, komi: float, *, allowed: Iterable[int] | None = None,
               seconds: float = 1.0, max_playouts: int | None = None,
               stop: threading.Event | None = None) -> SearchOutcome:
        """Search ``root_pos`` for ``seconds`` (or ``max_playouts``).

        ``allowed`` limits the root moves (the caller's fully legal moves).
        Returns the most visited root move, or ``PASS`` if there is none.
        """
        allowed_set = set(allowed) if allowed is not None else None
        root = _Node(PASS, 3 - root_pos.to_move, 0, 0)
        root.children = self._children(root_pos, allowed_set)
        root.expanded = True
        size = root_pos.size
        ownership = [0.0] * len(root_pos.cells)
        if not root.children:
            return SearchOutcome(PASS, 0.5, 0, {}, ownership)
        deadline = time.monotonic() + seconds
        playouts = 0
        max_moves = size * size * 3
        while True:
            if max_playouts is not None and playouts >= max_playouts:
                break
            if playouts & 15 == 0 and (time.monotonic() >= deadline or (stop and stop.is_set())):
                if playouts > 0:
                    break
            pos = root_pos.copy()
            node = root
            path = [root]
            amaf: dict[int, int] = {}
            last = 0
            while node.expanded and node.children:
                child = self._select(node)
                if pos.play(child.move) is None:
                    node.children.remove(child)
                    if not node.children:
                        break
                    continue
                amaf.setdefault(child.move, child.color)
                last = child.move
                node = child
                path.append(node)
            if not node.expanded and node.visits - self.prior >= self.expand_after:
                node.children = self._children(pos, None)
                node.expanded = True
            result = simulate(pos, komi, self.rng, last, amaf, max_moves)
            black_wins = result > 0
            for p in root_pos.points:
                c = pos.cells[p]
                if c == BLACK or (c == EMPTY and pos.is_eye(p, BLACK)):
                    ownership[p] += 1
                elif c == WHITE or (c == EMPTY and pos.is_eye(p, WHITE)):
                    ownership[p] -= 1
            for n in path:
                n.visits += 1
                if (n.color == BLACK) == black_wins:
                    n.wins += 1
                for child in n.children:
                    if amaf.get(child.move) == child.color:
                        child.rave_visits += 1
                        if (child.color == BLACK) == black_wins:
                            child.rave_wins += 1
            playouts += 1
        best = max(root.children, key=lambda c: c.visits)
        visits = {c.move: c.visits - self.prior for c in root.children}
        winrate = best.wins / best.visits if best.visits else 0.5
        own = [o / playouts for o in ownership]
        return SearchOutcome(best.move, winrate, playouts, visits, own)
