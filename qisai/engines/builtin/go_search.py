"""The search of qisai's built-in Go engine: Monte-Carlo tree search with
RAVE over the playout board of :mod:`~qisai.engines.builtin.go_playout`.

New tree nodes get priors from :mod:`~qisai.engines.builtin.go_priors`;
nodes keep UCT and all-moves-as-first (RAVE) statistics, blended as in
Gelly and Silver (2007).  A playout is worth mostly its win and a little
its margin.  The subtree of the move played and the reply to it is kept for
the next search.

:class:`Playout`, :func:`simulate`, ``PASS`` and the colours are re-exported
here: they are the vocabulary of the search's API.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Iterable

from qisai.engines.builtin.go_playout import BLACK, PASS, Playout, simulate
from qisai.engines.builtin.go_priors import priors

__all__ = ["MctsSearcher", "SearchOutcome"]


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
        return [_Node(p, color, visits, wins) for p, visits, wins in priors(pos, allowed)]

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
