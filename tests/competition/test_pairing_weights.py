"""The priorities of 积分编排制 (Appendix 2) against solvers that share no
code with the pairer.

Appendix 2 orders what a round must serve: "由最高分按积分段逐段向下编排" and
"以近分者编对" (fewest pairs across each score boundary, the top boundary
first), then "在首先服从同分或近分者对弈的原则下，应尽量平衡每个人先后走的次数"
(the colour limits, then the colour each entry is due), then the upper half
of a score group against the lower half (or neighbours, by option), with the
floater or the bye the lowest placed.  The pairer folds these priorities into
one integer weight per pair; a weight too small lets a lower priority buy
back a higher one, but only on fields larger than the hand-built rounds of
test_pairing_rules.py.  Here the pairer's choice on random fields of up to 26
entries is compared with the lexicographic optimum found priority by priority
(an exact 0-1 programme, or every assignment of a segment's halves).
"""

from __future__ import annotations

import functools
import itertools
import random

# loaded once at collection (see test_pairing_rules.py)
import networkx  # noqa: F401
import pytest
import scipy.optimize  # noqa: F401

from qisai.competition.pairing.swiss import SwissPlayer, _Rules, _Solver, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions

from ._swiss_clauses import B, R, clash, lexicographic_minimum, limits_broken, may_take

FLOAT = -1  # the node that takes the entry floating down (or the bye)


def _field(rng: random.Random, n: int, levels: int, games: int,
           met_p: float = 0.15) -> list[SwissPlayer]:
    """``n`` entries on ``levels`` scores with random earlier opponents (each
    pair with chance ``met_p``) and random colour histories of ``games``
    games (not made by the pairer)."""
    met: dict[int, set[int]] = {i: set() for i in range(1, n + 1)}
    for i, j in itertools.combinations(range(1, n + 1), 2):
        if rng.random() < met_p:
            met[i].add(j)
            met[j].add(i)
    return [SwissPlayer(i, float(rng.randrange(levels)), i, frozenset(met[i]),
                        tuple(rng.choice((R, B)) for _ in range(games)))
            for i in range(1, n + 1)]


def _options(rng: random.Random) -> SwissOptions:
    return SwissOptions(max_colour_diff=rng.randint(1, 2), max_streak=rng.randint(1, 2),
                        segment_pairing=rng.choice(["halves", "adjacent"]),
                        colour_rule=rng.choice(["score_first", "hard"]))


class _Priorities:
    """The cost vector of a pair, priority by priority, from the clauses:
    one count per score boundary (top first), then the colour limits broken
    (only when they are soft, colour_rule 'score_first'; hard limits forbid
    the pair), then how much both are due the same colour, then the distance
    from the wanted partner: half the group apart for 'halves' (1 meets
    n/2 + 1), next in line for 'adjacent', and for the floater or the bye the
    lowest placed."""

    def __init__(self, field: list[SwissPlayer], opts: SwissOptions, floating: bool) -> None:
        self.by = {p.id: p for p in field}
        self.opts = opts
        self.soft = opts.colour_rule == "score_first"
        self.nodes = sorted(self.by, key=lambda i: (-self.by[i].score, self.by[i].order))
        scores = sorted({p.score for p in field}, reverse=True)
        self.level = {i: scores.index(self.by[i].score) for i in self.nodes}
        if floating and len(self.nodes) % 2:
            self.nodes.append(FLOAT)
            self.level[FLOAT] = len(scores)
        self.boundaries = max(self.level.values())
        self.pos = {x: k for k, x in enumerate(self.nodes)}
        n = len(self.nodes)
        self.target = 1 if opts.segment_pairing == "adjacent" else max(1, n // 2)

    def may_meet(self, a: int, b: int) -> bool:
        """No rematch; with hard limits, an order of colours that keeps them."""
        if b in self.by[a].opponents or a in self.by[b].opponents:
            return False
        return self.soft or any(
            may_take(self.by[x].colours, R, self.opts) and may_take(self.by[y].colours, B, self.opts)
            for x, y in ((a, b), (b, a)))

    def cost(self, a: int, b: int) -> list[int]:
        lo, hi = sorted((self.level[a], self.level[b]))
        crossings = [int(lo <= k < hi) for k in range(self.boundaries)]
        if FLOAT in (a, b):
            other = b if a == FLOAT else a
            return crossings + [0, 0, len(self.nodes) - self.pos[other]]
        ha, hb = self.by[a].colours, self.by[b].colours
        broken = limits_broken(ha, hb, self.opts) if self.soft else 0
        return crossings + [broken, clash(ha, hb),
                            abs(abs(self.pos[a] - self.pos[b]) - self.target)]

    def total(self, pairs: list[tuple[int, int]]) -> list[int]:
        vectors = [self.cost(a, b) for a, b in pairs]
        return [-len(pairs)] + [sum(v) for v in zip(*vectors, strict=True)]


def _regrouping(field: list[SwissPlayer], opts: SwissOptions, mode: str,
                pool: set[int] | None) -> tuple[list[int], list[int], _Priorities]:
    """Run the pairer's weighted matching (the one behind 拆开重排, 受卡 and a
    bye chosen by matching) on ``field``; return its cost and the optimum."""
    by = {p.id: p for p in field}
    solver = _Solver(by, _Rules(by, opts, 5, True, False), opts)
    floor = min(p.score for p in field) if mode == "float" else None
    pairs = solver._match(list(by), floor, bye_pool=pool)
    prio = _Priorities(field, opts, mode != "even")
    ours = pairs + ([(solver.bye, FLOAT)] if solver.bye is not None else [])
    edges = []
    for x, y in itertools.combinations(range(len(prio.nodes)), 2):
        a, b = prio.nodes[x], prio.nodes[y]
        if FLOAT in (a, b):
            if pool is None or (b if a == FLOAT else a) in pool:
                edges.append((x, y))
        elif prio.may_meet(a, b):
            edges.append((x, y))
    costs = [prio.cost(prio.nodes[x], prio.nodes[y]) for x, y in edges]
    best = lexicographic_minimum(len(prio.nodes), edges, costs)
    for a, b in pairs:
        assert prio.may_meet(a, b), (a, b)
    return prio.total(ours), best, prio


@pytest.mark.parametrize("seed", range(4))
def test_regrouping_keeps_the_appendix_2_priorities_on_large_fields(seed: int) -> None:
    """On 12 random fields of 14-26 entries per seed (even, an odd one with a
    floater, an odd one with the bye among a pool), the matching has the most
    pairs, then the fewest crossings boundary by boundary from the top, then
    the fewest broken colour limits, then the least colour due twice, then
    the partners nearest the wanted distance: exactly the optimum found
    priority by priority."""
    rng = random.Random(1000 + seed)
    traded = {"crossings": 0, "limits": 0, "clashes": 0}
    for _ in range(12):
        n = rng.randint(14, 26)
        field = _field(rng, n, rng.randint(2, 6), rng.randint(2, 4))
        opts = _options(rng)
        mode = rng.choice(["float", "bye"]) if n % 2 else "even"
        pool = ({p.id for p in field if rng.random() < 0.5} or {n}) if mode == "bye" else None
        ours, best, prio = _regrouping(field, opts, mode, pool)
        assert ours == best, (n, opts, mode, ours, best)
        traded["crossings"] += sum(best[1:1 + prio.boundaries]) > 0
        traded["limits"] += best[-3] > 0
        traded["clashes"] += best[-2] > 0
    # the priorities were really weighed against each other
    assert traded["crossings"] >= 6 and traded["clashes"] >= 6, traded
    assert traded["limits"] >= 1, traded


def _group_cost(prio: _Priorities, pairs: list[tuple[int, int]]) -> list[int]:
    """(colour limits broken, colour due twice, distance) of upper-half to
    lower-half pairs (upper first), the distance counted in places within
    the halves."""
    half = len(prio.nodes) // 2
    top, bottom = prio.nodes[:half], prio.nodes[half:]
    out = [0, 0, 0]
    for a, b in pairs:
        ha, hb = prio.by[a].colours, prio.by[b].colours
        out[0] += limits_broken(ha, hb, prio.opts) if prio.soft else 0
        out[1] += clash(ha, hb)
        out[2] += abs(top.index(a) - bottom.index(b))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_a_score_group_upper_half_meets_lower_half_against_every_assignment(seed: int) -> None:
    """One score group of 6-14 entries in a later round (random histories and
    earlier opponents): Appendix 2 pairs the upper half with the lower half,
    colour balance served first inside the group.  Among every assignment of
    the upper half to the lower half (all n/2! of them), the pairer's pairs
    break the fewest colour limits (soft limits), then give the least colour
    due twice, then keep partners nearest their own places in the two halves
    (1 meets n/2 + 1, 2 meets n/2 + 2, ...)."""
    rng = random.Random(2000 + seed)
    checked = 0
    for _ in range(30):
        n = rng.choice([6, 8, 10, 12, 14])
        field = [SwissPlayer(p.id, 2.0, p.order, p.opponents, p.colours)
                 for p in _field(rng, n, 1, rng.randint(2, 4), 0.08)]
        # hard limits of 1 leave few random histories a complete assignment
        hard = rng.random() < 0.4
        opts = SwissOptions(max_colour_diff=2 if hard else rng.randint(1, 2),
                            max_streak=2 if hard else rng.randint(1, 2),
                            colour_rule="hard" if hard else "score_first")
        prio = _Priorities(field, opts, False)
        top, bottom = prio.nodes[: n // 2], prio.nodes[n // 2:]

        options = [_group_cost(prio, list(zip(top, perm, strict=True)))
                   for perm in itertools.permutations(bottom)
                   if all(prio.may_meet(a, b) for a, b in zip(top, perm, strict=True))]
        if not options:
            continue
        res = pair_swiss_round(field, 4, opts, random.Random(seed))
        if res.relaxed and not prio.soft:
            continue  # hard limits relaxed: another rule set
        pairs = [(a, b) if a in top else (b, a) for a, b in (p.players() for p in res.pairings)]
        assert {a for a, _ in pairs} == set(top), (pairs, top)
        assert _group_cost(prio, pairs) == min(options), (opts, pairs, min(options))
        checked += 1
    assert checked >= 20, checked


def _most_pairs(ids: list[int], ok) -> int:  # type: ignore[no-untyped-def]
    """The largest number of disjoint allowed pairs among ``ids`` (brute force)."""
    @functools.cache
    def best(rest: frozenset[int]) -> int:
        if len(rest) < 2:
            return 0
        a = min(rest)
        out = best(rest - {a})  # a unpaired
        for b in rest - {a}:
            if ok(a, b):
                out = max(out, 1 + best(rest - {a, b}))
        return out

    return best(frozenset(ids))


@pytest.mark.parametrize("seed", range(3))
def test_a_score_group_keeps_as_many_pairs_as_the_rules_allow(seed: int) -> None:
    """A score group whose halves cannot all meet (earlier games, hard colour
    limits): the pairs it keeps are as many as the rematch rule and the
    colour limits allow inside the group, so the fewest entries float down
    (由最高分按积分段逐段向下编排, 同分者编对); every pair kept is allowed."""
    rng = random.Random(4000 + seed)
    checked = 0
    for _ in range(60):
        n = rng.randint(5, 11)
        field = [SwissPlayer(p.id, 2.0, p.order, p.opponents, p.colours)
                 for p in _field(rng, n, 1, rng.randint(2, 3), rng.uniform(0.1, 0.4))]
        hard = rng.random() < 0.6
        opts = SwissOptions(max_colour_diff=rng.randint(1, 2), max_streak=rng.randint(1, 2),
                            segment_pairing=rng.choice(["halves", "adjacent"]),
                            colour_rule="hard" if hard else "score_first")
        by = {p.id: p for p in field}
        prio = _Priorities(field, opts, False)
        solver = _Solver(by, _Rules(by, opts, 5, True, False), opts)
        pairs = solver._assign(prio.nodes)
        if pairs is None:
            continue  # handed to the general matching (the regrouping test above)
        assert all(prio.may_meet(a, b) for a, b in pairs), pairs
        assert len({x for pr in pairs for x in pr}) == 2 * len(pairs)
        assert len(pairs) == _most_pairs(prio.nodes, prio.may_meet), (opts, pairs)
        checked += len(pairs) < n // 2
    assert checked >= 5, checked


def test_colours_come_before_places_in_a_large_score_group() -> None:
    """A score group of 36 (round 2 of a 100-player Swiss has one): upper
    half 1-18, lower half 19-36, and every pair has met except i with 18 + i
    and i with 18 + (i + 7) mod 18, so the halves meet either place by
    place or shifted by 7 places (the two assignments of one cycle).  1 and
    19 are both due Red (Red, then Black); the others have no colour history.
    Appendix 2 serves colour balance before places, so the shift (summed
    distance 154, one clash fewer) is the round, however far it moves
    everyone."""
    h, k = 18, 7
    upper, lower = list(range(1, h + 1)), list(range(h + 1, 2 * h + 1))
    place = {frozenset((upper[i], lower[i])) for i in range(h)}
    shift = {frozenset((upper[i], lower[(i + k) % h])) for i in range(h)}
    ids = set(upper + lower)
    field = [SwissPlayer(x, 3.0, x, frozenset(y for y in ids - {x}
                                              if frozenset((x, y)) not in place | shift),
                         (R, B) if x in (1, h + 1) else ())
             for x in sorted(ids)]
    assert clash(field[0].colours, field[h].colours) == 1
    res = pair_swiss_round(field, 2, SwissOptions(), random.Random(0))
    assert {frozenset(p.players()) for p in res.pairings} == shift
    assert sum(abs(i - (i + k) % h) for i in range(h)) == 154
