"""Proposing dead stones at the end of a game (死活确认的建议).

The rule text (终局规定 4(5)): at the end, stones without two true eyes and
not in seki are dead and are removed, once both players confirm.  qisai
offers a proposal for the players (or the referee) to confirm:

* Benson's algorithm finds the groups that are alive unconditionally (they
  can never be captured even if their owner always passes); they are never
  proposed dead.
* Stones in seki (双活, :func:`qisai.go.scoring.find_seki`) are alive.
* Every other group is judged by Monte Carlo ownership: many random
  playouts to the end (neither side fills its own one-point eyes) and the
  group is dead if the opponent owns its points in most of them.

Pure: the playouts draw from a :class:`random.Random` seeded by the caller.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from qisai.go.board import EDGE, EMPTY, Board
from qisai.go.coords import Point
from qisai.go.errors import ScoringError
from qisai.go.rules import Color, KoRule, Rules
from qisai.go.scoring import Score, expand_dead, find_seki, score


def benson_alive(board: Board, color: Color) -> frozenset[Point]:
    """Return the stones of ``color`` that are unconditionally alive (Benson).

    A set of chains is unconditionally alive when each chain has at least two
    vital regions; a region (a connected set of points not of ``color``) is
    vital to a chain when all its empty points are liberties of the chain,
    and every chain bordering the region stays in the set.
    """
    size = board.size
    mine = {p for p in board.stones(color)}
    chain_of: dict[Point, int] = {}
    chains: list[set[Point]] = []
    for p in mine:
        if p in chain_of:
            continue
        group = board.group(p)
        for q in group:
            chain_of[q] = len(chains)
        chains.append(set(group))
    libs = [set(board.liberties(next(iter(c)))) for c in chains]
    regions: list[tuple[set[Point], set[int]]] = []
    seen: set[Point] = set()
    for p in board.points():
        if p in mine or p in seen:
            continue
        members: set[Point] = set()
        borders: set[int] = set()
        stack = [p]
        seen.add(p)
        while stack:
            q = stack.pop()
            members.add(q)
            for n in _adjacent(q, size):
                if n in mine:
                    borders.add(chain_of[n])
                elif n not in seen:
                    seen.add(n)
                    stack.append(n)
        regions.append((members, borders))
    empty = set(board.empty_points())
    alive = set(range(len(chains)))
    live_regions = set(range(len(regions)))
    changed = True
    while changed:
        changed = False
        vital_count = dict.fromkeys(alive, 0)
        for r in live_regions:
            members, borders = regions[r]
            empties = members & empty
            for x in borders:
                if x in alive and empties <= libs[x]:
                    vital_count[x] += 1
        for x in list(alive):
            if vital_count[x] < 2:
                alive.discard(x)
                changed = True
        for r in list(live_regions):
            if not regions[r][1] <= alive:
                live_regions.discard(r)
                changed = True
    return frozenset(p for x in alive for p in chains[x])


def _adjacent(p: Point, size: int) -> Iterable[Point]:
    row, col = p
    if row > 0:
        yield (row - 1, col)
    if row < size - 1:
        yield (row + 1, col)
    if col > 0:
        yield (row, col - 1)
    if col < size - 1:
        yield (row, col + 1)


def ownership(board: Board, playouts: int = 64, seed: int = 0) -> dict[Point, float]:
    """Return, for each point, the share of random playouts Black owns it (0..1).

    Each playout starts from ``board`` (alternately with Black and White to
    move), plays random legal moves that do not fill the player's own
    one-point eye until both pass, then counts each point for the colour of
    its stone or of the only colour around it (area style).  Raises
    :class:`qisai.go.errors.ScoringError` if ``playouts`` is below 1.
    """
    if playouts < 1:
        raise ScoringError(f"模拟次数至少为 1，不是 {playouts}",
                           f"playouts must be at least 1, not {playouts}")
    rng = random.Random(seed)
    size = board.size
    play_rules = replace(board.rules, ko=KoRule.SIMPLE, suicide_allowed=False)
    colors = [0] * (size * size)
    for who in (Color.BLACK, Color.WHITE):
        for row, col in board.stones(who):
            colors[row * size + col] = int(who)
    black_owned = [0] * len(colors)
    count = 0
    sim = Board(size, play_rules)
    pts = sim._points
    for n in range(playouts):
        sim._load(colors)
        sim._to_move = 1 if n % 2 == 0 else 2
        sim._ko = 0
        sim._seen = {}
        _playout(sim, rng, 3 * size * size)
        grid = sim._color
        s = sim._stride
        for k, i in enumerate(pts):
            c = grid[i]
            if c == 1:
                black_owned[k] += 1
            elif c == EMPTY:
                around = {grid[i + s], grid[i - s], grid[i - 1], grid[i + 1]}
                around.discard(EDGE)
                if around == {1}:
                    black_owned[k] += 1
        count += 1
    return {(k // size, k % size): black_owned[k] / count for k in range(len(colors))}


def _playout(sim: Board, rng: random.Random, max_moves: int) -> None:
    """Play random moves on ``sim`` until two passes in a row (or ``max_moves``).

    Before a random move the player answers the last move's ataris: he
    captures a string of the opponent's left with one liberty beside it, or
    else saves his own string it put in atari when extending gives that
    string two liberties or more.  Capturing races (对杀) are then read as
    players read them, not settled by chance.
    """
    grid = sim._color
    s = sim._stride
    pts = sim._points
    passes = 0
    moves = 0
    last = 0
    while passes < 2 and moves < max_moves:
        c = sim._to_move
        played = False
        reply = _atari_reply(sim, last, c) if last else 0
        if reply:
            reason, captured, h = sim._examine(reply, c)
            if reason is None:
                sim._do_play(reply, c, captured, h)
                played = True
                last = reply
        empties = [] if played else [i for i in pts if grid[i] == EMPTY]
        while empties:
            k = rng.randrange(len(empties))
            i = empties[k]
            empties[k] = empties[-1]
            empties.pop()
            if _is_own_eye(grid, s, i, c):
                continue
            reason, captured, h = sim._examine(i, c)
            if reason is not None:
                continue
            if not captured and _self_atari_of_group(sim, i, c):
                continue
            sim._do_play(i, c, captured, h)
            played = True
            last = i
            break
        if played:
            passes = 0
        else:
            sim._pass()
            passes += 1
            last = 0
        moves += 1
        if len(sim._history) > 64:
            # Playouts never undo: drop old records to keep memory flat.
            del sim._history[:32]


def _atari_reply(sim: Board, last: int, c: int) -> int:
    """The point where ``c`` answers an atari of the move at ``last``: a capture
    of an opponent's string beside it with one liberty, else the extension of
    his own string in atari that leaves it two liberties or more; 0 for none."""
    grid = sim._color
    group = sim._group
    s = sim._stride
    save = 0
    for n in (last, last + s, last - s, last - 1, last + 1):
        g = group[n] if grid[n] not in (EMPTY, EDGE) else None
        if g is None or len(g.libs) != 1:
            continue
        lib = next(iter(g.libs))
        if g.color != c:
            return lib
        if not save and not _self_atari_of_group(sim, lib, c):
            save = lib
    return save


def _self_atari_of_group(sim: Board, i: int, c: int) -> bool:
    """Return True if ``c`` at ``i`` joins stones into a group left with one liberty.

    Such moves are almost always blunders; the playouts skip them so that
    settled groups are not thrown away at random.  A lone stone in atari is
    still allowed (throw-ins reduce eyes).
    """
    grid = sim._color
    group = sim._group
    s = sim._stride
    libs: set[int] = set()
    joined = False
    for n in (i + s, i - s, i - 1, i + 1):
        g = grid[n]
        if g == EMPTY:
            libs.add(n)
        elif g == c:
            joined = True
            libs |= group[n].libs  # type: ignore[union-attr]
    if not joined:
        return False
    libs.discard(i)
    return len(libs) <= 1


def _is_own_eye(grid: list[int], s: int, i: int, c: int) -> bool:
    """Return True if ``i`` is a one-point eye of ``c`` that should not be filled."""
    at_edge = False
    for n in (i + s, i - s, i - 1, i + 1):
        g = grid[n]
        if g == EDGE:
            at_edge = True
        elif g != c:
            return False
    opp = 3 - c
    bad = 0
    n = len(grid)
    for d in (i + s + 1, i + s - 1, i - s + 1, i - s - 1):
        if 0 <= d < n and grid[d] == opp:
            bad += 1
    return bad == 0 if at_edge else bad <= 1


_CLOSE = 0.25
"""A group owned by its owner in 50 % ± this share of the playouts is a close call."""
_MORE = 3
"""Close calls get this many times the playouts again."""


def estimate_dead(board: Board, playouts: int = 64, seed: int = 0) -> frozenset[Point]:
    """Return the stones proposed dead in the finished position ``board``.

    Unconditionally alive stones (Benson) and stones in seki are never
    proposed; every other group is dead when, averaged over its stones, the
    opponent owns it in more than half of the playouts (see
    :func:`ownership`); when some group is a close call (kept in 25-75 % of
    them) three times ``playouts`` more are played and pooled with the first.
    Deterministic for a given ``seed``.  Raises
    :class:`qisai.go.errors.ScoringError` if ``playouts`` is below 1.
    """
    if playouts < 1:
        raise ScoringError(f"模拟次数至少为 1，不是 {playouts}",
                           f"playouts must be at least 1, not {playouts}")
    safe = set(benson_alive(board, Color.BLACK)) | set(benson_alive(board, Color.WHITE))
    # Seki (双活) is judged on the position as it stands: random playouts
    # would often fill a shared liberty and "kill" a group that lives.
    safe |= find_seki(board)
    candidates: list[frozenset[Point]] = []
    done: set[Point] = set()
    for color in (Color.BLACK, Color.WHITE):
        for p in board.stones(color):
            if p in done or p in safe:
                continue
            group = board.group(p)
            done |= group
            candidates.append(group)
    if not candidates:
        return frozenset()
    own = ownership(board, playouts, seed)

    def share(group: frozenset[Point]) -> float:
        black = board.get(next(iter(group))) is Color.BLACK
        return sum(own[q] if black else 1.0 - own[q] for q in group) / len(group)

    # A group whose owner keeps it in a quarter to three quarters of the
    # playouts is a close call at this number of playouts: three times as
    # many more decide it (their shares pooled with the first ones).
    if any(abs(share(group) - 0.5) < _CLOSE for group in candidates):
        more = ownership(board, _MORE * playouts, seed + 1)
        own = {q: (own[q] + _MORE * more[q]) / (1 + _MORE) for q in own}
    dead: set[Point] = set()
    for group in candidates:
        kept = share(group)
        if kept < 0.5:
            dead |= group
    return frozenset(dead)


class DeadMarks:
    """Dead stones marked on a finished board, group by group (死子的标记).

    The players (or the referee) mark and unmark whole groups, starting from
    nothing or from :func:`estimate_dead`'s proposal, then count with
    :meth:`score`.  The board itself is never changed.
    """

    def __init__(self, board: Board, dead: Iterable[Point] = ()) -> None:
        self.board = board
        self._dead: set[Point] = set()
        for p in dead:
            self.mark(p)

    @property
    def dead(self) -> frozenset[Point]:
        """Return every stone marked dead."""
        return frozenset(self._dead)

    def is_dead(self, point: Point) -> bool:
        """Return True if the stone on ``point`` is marked dead."""
        return point in self._dead

    def mark(self, point: Point) -> frozenset[Point]:
        """Mark the whole group on ``point`` dead and return its stones.

        Raises :class:`qisai.go.errors.ScoringError` if the point is empty,
        :class:`qisai.go.errors.CoordinateError` if it is off the board.
        """
        group = expand_dead(self.board, [point])
        self._dead |= group
        return group

    def unmark(self, point: Point) -> frozenset[Point]:
        """Mark the whole group on ``point`` alive again and return its stones.

        Raises like :meth:`mark`.
        """
        group = expand_dead(self.board, [point])
        self._dead -= group
        return group

    def toggle(self, point: Point) -> bool:
        """Flip the group on ``point`` between dead and alive; return True if now dead.

        Raises like :meth:`mark`.
        """
        if point in self._dead:
            self.unmark(point)
            return False
        self.mark(point)
        return True

    def propose(self, playouts: int = 64, seed: int = 0) -> frozenset[Point]:
        """Replace the marks with :func:`estimate_dead`'s proposal and return it."""
        self._dead = set(estimate_dead(self.board, playouts, seed))
        return self.dead

    def score(self, rules: Rules | None = None) -> Score:
        """Return the count with the marked stones removed (see :func:`qisai.go.scoring.score`)."""
        return score(self.board, self._dead, rules=rules)
