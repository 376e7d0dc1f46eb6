"""The 积分编排制 colour clauses written out again for the tests (13.3 and
Appendix 2), and an exact lexicographic matching solver that shares no code
with the pairer: the oracle of test_pairing_weights.py.

The pairer solves its matchings with networkx's weighted blossom algorithm
and scipy's Hungarian assignment, folding the priorities into one integer
weight; :func:`lexicographic_minimum` instead solves a 0-1 integer programme
(scipy's HiGHS MILP) once per priority, fixing each optimum before the next,
so a weight that lets a lower priority outweigh a higher one shows up as a
difference between the two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from qisai.competition.model import Colour
from qisai.competition.pairing.swiss import SwissPlayer
from qisai.competition.pairing.swiss_options import SwissOptions

R, B = Colour.RED, Colour.BLACK


def may_take(colours: tuple[Colour, ...], c: Colour, opts: SwissOptions) -> bool:
    """The colour limits, written out again: |Red - Black| after the game and
    the run of one colour."""
    diff = sum(1 if x is R else -1 for x in colours) + (1 if c is R else -1)
    run = 1
    for x in reversed(colours):
        if x is not c:
            break
        run += 1
    return abs(diff) <= opts.max_colour_diff and run <= opts.max_streak


def due(colours: tuple[Colour, ...]) -> tuple[Colour | None, int]:
    """The colour an entry is due and how strongly (13.3, Appendix 2): an
    unbalanced difference (2), else the alternation (1), else none (0)."""
    diff = sum(1 if c is R else -1 for c in colours)
    if diff:
        return (R if diff < 0 else B), 2
    return (colours[-1].other if colours else None), (1 if colours else 0)


def clash(a: tuple[Colour, ...], b: tuple[Colour, ...]) -> int:
    """How much two entries with these histories are due the same colour
    (the weaker of the two claims; 0 if they are due different colours)."""
    (ca, sa), (cb, sb) = due(a), due(b)
    return min(sa, sb) if ca is not None and ca is cb else 0


def limits_broken(a: tuple[Colour, ...], b: tuple[Colour, ...], opts: SwissOptions) -> int:
    """The fewest colour limits a game between the two must break (0-2)."""
    return min((not may_take(x, R, opts)) + (not may_take(y, B, opts))
               for x, y in ((a, b), (b, a)))


def expected_colours(a: SwissPlayer, b: SwissPlayer, opts: SwissOptions,
                      limits: bool) -> set[tuple[int, int]]:
    """The (Red, Black) orders 13.3 and Appendix 2 allow for a pair, written
    out from the clauses: the limits first (the order breaking fewest), then
    fewer Red games takes Red, then Black last round takes Red, then the
    higher placed alternates; with no history, by lot (either)."""
    orders = [(a, b), (b, a)]
    if limits:
        broken = [(not may_take(x.colours, R, opts)) + (not may_take(y.colours, B, opts))
                  for x, y in orders]
        orders = [o for o, k in zip(orders, broken, strict=True) if k == min(broken)]
        if len(orders) == 1:
            return {(orders[0][0].id, orders[0][1].id)}
    da = sum(1 if c is R else -1 for c in a.colours)
    db = sum(1 if c is R else -1 for c in b.colours)
    if da != db:
        return {(a.id, b.id)} if da < db else {(b.id, a.id)}
    la = a.colours[-1] if a.colours else None
    lb = b.colours[-1] if b.colours else None
    if la is not None and lb is not None and la is not lb:
        return {(a.id, b.id)} if la is B else {(b.id, a.id)}
    if la is not None:
        hi, lo = (a, b) if (-a.score, a.order) < (-b.score, b.order) else (b, a)
        return {(hi.id, lo.id)} if la is B else {(lo.id, hi.id)}
    return {(a.id, b.id), (b.id, a.id)}


def perfect_matchings(ids: Sequence[int], may: Callable[[int, int], bool]
                      ) -> Iterator[list[tuple[int, int]]]:
    """Every pairing of all of ``ids`` whose pairs ``may`` meet (brute force:
    the first entry with each allowed partner, then the rest)."""
    if not ids:
        yield []
        return
    first = ids[0]
    for k in range(1, len(ids)):
        if may(first, ids[k]):
            for rest in perfect_matchings([*ids[1:k], *ids[k + 1:]], may):
                yield [(first, ids[k]), *rest]


def lexicographic_minimum(nodes: int, edges: Sequence[tuple[int, int]],
                          costs: Sequence[Sequence[int]]) -> list[int]:
    """Return ``[-size, c_1, c_2, ...]`` of the best matching of a graph:
    first the most edges (maximum cardinality), then the smallest sum of
    ``costs[e][0]``, then of ``costs[e][1]`` with the first fixed, and so on.

    ``edges`` join node numbers 0..nodes-1; ``costs[e]`` is edge e's integer
    cost vector.  Each priority is one 0-1 integer programme (x_e: edge e is
    taken; every node in at most one taken edge) whose optimum is then kept
    as a constraint for the rest.
    """
    m = len(edges)
    if m == 0:
        return [0] * (1 + (len(costs[0]) if costs else 0))
    incidence = np.zeros((nodes, m))
    for e, (u, v) in enumerate(edges):
        incidence[u, e] = incidence[v, e] = 1
    constraints = [LinearConstraint(incidence, 0, 1)]
    objectives = [-np.ones(m)] + [np.array([c[k] for c in costs], dtype=float)
                                  for k in range(len(costs[0]))]
    out = []
    for c in objectives:
        res = milp(c, constraints=constraints, integrality=np.ones(m), bounds=Bounds(0, 1))
        assert res.success, res.message
        best = round(res.fun)
        out.append(best)
        constraints.append(LinearConstraint(c.reshape(1, -1), -np.inf, best + 0.5))
    return out
