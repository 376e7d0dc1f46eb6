"""Look-ahead for 积分编排制: a round must leave a completable schedule.

Appendix 2 never pairs opponents twice ("相遇过的对手不再编对"), so a
round that is legal on its own can still leave the later rounds without any
rematch-free pairing (a dead end, typically when the number of rounds comes
close to the number of entries).  After this round's pairs are taken out, the
graph of pairs still allowed must hold ``rounds_left`` edge-disjoint perfect
matchings (one per remaining round; with an odd field a bye node joins the
entries that may still have a bye).

* Small fields (at most :data:`EXACT_LIMIT` nodes): decided exactly by a
  search for the disjoint matchings (bit sets, symmetry-broken, memoised,
  with a step budget).
* Larger fields: a sufficient bound -- a graph whose least degree is at
  least n/2 + k - 1 holds k disjoint perfect matchings (Dirac: degree >= n/2
  gives a Hamiltonian cycle, hence a perfect matching; taking one out lowers
  every degree by one) -- then a greedy search with networkx matchings, and
  up to :data:`SEARCH_LIMIT` nodes the exact search with a smaller budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

EXACT_LIMIT = 14  # nodes (entries plus the bye node) decided exactly
SEARCH_LIMIT = 24  # nodes tried exactly, with a smaller budget, when the bounds fail
_BUDGET = 400_000  # search steps before the exact check gives up (None)
_SMALL_BUDGET = 50_000

BYE = -1  # the bye node


def remaining_graph(ids: Sequence[int], met: Callable[[int, int], bool],
                    bye_ok: Callable[[int], bool] | None) -> dict[int, set[int]]:
    """Return the adjacency of the pairs still allowed among ``ids``: not
    ``met``; with ``bye_ok`` (odd field) a :data:`BYE` node joins the entries
    it accepts."""
    adj: dict[int, set[int]] = {i: set() for i in ids}
    ordered = list(ids)
    for x, a in enumerate(ordered):
        for b in ordered[x + 1:]:
            if not met(a, b):
                adj[a].add(b)
                adj[b].add(a)
    if bye_ok is not None:
        adj[BYE] = {i for i in ordered if bye_ok(i)}
        for i in adj[BYE]:
            adj[i].add(BYE)
    return adj


def _bits(adj: dict[int, set[int]]) -> tuple[int, ...]:
    nodes = sorted(adj)
    index = {v: k for k, v in enumerate(nodes)}
    out = []
    for v in nodes:
        m = 0
        for u in adj[v]:
            m |= 1 << index[u]
        out.append(m)
    return tuple(out)


def _matchings(adj: tuple[int, ...], rest: int, first_min: int) -> Iterator[list[tuple[int, int]]]:
    """Perfect matchings of the vertices in bit set ``rest``; vertex 0's
    partner (when 0 is in ``rest``) must be above ``first_min``."""
    if not rest:
        yield []
        return
    v = (rest & -rest).bit_length() - 1
    cand = adj[v] & rest & ~(1 << v)
    if v == 0:
        cand &= ~((1 << (first_min + 1)) - 1)
    while cand:
        low = cand & -cand
        u = low.bit_length() - 1
        cand ^= low
        left = rest & ~(1 << v) & ~low
        # every vertex left must still have a partner
        ok = True
        probe = left
        while probe:
            b = probe & -probe
            if not adj[b.bit_length() - 1] & left:
                ok = False
                break
            probe ^= b
        if not ok:
            continue
        for tail in _matchings(adj, left, first_min):
            yield [(v, u), *tail]


class _Search:
    def __init__(self, budget: int = _BUDGET) -> None:
        self.budget = budget
        self.steps = 0
        self.memo: dict[tuple[tuple[int, ...], int, int], bool] = {}

    def holds(self, adj: tuple[int, ...], k: int, first_min: int = 0) -> bool:
        """True when ``adj`` holds ``k`` edge-disjoint perfect matchings."""
        if k == 0:
            return True
        if any(bin(a).count("1") < k for a in adj):
            return False
        key = (adj, k, first_min)
        if key in self.memo:
            return self.memo[key]
        full = (1 << len(adj)) - 1
        found = False
        for m in _matchings(adj, full, first_min):
            self.steps += 1
            if self.steps > self.budget:
                raise TimeoutError
            nxt = list(adj)
            for a, b in m:
                nxt[a] &= ~(1 << b)
                nxt[b] &= ~(1 << a)
            partner0 = next(b for a, b in m if a == 0)
            if self.holds(tuple(nxt), k - 1, partner0):
                found = True
                break
        self.memo[key] = found
        return found


def completable(adj: dict[int, set[int]], rounds_left: int) -> bool | None:
    """Return whether ``adj`` (from :func:`remaining_graph`, this round's
    pairs already taken out) holds ``rounds_left`` edge-disjoint perfect
    matchings: True, False, or None when the exact search ran out of steps
    or a large field passes neither the bound nor the greedy search."""
    n = len(adj)
    if rounds_left <= 0 or n == 0:
        return True
    if n % 2:
        return False
    if min(len(v) for v in adj.values()) < rounds_left:
        return False
    if n <= EXACT_LIMIT:
        try:
            return _Search().holds(_bits(adj), rounds_left)
        except TimeoutError:
            return None
    if min(len(v) for v in adj.values()) >= n // 2 + rounds_left - 1:
        return True
    import networkx as nx  # imported here: start-up time of the CLI

    g = nx.Graph()
    g.add_nodes_from(adj)
    g.add_edges_from((a, b) for a, bs in adj.items() for b in bs if a < b)
    for _ in range(rounds_left):
        m = nx.max_weight_matching(g, maxcardinality=True)
        if 2 * len(m) != n:
            break
        g.remove_edges_from(m)
    else:
        return True
    if n <= SEARCH_LIMIT:
        try:
            return _Search(_SMALL_BUDGET).holds(_bits(adj), rounds_left)
        except TimeoutError:
            return None
    return None


def perfect_matchings(adj: dict[int, set[int]]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``adj`` (small graphs), as node-id pairs."""
    nodes = sorted(adj)
    bits = _bits(adj)
    for m in _matchings(bits, (1 << len(nodes)) - 1, -1):
        yield [(nodes[a], nodes[b]) for a, b in m]


def without(adj: dict[int, set[int]], pairs: Sequence[tuple[int, int]]) -> dict[int, set[int]]:
    """Return a copy of ``adj`` with ``pairs`` taken out."""
    out = {v: set(ns) for v, ns in adj.items()}
    for a, b in pairs:
        out[a].discard(b)
        out[b].discard(a)
    return out
