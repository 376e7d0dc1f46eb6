"""The look-ahead of 积分编排制 against a brute force that shares no code with
the pairer.

Appendix 2 "相遇过的对手不再编对" holds for every round of the event, and an
entry has at most one bye (轮空) while others have had none.  A round that
leaves the later rounds without a rematch-free pairing is therefore a dead
end; with ``rounds_left`` the pairer must avoid one when it can, and among
the rounds that avoid it take the best by the usual priorities (fewest pairs
across each score boundary from the top, then fewest colour limits broken,
then the least colour due twice).  On random small fields with many games
already played (so that dead ends are common) every claim is checked by
enumerating all the rounds to come.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator

# loaded once at collection (see test_pairing_rules.py)
import networkx  # noqa: F401
import pytest
import scipy.optimize  # noqa: F401

from qisai.competition.errors import PairingError
from qisai.competition.pairing.swiss import SwissPlayer, SwissResult, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions

from ._swiss_clauses import (
    B,
    R,
    clash,
    expected_colours,
    limits_broken,
    may_take,
    perfect_matchings,
)

Edge = frozenset[int]


def _rounds(ids: tuple[int, ...], may: Callable[[int, int], bool], bye_from: frozenset[int]
            ) -> Iterator[tuple[frozenset[Edge], int | None]]:
    """Every legal round: a pairing of ``ids`` whose pairs ``may`` meet and,
    in an odd field, a bye for one entry of ``bye_from``."""
    if len(ids) % 2:
        for bye in sorted(bye_from):
            rest = tuple(i for i in ids if i != bye)
            for m in perfect_matchings(rest, may):
                yield _edges(m), bye
    else:
        for m in perfect_matchings(ids, may):
            yield _edges(m), None


def _edges(pairs: list[tuple[int, int]]) -> frozenset[Edge]:
    return frozenset(frozenset(p) for p in pairs)


@functools.cache
def _completes(ids: tuple[int, ...], met: frozenset[Edge], fresh: frozenset[int],
               rounds: int) -> bool:
    """Can ``rounds`` more rounds be paired, no rematch, each bye to an entry
    still without one?"""
    if rounds == 0:
        return True
    return any(_completes(ids, met | m, fresh - {bye} if bye is not None else fresh, rounds - 1)
               for m, bye in _rounds(ids, lambda a, b: frozenset((a, b)) not in met, fresh))


def _field(rng: random.Random) -> tuple[list[SwissPlayer], int]:
    """4-9 entries after some rounds played without rematches (random rounds;
    in an odd field a bye node takes a partner each round, so nobody has two
    byes) and one to three rounds to come; random scores, colours and clubs."""
    n = rng.randint(4, 9)
    nodes = list(range(1, n + 1)) + ([0] if n % 2 else [])
    # the rounds of a full all-play-all, less at most two: dead ends are common
    rounds_left = rng.randint(1, min(3, len(nodes) - 3))
    played = len(nodes) - 1 - rounds_left - rng.randint(0, 2)
    met: dict[int, set[int]] = {i: set() for i in nodes}
    for _ in range(played):
        for _ in range(100):  # a random round that repeats no pair
            order = rng.sample(nodes, len(nodes))
            pairs = list(zip(order[::2], order[1::2], strict=True))
            if all(b not in met[a] for a, b in pairs):
                break
        else:
            break
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
    clubs = rng.choice(["", "AB", "ABC"])
    return [SwissPlayer(i, float(rng.randint(0, 3)), i, frozenset(met[i] - {0}),
                        tuple(rng.choice((R, B)) for _ in range(2)), int(0 in met[i]),
                        rng.choice(clubs) if clubs else None)
            for i in range(1, n + 1)], rounds_left


def _key(by: dict[int, SwissPlayer], opts: SwissOptions, limits: bool, m: frozenset[Edge],
         bye: int | None) -> tuple[list[int], int, int]:
    """(pairs across each score boundary from the top, the bye counted as
    playing below the lowest score; colour limits broken, when they are soft
    and in force; colour due twice)."""
    levels = sorted({p.score for p in by.values()}, reverse=True)
    level = {i: levels.index(p.score) for i, p in by.items()}
    cross = [0] * len(levels)
    broken = twice = 0
    games = [tuple(e) for e in m] + ([(bye, None)] if bye is not None else [])
    for a, b in games:
        lo, hi = sorted((level[a], len(levels) if b is None else level[b]))
        for k in range(lo, hi):
            cross[k] += 1
        if b is not None:
            broken += limits_broken(by[a].colours, by[b].colours, opts) if limits else 0
            twice += clash(by[a].colours, by[b].colours)
    return cross, broken, twice


_LEVELS = ["", "colour limits", "colour limits and same-group avoidance"]


def _may_meet_now(by: dict[int, SwissPlayer], opts: SwissOptions, round_no: int, level: int,
                  a: int, b: int) -> bool:
    """This round's rules at a level of relaxation (0: all; 1: colour limits
    relaxed; 2: same-group avoidance too): no rematch ever; clubmates apart
    in the rounds of avoidance; with hard limits, an order of colours that
    keeps them."""
    if b in by[a].opponents:
        return False
    if level < 2 and opts.avoid_group_rounds >= round_no and by[a].group is not None \
            and by[a].group == by[b].group:
        return False
    if level == 0 and opts.colour_rule == "hard":
        return any(may_take(by[x].colours, R, opts) and may_take(by[y].colours, B, opts)
                   for x, y in ((a, b), (b, a)))
    return True


def _assert_colours(by: dict[int, SwissPlayer], opts: SwissOptions, level: int,
                    res: SwissResult) -> None:
    """Every board's colours are those 13.3 and Appendix 2 give (the colour
    limits counted while they are in force), whatever the look-ahead did."""
    for p in res.pairings:
        if p.black is not None:
            assert (p.red, p.black) in expected_colours(by[p.red], by[p.black], opts, level == 0), \
                (p, opts, level, res.explanation)


def _check_exactly(field: list[SwissPlayer], rounds_left: int, opts: SwissOptions,
                   seed: int, seen: dict[str, int]) -> None:
    """Pair round 5 of ``field`` with and without look-ahead and check it
    against the brute force (see the test below); count what happened."""
    by = {p.id: p for p in field}
    ids = tuple(sorted(by))
    met = frozenset(frozenset((p.id, o)) for p in field for o in p.opponents)
    fresh = frozenset(i for i in ids if by[i].byes == 0)
    level, now = 0, []
    for level in range(3):
        may = functools.partial(_may_meet_now, by, opts, 5, level)
        now = list(_rounds(ids, may, fresh))
        if now:
            break
    if not now:
        with pytest.raises(PairingError):
            pair_swiss_round(field, 5, opts, random.Random(seed))
        return
    good = [(m, bye) for m, bye in now
            if _completes(ids, met | m, fresh - {bye}, rounds_left)]
    plain = pair_swiss_round(field, 5, opts, random.Random(seed))
    res = pair_swiss_round(field, 5, opts, random.Random(seed), rounds_left=rounds_left)
    ours = frozenset(frozenset(p.players()) for p in res.pairings if p.black is not None)
    assert (ours, res.bye) in now, (opts, level, res)
    assert [r for r in res.relaxed if r in _LEVELS] == ([_LEVELS[level]] if level else [])
    _assert_colours(by, opts, level, res)
    seen["relaxed"] += level > 0
    kept = _completes(ids, met | ours, fresh - {res.bye}, rounds_left)
    if not good:
        seen["hopeless"] += 1
        assert res.explanation[-1] == (
            f"look-ahead: no pairing of this round keeps the {rounds_left} later "
            "round(s) pairable without rematches"), res.explanation
        return
    assert kept, (field, rounds_left, res)
    first = frozenset(frozenset(p.players()) for p in plain.pairings if p.black is not None)
    if (first, plain.bye) == (ours, res.bye):
        seen["kept"] += 1
        return
    seen["repaired"] += 1
    assert not _completes(ids, met | first, fresh - {plain.bye}, rounds_left)
    limits = level == 0 and opts.colour_rule == "score_first"
    assert _key(by, opts, limits, ours, res.bye) == min(
        _key(by, opts, limits, m, bye) for m, bye in good), (opts, res)
    assert any(line.startswith("look-ahead: the first choice would leave")
               for line in res.explanation), res.explanation


def _options(rng: random.Random) -> SwissOptions:
    return SwissOptions(max_colour_diff=rng.randint(1, 2), max_streak=rng.randint(1, 2),
                        avoid_group_rounds=rng.choice([0, 5]),
                        colour_rule=rng.choice(["score_first", "hard"]))


@pytest.mark.parametrize("seed", range(3))
def test_look_ahead_against_every_round_to_come(seed: int) -> None:
    """On 400 random fields per seed (soft or hard colour limits, clubs kept
    apart or not): the round keeps this round's rules, relaxed only when no
    round keeps them, and says which; when some round that keeps them also
    keeps the later rounds pairable, ours does; when ours differs from the
    round without look-ahead, that round was a dead end and ours is the best
    of those that are not; when none is, the round stands and the
    explanation says so."""
    rng = random.Random(3000 + seed)
    seen = {"repaired": 0, "hopeless": 0, "kept": 0, "relaxed": 0}
    for _ in range(400):
        field, rounds_left = _field(rng)
        _check_exactly(field, rounds_left, _options(rng), seed, seen)
    assert seen["repaired"] >= 8 and min(seen.values()) >= 2, seen


def test_look_ahead_at_the_exact_limit() -> None:
    """The same checks on 13 and 14 entries (14 nodes with the bye node: the
    largest field the look-ahead still decides exactly), one round to come."""
    rng = random.Random(1414)
    seen = {"repaired": 0, "hopeless": 0, "kept": 0, "relaxed": 0}
    for _ in range(40):
        _check_exactly(_large_field(rng, rng.choice([13, 14])), 1, _options(rng), 0, seen)
    assert seen["repaired"] >= 3 and seen["kept"] >= 3, seen


def _large_field(rng: random.Random, n: int) -> list[SwissPlayer]:
    """``n`` entries near the end of an all-play-all: the rounds played are
    those of a circle-method schedule (relabelled by lot; in an odd field the
    last place is the bye) less the last two or three, so what is left is two
    or three disjoint pairings; random scores, colours and clubs."""
    size = n + n % 2
    label = rng.sample(range(1, size + 1), size)  # place ``size`` is the bye if n is odd
    played = size - 1 - rng.randint(2, 3)
    met: dict[int, set[int]] = {i: set() for i in range(1, size + 1)}
    for r in range(played):
        pairs = [(r, size - 1)] + [((r + k) % (size - 1), (r - k) % (size - 1))
                                   for k in range(1, size // 2)]
        for a, b in pairs:
            met[label[a]].add(label[b])
            met[label[b]].add(label[a])
    ids = list(range(1, n + 1))
    clubs = rng.choice(["", "AB", "ABCD"])
    return [SwissPlayer(i, float(rng.randint(0, 4)), i, frozenset(met[i] & set(ids)),
                        tuple(rng.choice((R, B)) for _ in range(2)),
                        int(size in met[i] and n < size), rng.choice(clubs) if clubs else None)
            for i in ids]


def test_look_ahead_on_large_fields_keeps_the_rules() -> None:
    """Above the exact limit the look-ahead re-pairs with boards of its first
    choice ruled out and may not find a way; checked on 40 random fields
    near the end of an all-play-all: the round keeps this round's rules (or
    says which it relaxed, as above), a round said to be re-paired leaves
    the last round pairable, and a round that does not says so."""
    rng = random.Random(5150)
    seen = {"re-paired": 0, "stood": 0, "left": 0}
    for _ in range(40):
        field = _large_field(rng, rng.choice([15, 16]))
        opts = SwissOptions(max_colour_diff=rng.randint(1, 2), max_streak=2,
                            avoid_group_rounds=rng.choice([0, 13]),
                            colour_rule=rng.choice(["score_first", "hard"]))
        by = {p.id: p for p in field}
        ids = tuple(sorted(by))
        met = frozenset(frozenset((p.id, o)) for p in field for o in p.opponents)
        fresh = frozenset(i for i in ids if by[i].byes == 0)
        level = next((lv for lv in range(3) if any(
            True for _ in _rounds(ids, functools.partial(_may_meet_now, by, opts, 13, lv), fresh))),
            None)
        if level is None:
            continue
        try:
            res = pair_swiss_round(field, 13, opts, random.Random(7), rounds_left=1)
        except PairingError:
            pytest.fail(f"a legal round exists at level {level}")
        ours = frozenset(frozenset(p.players()) for p in res.pairings if p.black is not None)
        may = functools.partial(_may_meet_now, by, opts, 13, level)
        assert all(may(*sorted(e)) for e in ours), (opts, level, res)
        assert res.bye is None or by[res.bye].byes == 0
        assert [r for r in res.relaxed if r in _LEVELS] == ([_LEVELS[level]] if level else [])
        _assert_colours(by, opts, level, res)
        kept = _completes(ids, met | ours, fresh - {res.bye}, 1)
        if any(" re-paired without " in line for line in res.explanation):
            seen["re-paired"] += 1
            assert kept, res
        elif kept:
            seen["stood"] += 1
        else:
            seen["left"] += 1
            assert res.explanation[-1] in (
                "look-ahead: no re-pairing found that keeps the 1 later round(s) pairable "
                "without rematches",
                "look-ahead: could not confirm that the 1 later round(s) stay pairable "
                "without rematches"), res.explanation
    assert seen["re-paired"] >= 5 and seen["stood"] >= 5, seen
