"""积分编排制 pairing (11.4, 13.3, Appendix 2) clause by clause, on small
hand-built rounds whose answer follows from the clause alone: the colour
history and the limits, the option checks, the bye, the halves of round 1,
the score segments and floaters, 受卡 and 拆开重排, same-group avoidance,
the look-ahead of "相遇过的对手不再编对", and the explanations that name them.

These are the fast tests that ``scripts/mutation competition.pairing`` runs
(with test_swiss.py, test_mcmahon.py, test_knockout.py and test_berger.py);
the simulated events are in test_swiss_simulated.py.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

# the pairer imports numpy, scipy and networkx on first use (CLI start-up);
# importing them here loads them once in mutmut's fork server at collection,
# not again in every mutant's run (seconds each)
import networkx  # noqa: F401
import pytest
import scipy.optimize  # noqa: F401

from qisai.competition.errors import PairingError
from qisai.competition.model import Colour
from qisai.competition.pairing.swiss import SwissPlayer, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions

from ._swiss_clauses import due as _due
from ._swiss_clauses import expected_colours as _expected_colours
from ._swiss_clauses import may_take as _may_take
from ._swiss_clauses import perfect_matchings

R, B = Colour.RED, Colour.BLACK


def _pairs(res):  # type: ignore[no-untyped-def]
    return {frozenset(p.players()) for p in res.pairings if p.black is not None}


# -- the colour history (13.3, Appendix 2) ------------------------------------------


@pytest.mark.parametrize("colours,diff,streak", [
    ((), 0, (None, 0)),
    ((R,), 1, (R, 1)),
    ((B,), -1, (B, 1)),
    ((R, R, B), 1, (B, 1)),
    ((B, R, R), 1, (R, 2)),
    ((R, B, B, B), -2, (B, 3)),
    ((B, R, B, R), 0, (R, 1)),
])
def test_colour_difference_and_run(colours, diff, streak) -> None:  # type: ignore[no-untyped-def]
    """先后走差 is Red games minus Black games; the run is the last colour and
    how many games in a row it was played."""
    p = SwissPlayer(1, 0.0, 1, colours=colours)
    assert p.colour_diff == diff
    assert p.streak() == streak


# -- the options ----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["max_colour_diff", "max_streak", "avoid_group_rounds"])
@pytest.mark.parametrize("bad", [True, -1, 1.5, "2"])
def test_options_refuse_what_is_not_a_whole_number(key: str, bad: object) -> None:
    with pytest.raises(PairingError, match=f"/ {key} must be a whole number >= 0, not "):
        SwissOptions(**{key: bad})  # type: ignore[arg-type]


def test_options_bounds_and_names() -> None:
    assert SwissOptions(avoid_group_rounds=0).avoid_group_rounds == 0
    assert SwissOptions(max_colour_diff=1, max_streak=1).max_streak == 1
    for key in ("max_colour_diff", "max_streak"):
        with pytest.raises(PairingError, match="/ colour limits must be at least 1$"):
            SwissOptions(**{key: 0})  # type: ignore[arg-type]
    with pytest.raises(PairingError, match="/ segment_pairing must be 'halves' or 'adjacent', "
                                           "not 'random'$"):
        SwissOptions(segment_pairing="random")
    with pytest.raises(PairingError, match="/ first_round must be 'lot' or 'fold', not 'x'$"):
        SwissOptions(first_round="x")
    with pytest.raises(PairingError, match="/ colour_rule must be 'score_first' or 'hard', "
                                           "not 'soft'$"):
        SwissOptions(colour_rule="soft")
    d = SwissOptions()
    # the defaults: a difference of at most 2 and at most 2 in a row, score groups first
    assert (d.max_colour_diff, d.max_streak, d.avoid_group_rounds, d.segment_pairing,
            d.first_round, d.colour_rule) == (2, 2, 0, "halves", "lot", "score_first")


# -- the field ------------------------------------------------------------------------


def test_field_errors_name_the_round() -> None:
    with pytest.raises(PairingError, match="/ round 3: at least two entries are needed$"):
        pair_swiss_round([SwissPlayer(1, 0.0, 1)], 3, SwissOptions(), random.Random(0))
    with pytest.raises(PairingError, match="/ round 2: duplicate entry ids$"):
        pair_swiss_round([SwissPlayer(1, 0.0, 1), SwissPlayer(1, 0.0, 2)], 2, SwissOptions(),
                         random.Random(0))
    with pytest.raises(PairingError, match=r"/ round 2: .*no pairing without rematch exists"):
        pair_swiss_round([SwissPlayer(1, 1.0, 1, frozenset({2})),
                          SwissPlayer(2, 0.0, 2, frozenset({1}))], 2, SwissOptions(),
                         random.Random(0))


def test_round_one_odd_field_bye_to_the_last_and_halves_of_the_rest() -> None:
    """Appendix 2 round 1: the field in rating order split into an upper and a
    lower half of equal size; an odd field first gives the bye to the lowest
    placed entry (the last in order)."""
    players = [SwissPlayer(i, 0.0, i) for i in range(1, 8)]
    for seed in range(8):
        res = pair_swiss_round(players, 1, SwissOptions(), random.Random(seed))
        assert res.bye == 7
        assert res.pairings[-1].red == 7 and res.pairings[-1].black is None
        assert res.pairings[-1].board == 4
        boards = [p for p in res.pairings if p.black is not None]
        assert len(boards) == 3
        for p in boards:
            assert sorted((p.red, p.black))[0] <= 3 < sorted((p.red, p.black))[1]
        assert res.explanation[0] == "7 has the bye (lowest placed without a bye, fewest " \
                                     "rounds missed; 轮空)"
        assert res.explanation[1] == "round 1: upper half 1..3 meets lower half 4..6"
        assert res.explanation[2] == "lower-half opponents drawn by lot"


# -- colours of a pair (13.3, Appendix 2: 尽量平衡每个人先后走的次数) -------------------


def _two(a_colours, b_colours, **kw):  # type: ignore[no-untyped-def]
    """Two entries on equal score who have not met, with these histories."""
    a = SwissPlayer(1, 1.0, 1, frozenset({8}), a_colours)
    b = SwissPlayer(2, 1.0, 2, frozenset({9}), b_colours)
    return a, b


@pytest.mark.parametrize("swap", [False, True])
def test_fewer_red_games_takes_red_in_either_listing(swap: bool) -> None:
    """优先安排多先者与多后者编对: the entry with more Black games gets Red,
    whichever of the two is listed (or placed) first."""
    a, b = _two((B, B, R), (R, R, B))  # 1 had Red last: the difference comes first
    res = pair_swiss_round([b, a] if swap else [a, b], 4, SwissOptions(), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (1, 2)
    assert res.explanation[-1] == "board 1: 1 (Red) - 2 (Black): 1 has had fewer Red games"
    a, b = _two((R, R, B), (B, B, R))
    res = pair_swiss_round([b, a] if swap else [a, b], 4, SwissOptions(), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (2, 1)
    assert res.explanation[-1] == "board 1: 2 (Red) - 1 (Black): 2 has had fewer Red games"


@pytest.mark.parametrize("swap", [False, True])
def test_equal_balance_black_last_round_takes_red(swap: bool) -> None:
    """Equal difference: colours alternate, so the one who had Black last
    round takes Red."""
    a, b = _two((B, R), (R, B))
    res = pair_swiss_round([b, a] if swap else [a, b], 3, SwissOptions(), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (2, 1)
    assert res.explanation[-1] == "board 1: 2 (Red) - 1 (Black): 2 had Black last round"
    a, b = _two((R, B), (B, R))
    res = pair_swiss_round([b, a] if swap else [a, b], 3, SwissOptions(), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (1, 2)
    assert res.explanation[-1] == "board 1: 1 (Red) - 2 (Black): 1 had Black last round"


@pytest.mark.parametrize("swap", [False, True])
def test_equal_histories_higher_placed_alternates(swap: bool) -> None:
    """Equal histories: the higher-placed entry (more points, else better
    order) gets the alternation of its last colour (FIDE C.04.3 A.7's rule
    for equal preferences, which Appendix 2 leaves to the arbiter)."""
    for last, hi_red in ((B, True), (R, False)):
        hist = (last.other, last)
        a = SwissPlayer(1, 1.0, 1, frozenset({8}), hist)
        b = SwissPlayer(2, 1.0, 2, frozenset({9}), hist)
        res = pair_swiss_round([b, a] if swap else [a, b], 3, SwissOptions(), random.Random(0))
        red = res.pairings[0].red
        assert red == (1 if hi_red else 2)
        verb = "Red" if hi_red else "Black"
        assert res.explanation[-1].endswith(f"equal histories: higher-placed 1 alternates to {verb}")
        # more points beat the order: 2 is higher placed with 1.5 points
        a = SwissPlayer(1, 1.0, 1, frozenset({8}), hist)
        b = SwissPlayer(2, 1.5, 2, frozenset({9}), hist)
        res = pair_swiss_round([b, a] if swap else [a, b], 3, SwissOptions(), random.Random(0))
        assert res.pairings[0].red == (2 if hi_red else 1)
        assert res.explanation[-1].endswith(f"equal histories: higher-placed 2 alternates to {verb}")


def test_no_history_colours_by_lot() -> None:
    """No colour history at all (McMahon round 1, or only forfeits so far):
    猜先, colours by lot, both ways over the seeds."""
    a = SwissPlayer(1, 1.0, 1, frozenset({8}))
    b = SwissPlayer(2, 1.0, 2, frozenset({9}))
    reds = set()
    for seed in range(16):
        res = pair_swiss_round([a, b], 2, SwissOptions(), random.Random(seed))
        reds.add(res.pairings[0].red)
        assert res.explanation[-1].endswith(": colours drawn by lot")
    assert reds == {1, 2}


# -- colour limits -------------------------------------------------------------------


def test_limits_hold_at_their_bounds() -> None:
    """max_colour_diff = 2 and max_streak = 2 allow a difference of exactly 2
    and exactly two in a row: 1 (R, B, R) may take Red (difference 2, two in
    a row); 2 (B, R, R) may not (three in a row), so the colours are forced
    and nothing is relaxed, under either colour rule."""
    for rule in ("score_first", "hard"):
        a, b = _two((R, B, R), (B, R, R))
        res = pair_swiss_round([a, b], 4, SwissOptions(colour_rule=rule), random.Random(0))
        assert (res.pairings[0].red, res.pairings[0].black) == (1, 2)
        assert res.relaxed == []
        assert res.explanation[-1] == ("board 1: 1 (Red) - 2 (Black): colour forced by the "
                                       "colour limits")
    a, b = _two((B, R, R), (R, B, R))
    res = pair_swiss_round([a, b], 4, SwissOptions(colour_rule="hard"), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (2, 1)


def test_broken_limit_is_named() -> None:
    """Both must take Black and they are the only two (score groups first,
    Appendix 2): one breaks a limit, and the report names the board, the entry,
    the colour and the limit; with hard limits the round is paired with the
    limits relaxed and says so."""
    a, b = _two((R, R), (R, R))
    res = pair_swiss_round([a, b], 3, SwissOptions(), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (2, 1)
    assert res.relaxed == ["colour limits: board 1: 2 takes red, |Red - Black| would be 3 > 2"]
    assert res.explanation[0] == ("relaxed: colour limits: board 1: 2 takes red, |Red - Black| "
                                  "would be 3 > 2 (score groups first, Appendix 2)")
    assert res.explanation[1] == ("board 1: 2 (Red) - 1 (Black): equal histories: "
                                  "higher-placed 1 alternates to Black")
    a, b = _two((B, R, R), (B, R, R))
    res = pair_swiss_round([a, b], 4, SwissOptions(max_colour_diff=3), random.Random(0))
    assert res.relaxed == ["colour limits: board 1: 2 takes red, 3 red in a row > 2"]
    a, b = _two((R, B, B), (R, B, B))
    res = pair_swiss_round([a, b], 4, SwissOptions(max_colour_diff=3), random.Random(0))
    assert res.relaxed == ["colour limits: board 1: 2 takes black, 3 black in a row > 2"]
    a, b = _two((R, R), (R, R))
    res = pair_swiss_round([a, b], 3, SwissOptions(colour_rule="hard"), random.Random(0))
    assert res.relaxed == ["colour limits"]
    # the explanation says why: the stricter attempt found no pairing
    assert res.explanation[0] == ("relaxed: colour limits (no pairing satisfied them: no "
                                  "pairing without rematch and within the colour limits "
                                  "exists for 1, 2)")
    assert len(res.pairings) == 1


def test_soft_limits_prefer_the_pair_that_keeps_them() -> None:
    """Among equal scores (no crossing either way), the pairing that keeps
    the limits wins: 1 and 2 must take Black, 3 and 4 may take either; 1-2
    would break a limit, 1-3 and 2-4 keep them all."""
    ps = [SwissPlayer(1, 2.0, 1, frozenset({7}), (R, R)),
          SwissPlayer(2, 2.0, 2, frozenset({8}), (R, R)),
          SwissPlayer(3, 2.0, 3, frozenset({9}), (R, B)),
          SwissPlayer(4, 2.0, 4, frozenset({10}), (B, R))]
    for seg in ("halves", "adjacent"):
        res = pair_swiss_round(ps, 3, SwissOptions(segment_pairing=seg), random.Random(0))
        assert res.relaxed == []
        for p in res.pairings:
            assert p.black in (1, 2)
            assert p.red in (3, 4)


# -- look-ahead: "相遇过的对手不再编对" in the rounds still to come -------------------------


def _after_two_rounds(scores: dict[int, float]) -> list[SwissPlayer]:
    """Six entries after rounds 1 (1-2, 3-4, 5-6) and 2 (2-3, 4-5, 6-1): the
    games played form the cycle 1-2-3-4-5-6-1, so the pairs still allowed form
    a triangular prism: triangles 1-3-5 and 2-4-6 and the rungs 1-4, 2-5, 3-6."""
    met = {1: {2, 6}, 2: {1, 3}, 3: {4, 2}, 4: {3, 5}, 5: {6, 4}, 6: {5, 1}}
    cols = {1: (R, B), 2: (B, R), 3: (R, B), 4: (B, R), 5: (R, B), 6: (B, R)}
    return [SwissPlayer(i, scores[i], i, frozenset(met[i]), cols[i]) for i in range(1, 7)]


def _prism_players() -> list[SwissPlayer]:
    # the leaders 1 and 4, then 2 and 5, then 3 and 6: the top-down choice is
    # the three rungs, which leaves two triangles: no pairing for round 4
    return _after_two_rounds({1: 2.0, 4: 2.0, 2: 1.0, 5: 1.0, 3: 0.0, 6: 0.0})


def test_dead_end_without_look_ahead() -> None:
    res = pair_swiss_round(_prism_players(), 3, SwissOptions(), random.Random(0))
    assert _pairs(res) == {frozenset({1, 4}), frozenset({2, 5}), frozenset({3, 6})}


def test_look_ahead_keeps_the_later_rounds_pairable() -> None:
    """With two rounds left the rungs are refused (they leave the triangles
    1-3-5 and 2-4-6, which hold no pairing); of the three prism pairings that
    keep rounds 4 and 5 pairable, the one crossing fewest score boundaries from
    the top (近分者编对, 由最高分逐段向下) is 1-4, 3-5, 2-6: no pair across the top
    boundary, two across the second (1-3 and 2-4 would cross the top one)."""
    res = pair_swiss_round(_prism_players(), 3, SwissOptions(), random.Random(0), rounds_left=2)
    assert _pairs(res) == {frozenset({1, 4}), frozenset({3, 5}), frozenset({2, 6})}
    # colours as in any round: 1 had Black last (4 Red last) and takes Red; 3 and 5
    # have equal histories (R, B), so the higher placed, 5 (1 point), alternates to
    # Red; 2 and 6 both (B, R): the higher placed, 2, alternates to Black
    assert {(p.red, p.black) for p in res.pairings} == {(1, 4), (5, 3), (6, 2)}
    assert res.explanation[0] == (
        "look-ahead: the first choice would leave the 2 later round(s) without a "
        "rematch-free pairing (相遇过的对手不再编对); this is the best pairing that keeps "
        "them pairable")
    assert res.relaxed == []
    # the two later rounds then pair without rematches, and exhaust the field
    played = {i: set(p.opponents) for i, p in enumerate(_prism_players(), start=1)}
    for p in res.pairings:
        played[p.red].add(p.black)  # type: ignore[arg-type]
        played[p.black].add(p.red)  # type: ignore[index]
    for rnd in (4, 5):
        ps = [SwissPlayer(i, 0.0, i, frozenset(played[i])) for i in range(1, 7)]
        nxt = pair_swiss_round(ps, rnd, SwissOptions(), random.Random(rnd), rounds_left=5 - rnd)
        for p in nxt.pairings:
            assert p.black not in played[p.red]
            played[p.red].add(p.black)  # type: ignore[arg-type]
            played[p.black].add(p.red)  # type: ignore[index]
    assert all(played[i] == set(range(1, 7)) - {i} for i in played)


def test_a_game_in_either_record_is_a_rematch() -> None:
    """相遇过的对手不再编对 whichever record holds the game: with each game of
    the prism case listed only in the lower-numbered entry's record (as an
    import of one side's cards might give), the round and its look-ahead are
    those of the full records."""
    full = _prism_players()
    one_sided = [SwissPlayer(p.id, p.score, p.order,
                             frozenset(o for o in p.opponents if o > p.id), p.colours)
                 for p in full]
    assert any(not p.opponents for p in one_sided)  # 6 lists nobody
    for left in (0, 2):
        want = pair_swiss_round(full, 3, SwissOptions(), random.Random(0), rounds_left=left)
        got = pair_swiss_round(one_sided, 3, SwissOptions(), random.Random(0), rounds_left=left)
        assert _pairs(got) == _pairs(want)
        assert got.explanation == want.explanation


def test_look_ahead_leaves_a_good_round_alone() -> None:
    """When the first choice keeps the later rounds pairable it stands: the
    leaders 1 and 3 meet on a rung-free prism pairing."""
    ps = _after_two_rounds({1: 2.0, 3: 2.0, 5: 1.0, 6: 1.0, 2: 0.0, 4: 0.0})
    plain = pair_swiss_round(ps, 3, SwissOptions(), random.Random(0))
    ahead = pair_swiss_round(ps, 3, SwissOptions(), random.Random(0), rounds_left=2)
    assert _pairs(plain) == _pairs(ahead) == {frozenset({1, 3}), frozenset({5, 2}),
                                               frozenset({6, 4})}
    assert not any("look-ahead" in line for line in ahead.explanation)


def test_look_ahead_says_when_no_round_keeps_the_rest_pairable() -> None:
    """Four entries who may still meet only along the path 1-2-3-4: this round
    must be 1-2, 3-4, and then 2-3 alone is left, no pairing for the next
    round; the round stands and the explanation says so."""
    ps = [SwissPlayer(1, 1.0, 1, frozenset({3, 4})), SwissPlayer(2, 1.0, 2, frozenset({4})),
          SwissPlayer(3, 0.0, 3, frozenset({1})), SwissPlayer(4, 0.0, 4, frozenset({1, 2}))]
    res = pair_swiss_round(ps, 3, SwissOptions(), random.Random(0), rounds_left=1)
    assert _pairs(res) == {frozenset({1, 2}), frozenset({3, 4})}
    assert res.explanation[-1] == ("look-ahead: no pairing of this round keeps the 1 later "
                                   "round(s) pairable without rematches")


def _completes(met: dict[int, set[int]], byes: set[int], rounds: int) -> bool:
    """Brute force: can ``rounds`` more rounds of these five entries be paired
    with no rematch and no second bye?"""
    if rounds == 0:
        return True
    for bye in set(met) - byes:
        a, b, c, d = sorted(set(met) - {bye})
        for m in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            if all(y not in met[x] for x, y in m):
                nxt = {i: set(s) for i, s in met.items()}
                for x, y in m:
                    nxt[x].add(y)
                    nxt[y].add(x)
                if _completes(nxt, byes | {bye}, rounds - 1):
                    return True
    return False


def test_look_ahead_in_an_odd_field_counts_the_bye() -> None:
    """Five entries after two rounds (3 and 5 had the byes), three rounds to
    go.  The first choice gives the bye to 1 (lowest score, 轮空) with 4-3 and
    2-5; then 2 and 4 are left to take the byes of rounds 4 and 5, and
    whichever plays has no opponent left: a dead end.  The look-ahead moves the
    bye to 2 (4-3 and 5-1 beside it): no pair across the top boundary (4-3
    stays), and the brute force here confirms rounds 4 and 5 still pair."""
    met = {1: {2, 4}, 2: {1, 3}, 3: {2}, 4: {1, 5}, 5: {4}}
    score = {1: 0.0, 2: 1.0, 3: 2.0, 4: 2.0, 5: 1.0}
    ps = [SwissPlayer(i, score[i], i, frozenset(met[i]), byes=int(i in (3, 5)))
          for i in range(1, 6)]
    plain = pair_swiss_round(ps, 3, SwissOptions(), random.Random(0))
    assert plain.bye == 1 and _pairs(plain) == {frozenset({3, 4}), frozenset({2, 5})}
    res = pair_swiss_round(ps, 3, SwissOptions(), random.Random(0), rounds_left=2)
    assert res.bye == 2
    assert _pairs(res) == {frozenset({3, 4}), frozenset({1, 5})}
    assert res.explanation[1] == (
        "look-ahead: the first choice would leave the 2 later round(s) without a "
        "rematch-free pairing (相遇过的对手不再编对); this is the best pairing that keeps "
        "them pairable")
    for r, bye in ((plain, 1), (res, 2)):
        after = {i: set(s) for i, s in met.items()}
        for pair in _pairs(r):
            x, y = sorted(pair)
            after[x].add(y)
            after[y].add(x)
        assert _completes(after, {3, 5, bye}, 2) is (bye == 2)


# -- the look-ahead's graph tools against graph facts ----------------------------------


def _complete(nodes: list[int]) -> dict[int, set[int]]:
    return {v: set(nodes) - {v} for v in nodes}


def _union(*graphs: dict[int, set[int]]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for g in graphs:
        for v, ns in g.items():
            out.setdefault(v, set()).update(ns)
    return out


def _cycle(nodes: list[int]) -> dict[int, set[int]]:
    n = len(nodes)
    return {nodes[k]: {nodes[(k + 1) % n], nodes[k - 1]} for k in range(n)}


# the Petersen graph: outer 5-cycle 0-4, inner pentagram 5-9, spokes k - k+5
PETERSEN = _union(_cycle([0, 1, 2, 3, 4]), _cycle([5, 7, 9, 6, 8]),
                  {k: {k + 5} for k in range(5)}, {k + 5: {k} for k in range(5)})
PRISM = _union(_cycle([1, 3, 5]), _cycle([2, 4, 6]), {1: {4}, 4: {1}, 2: {5}, 5: {2},
                                                        3: {6}, 6: {3}})


@pytest.mark.parametrize("graph,count", [
    (_complete([0, 1, 2, 3]), 3),            # K4: 3!! = 3
    (_complete(list(range(6))), 15),         # K6: 5!! = 15
    (_cycle(list(range(6))), 2),             # an even cycle: two
    (_cycle(list(range(10))), 2),
    (PRISM, 4),                              # the rungs, or one rung and two triangle edges
    (PETERSEN, 6),                           # the Petersen graph has six
    ({1: {2}, 2: {1, 3}, 3: {2, 4}, 4: {3}}, 1),  # a path of four: one
    (_union(_cycle([0, 1, 2]), _cycle([3, 4, 5])), 0),  # two triangles: none
])
def test_perfect_matchings_are_counted_right(graph, count) -> None:  # type: ignore[no-untyped-def]
    from qisai.competition.pairing.lookahead import perfect_matchings

    found = list(perfect_matchings(graph))
    assert len(found) == count
    assert len({frozenset(frozenset(e) for e in m) for m in found}) == count
    for m in found:
        assert sorted(x for e in m for x in e) == sorted(graph)
        assert all(b in graph[a] for a, b in m)


@pytest.mark.parametrize("graph,rounds,expected", [
    (_complete(list(range(6))), 5, True),    # K6 has a 1-factorisation (a round robin)
    (_complete(list(range(6))), 6, False),   # ... but only 5 rounds
    (_complete(list(range(8))), 7, True),
    (_cycle(list(range(6))), 2, True),
    (_cycle(list(range(6))), 3, False),
    (PRISM, 3, True),
    (PETERSEN, 1, True),
    (PETERSEN, 2, False),                    # its 2-factors are two 5-cycles: odd
    (_union(_cycle([0, 1, 2]), _cycle([3, 4, 5])), 1, False),
    (_complete([0, 1, 2]), 1, False),        # an odd field without its bye node
    (_complete([0, 1, 2]), 0, True),         # no round left: nothing to check
    ({0: set()}, 1, False),
    ({}, 3, True),
])
def test_completable_small_graphs(graph, rounds, expected) -> None:  # type: ignore[no-untyped-def]
    """Edge-disjoint perfect matchings, one per round still to pair."""
    from qisai.competition.pairing.lookahead import completable

    assert completable(graph, rounds) is expected


def _k_nn(n: int) -> dict[int, set[int]]:
    left, right = list(range(n)), list(range(n, 2 * n))
    return {**{v: set(right) for v in left}, **{v: set(left) for v in right}}


def test_completable_large_graphs() -> None:
    """Above the exact limit: K13,13 (26 nodes) holds 13 disjoint perfect
    matchings (a regular bipartite graph always keeps one after another is
    taken out, König), so any number up to 13 is confirmed; two disjoint K13
    (odd components) hold none, which must never be called pairable; a vertex
    of too small a degree is refused at once."""
    from qisai.competition.pairing.lookahead import completable

    for k in (1, 2, 5, 13):
        assert completable(_k_nn(13), k) is True
    assert completable(_k_nn(13), 14) is False
    two_k13 = _union(_complete(list(range(13))), _complete(list(range(13, 26))))
    assert completable(two_k13, 1) is not True
    assert completable(two_k13, 2) is not True
    # 16 and 18 nodes (between the exact and the search limits)
    assert completable(_union(_complete(list(range(8))), _complete(list(range(8, 16)))), 3)
    assert completable(_k_nn(9), 9) is True
    assert completable(_union(_complete(list(range(9))), _complete(list(range(9, 18)))),
                       1) is not True


def test_remaining_graph_and_without() -> None:
    from qisai.competition.pairing.lookahead import BYE, remaining_graph, without

    met = {frozenset({1, 2}), frozenset({3, 4})}
    g = remaining_graph([1, 2, 3, 4], lambda a, b: frozenset({a, b}) in met, None)
    assert g == {1: {3, 4}, 2: {3, 4}, 3: {1, 2}, 4: {1, 2}}
    g5 = remaining_graph([1, 2, 3, 4, 5], lambda a, b: frozenset({a, b}) in met,
                         lambda i: i in (4, 5))
    assert g5[BYE] == {4, 5}
    assert g5[4] == {1, 2, 5, BYE} and g5[1] == {3, 4, 5}
    cut = without(g, [(1, 3)])
    assert cut == {1: {4}, 2: {3, 4}, 3: {2}, 4: {1, 2}}
    assert g[1] == {3, 4}  # a copy: the graph given is left alone


# -- score segments, floaters, 拆开重排 (Appendix 2) -------------------------------------


def _fresh(scores: list[float], met: dict[int, set[int]] | None = None) -> list[SwissPlayer]:
    """Entries 1.. with these scores; each has met only an absent entry (99)
    unless ``met`` says otherwise, and none has a colour history."""
    met = met or {}
    return [SwissPlayer(i, s, i, frozenset(met.get(i, {99}))) for i, s in enumerate(scores, 1)]


def test_segments_from_the_top_and_the_floater_meets_the_nearest_score() -> None:
    """由最高分按积分段逐段向下编排，同分者编对: the three on 2 points give one
    pair, upper half against lower half (1 meets 2), and the last of them, 3,
    floats down to the 1-point segment, where the halves are 3, 4 against 5, 6;
    the two on 0 meet.  Boards go by the higher score on them, then by order."""
    res = pair_swiss_round(_fresh([2, 2, 2, 1, 1, 1, 0, 0]), 3, SwissOptions(), random.Random(0))
    assert [frozenset(p.players()) for p in res.pairings] == [
        frozenset({1, 2}), frozenset({3, 5}), frozenset({4, 6}), frozenset({7, 8})]
    assert [p.board for p in res.pairings] == [1, 2, 3, 4]
    assert res.explanation[0] == "segment 2: 3 floats down to the nearest score"
    assert res.bye is None and res.relaxed == []


def test_adjacent_option_pairs_neighbours() -> None:
    """The 14th World Championship's rule: neighbours in the segment meet
    (1-2, 3-4, 5-6) instead of the halves (1-4, 2-5, 3-6)."""
    adjacent = pair_swiss_round(_fresh([1] * 6), 2, SwissOptions(segment_pairing="adjacent"),
                                random.Random(0))
    assert _pairs(adjacent) == {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})}
    halves = pair_swiss_round(_fresh([1] * 6), 2, SwissOptions(), random.Random(0))
    assert _pairs(halves) == {frozenset({1, 4}), frozenset({2, 5}), frozenset({3, 6})}
    # an odd segment: the last floats either way
    for seg in ("adjacent", "halves"):
        res = pair_swiss_round(_fresh([1, 1, 1, 0]), 2, SwissOptions(segment_pairing=seg),
                               random.Random(0))
        assert frozenset({3, 4}) in _pairs(res)


def test_rematch_inside_a_segment_takes_the_next_opponent() -> None:
    """相遇过的对手不再编对: 1 has met 4, its half-opposite, so the halves are
    re-matched (1-5, 2-4) before anyone leaves the segment."""
    res = pair_swiss_round(_fresh([1] * 6, {1: {4}, 4: {1}}), 2, SwissOptions(),
                           random.Random(0))
    assert _pairs(res) == {frozenset({1, 5}), frozenset({2, 4}), frozenset({3, 6})}
    assert not any("float" in line for line in res.explanation)


def test_segment_taken_apart_for_a_floater() -> None:
    """将由上排下来的最后一对或几对拆开重排: 3 floats from the 2-point segment
    but has met both 1-pointers, so the top pair 1-2 is taken apart; 3 meets
    1 on its own score and the rest stay within one point (近分者)."""
    res = pair_swiss_round(_fresh([2, 2, 2, 1, 1, 0], {3: {4, 5}, 4: {3}, 5: {3}}), 3,
                           SwissOptions(), random.Random(0))
    pairs = _pairs(res)
    assert frozenset({1, 3}) in pairs
    assert pairs & {frozenset({2, 4}), frozenset({2, 5})}
    assert pairs & {frozenset({4, 6}), frozenset({5, 6})}
    assert "segment 1 could not take the floaters: re-paired with segment 2 (拆开重排)" \
        in res.explanation


def test_stuck_bottom_repaired_from_the_segments_above() -> None:
    """受卡: the bottom four (0 points) have all met each other except in
    pairs that leave someone out, so the segment above is taken apart and
    re-paired with them; every pair stays within one point."""
    met = {5: {6, 7}, 6: {5, 8}, 7: {5, 8}, 8: {6, 7}}
    # among 5-8 only 5-8 and 6-7 are left: 6-7 fine, 5-8 fine -> make 5-8 met too
    met[5].add(8)
    met[8].add(5)
    res = pair_swiss_round(_fresh([2, 2, 1, 1, 0, 0, 0, 0], met), 4, SwissOptions(),
                           random.Random(0))
    score = {i: s for i, s in enumerate([2, 2, 1, 1, 0, 0, 0, 0], 1)}
    for p in res.pairings:
        assert p.black is not None and p.black not in met.get(p.red, set())
    # one segment above the bottom first (受卡: 从最低分向上排到卡住的地方)
    assert "stuck at the bottom: segment 1 and below re-paired together (受卡, 拆开重排)" \
        in res.explanation
    assert max(abs(score[p.red] - score[p.black]) for p in res.pairings) <= 1  # type: ignore[index]
    assert frozenset({1, 2}) in _pairs(res)  # the top segment is not touched


# -- the bye (轮空) -----------------------------------------------------------------


def test_bye_goes_where_the_rest_can_still_pair() -> None:
    """The bye would go to 3 (lowest score, last), but 1 and 2 have met: the
    bye goes to the lowest score that lets the others pair, 2, and 1 meets 3."""
    ps = [SwissPlayer(1, 1.0, 1, frozenset({2})), SwissPlayer(2, 0.0, 2, frozenset({1})),
          SwissPlayer(3, 0.0, 3, frozenset({99}))]
    res = pair_swiss_round(ps, 2, SwissOptions(), random.Random(0))
    assert res.bye == 2 and _pairs(res) == {frozenset({1, 3})}
    assert res.explanation[:2] == [
        "2 has the bye (lowest placed without a bye, fewest rounds missed; 轮空)",
        "the bye could not go to 3: the rest would not pair"]
    assert res.pairings[-1] == type(res.pairings[-1])(2, None, 2)


def test_no_bye_holder_works() -> None:
    ps = [SwissPlayer(1, 1.0, 1, frozenset({2, 3})), SwissPlayer(2, 0.0, 2, frozenset({1, 3})),
          SwissPlayer(3, 0.0, 3, frozenset({1, 2}))]
    with pytest.raises(PairingError, match="/ round 3: no pairing without rematch exists with "
                                           "any bye holder$"):
        pair_swiss_round(ps, 3, SwissOptions(), random.Random(0))


def test_bye_order_score_then_missed_rounds_then_order() -> None:
    """Lowest score first; on equal score the one with fewer rounds already
    without a game (FIDE Dutch 2025 C.5, as in test_bbp_inputs); then the last
    in order; never a second bye while someone has had none."""
    def bye(*players: SwissPlayer) -> int | None:
        return pair_swiss_round(list(players), 2, SwissOptions(), random.Random(0)).bye

    assert bye(SwissPlayer(1, 0.0, 1), SwissPlayer(2, 1.0, 2), SwissPlayer(3, 1.0, 3)) == 1
    assert bye(SwissPlayer(1, 0.0, 1), SwissPlayer(2, 0.0, 2, unplayed=1),
               SwissPlayer(3, 1.0, 3)) == 1
    assert bye(SwissPlayer(1, 0.0, 1), SwissPlayer(2, 0.0, 2), SwissPlayer(3, 1.0, 3)) == 2
    assert bye(SwissPlayer(1, 0.0, 1), SwissPlayer(2, 0.0, 2, byes=1, unplayed=1),
               SwissPlayer(3, 1.0, 3)) == 1
    # everyone has had one: the lowest score has a second
    assert bye(SwissPlayer(1, 1.0, 1, byes=1), SwissPlayer(2, 0.0, 2, byes=1),
               SwissPlayer(3, 2.0, 3, byes=1)) == 2


# -- same-group avoidance ("前三轮同队不相遇") ---------------------------------------------


def test_round_one_draw_is_repaired_to_keep_groups_apart() -> None:
    """Halves 1, 2 against 3, 4; 1 and 3 are of one club, 2 and 4 of another:
    only 1-4 and 2-3 keep them apart, whatever the lot drew."""
    ps = [SwissPlayer(1, 0.0, 1, group="A"), SwissPlayer(2, 0.0, 2, group="B"),
          SwissPlayer(3, 0.0, 3, group="A"), SwissPlayer(4, 0.0, 4, group="B")]
    repaired = 0
    for seed in range(12):
        res = pair_swiss_round(ps, 1, SwissOptions(avoid_group_rounds=1), random.Random(seed))
        assert _pairs(res) == {frozenset({1, 4}), frozenset({2, 3})}
        assert res.relaxed == []
        repaired += "draw repaired to keep same-group entries apart" in res.explanation
    assert 0 < repaired < 12  # the lot drew 1-3, 2-4 some of the time
    # past the rounds of avoidance the lot stands
    seen = {frozenset(_pairs(pair_swiss_round(ps, 1, SwissOptions(), random.Random(s))))
            for s in range(12)}
    assert len(seen) == 2


def test_avoidance_relaxed_last_and_said() -> None:
    """1, 2 and 3 are one club and 3 is in the lower half with 4: no draw of
    the halves keeps the club apart, so the avoidance is relaxed, after the
    colour limits, and the explanation says so."""
    ps = [SwissPlayer(1, 0.0, 1, group="A"), SwissPlayer(2, 0.0, 2, group="A"),
          SwissPlayer(3, 0.0, 3, group="A"), SwissPlayer(4, 0.0, 4, group="B")]
    res = pair_swiss_round(ps, 1, SwissOptions(avoid_group_rounds=3), random.Random(0))
    assert res.relaxed == ["colour limits and same-group avoidance"]
    assert res.explanation[0] == ("relaxed: colour limits and same-group avoidance (no pairing "
                                  "satisfied them: round 1: no pairing of the halves avoids "
                                  "same-group opponents)")


def test_avoidance_in_later_rounds_up_to_k() -> None:
    """Round 2 of 'the first two rounds': 1 and 4 (club A) are the natural pair
    of the halves but may not meet; in round 3 they may."""
    ps = [SwissPlayer(1, 1.0, 1, frozenset({99}), group="A"),
          SwissPlayer(2, 1.0, 2, frozenset({98}), group="B"),
          SwissPlayer(3, 1.0, 3, frozenset({97}), group="C"),
          SwissPlayer(4, 1.0, 4, frozenset({96}), group="A")]
    # halves 1, 2 against 3, 4: 1-3 and 2-4 by position; make 1-3 taken
    ps[0] = SwissPlayer(1, 1.0, 1, frozenset({3}), group="A")
    ps[2] = SwissPlayer(3, 1.0, 3, frozenset({1}), group="C")
    opts = SwissOptions(avoid_group_rounds=2)
    assert _pairs(pair_swiss_round(ps, 3, opts, random.Random(0))) == {frozenset({1, 4}),
                                                                       frozenset({2, 3})}
    res = pair_swiss_round(ps, 2, opts, random.Random(0))
    assert _pairs(res) == {frozenset({1, 2}), frozenset({3, 4})}
    assert res.relaxed == []


def test_round_one_repair_keeps_the_rest_of_the_draw() -> None:
    """The lot of round 1 stands where it can: when 1 and 5 (one club) were
    drawn together, the repair prefers the other drawn pairs (two of the three
    can stay); a draw without a conflict stands as drawn.  The draw without
    avoidance, same seed, shows what the lot drew."""
    plain_players = [SwissPlayer(i, 0.0, i) for i in range(1, 9)]
    club = [SwissPlayer(i, 0.0, i, group="A" if i in (1, 5) else str(i)) for i in range(1, 9)]
    conflicts = kept = 0
    for seed in range(30):
        drawn = _pairs(pair_swiss_round(plain_players, 1, SwissOptions(), random.Random(seed)))
        res = pair_swiss_round(club, 1, SwissOptions(avoid_group_rounds=1), random.Random(seed))
        got = _pairs(res)
        assert frozenset({1, 5}) not in got
        if frozenset({1, 5}) in drawn:
            conflicts += 1
            assert len(got & drawn) == 2  # one swap: the other two drawn pairs stay
            kept += len(got & drawn)
            assert "draw repaired to keep same-group entries apart" in res.explanation
        else:
            assert got == drawn
    assert conflicts >= 3 and kept > conflicts


def test_round_one_repair_changes_the_fewest_drawn_pairs() -> None:
    """Random clubs on 6-12 entries, round 1 with 前一轮同队不相遇: the
    repaired round keeps as many of the pairs the lot drew as any pairing of
    the halves that keeps the clubs apart (every one is tried here), and
    every pair it makes keeps them apart."""
    import itertools

    rng = random.Random(99)
    repaired = 0
    for _ in range(60):
        n = rng.choice([6, 8, 10, 12])
        club = {i: rng.choice("ABC") for i in range(1, n + 1)}
        plain = [SwissPlayer(i, 0.0, i) for i in range(1, n + 1)]
        ps = [SwissPlayer(i, 0.0, i, group=club[i]) for i in range(1, n + 1)]
        seed = rng.random()
        drawn = _pairs(pair_swiss_round(plain, 1, SwissOptions(), random.Random(seed)))
        res = pair_swiss_round(ps, 1, SwissOptions(avoid_group_rounds=1), random.Random(seed))
        if res.relaxed:
            continue
        got = _pairs(res)
        assert all(club[a] != club[b] for a, b in map(tuple, got))
        top, bottom = range(1, n // 2 + 1), range(n // 2 + 1, n + 1)
        best = max(sum(frozenset(p) in drawn for p in zip(top, perm, strict=True))
                   for perm in itertools.permutations(bottom)
                   if all(club[a] != club[b] for a, b in zip(top, perm, strict=True)))
        assert len(got & drawn) == best, (club, drawn, got)
        repaired += got != drawn
    assert repaired >= 20, repaired


def test_fold_round_one_is_explained() -> None:
    res = pair_swiss_round([SwissPlayer(i, 0.0, i) for i in range(1, 7)], 1,
                           SwissOptions(first_round="fold"), random.Random(0))
    assert res.explanation[:2] == ["round 1: upper half 1..3 meets lower half 4..6",
                                   "opponents by order (1 meets n/2+1)"]
    assert [(p.red, p.black) for p in res.pairings] == [(1, 4), (5, 2), (3, 6)]
    assert res.explanation[2:] == ["board 1: 1 (Red) - 4 (Black): round 1 fold: colours "
                                   "alternate by board",
                                   "board 2: 5 (Red) - 2 (Black): round 1 fold: colours "
                                   "alternate by board",
                                   "board 3: 3 (Red) - 6 (Black): round 1 fold: colours "
                                   "alternate by board"]


def _has_perfect_matching(adj: dict[int, set[int]]) -> bool:
    """Brute force, for the checks below."""
    if not adj:
        return True
    v = min(adj)
    for u in adj[v]:
        rest = {x: ns - {v, u} for x, ns in adj.items() if x not in (v, u)}
        if _has_perfect_matching(rest):
            return True
    return False


def _sixteen(scores: dict[int, float], allowed_edges: list[tuple[int, int]]) -> list[SwissPlayer]:
    """Sixteen entries who may still meet only along ``allowed_edges`` (every
    other pair has met): more than the look-ahead decides exactly."""
    allowed: dict[int, set[int]] = {i: set() for i in range(1, 17)}
    for a, b in allowed_edges:
        allowed[a].add(b)
        allowed[b].add(a)
    return [SwissPlayer(i, scores.get(i, 0.0), i, frozenset(set(range(1, 17)) - {i} - allowed[i]))
            for i in range(1, 17)]


_TEN_CYCLE = [7, 12, 8, 13, 9, 14, 10, 15, 11, 16]
_CYCLE_EDGES = [(_TEN_CYCLE[k], _TEN_CYCLE[(k + 1) % 10]) for k in range(10)]


def test_look_ahead_on_a_large_field_re_pairs_without_the_bottom_board() -> None:
    """Sixteen entries: 1-6 may still meet along the prism of the six-entry
    case above, 7-16 only along a 10-cycle.  The top-down choice takes the
    rungs 1-4, 2-5, 3-6, which leaves the two triangles: no last round.  Above
    the exact limit the pairer re-pairs with one board of its first choice
    ruled out, bottom board first; ruling out a board of the cycle changes
    nothing, ruling out 3-6 gives 1-4, 2-6, 3-5, and the last round pairs."""
    prism = [(1, 3), (3, 5), (5, 1), (2, 4), (4, 6), (6, 2), (1, 4), (2, 5), (3, 6)]
    ps = _sixteen({1: 10, 4: 10, 2: 9, 5: 9, 3: 8, 6: 8}, prism + _CYCLE_EDGES)
    plain = pair_swiss_round(ps, 14, SwissOptions(), random.Random(0))
    assert {frozenset({1, 4}), frozenset({2, 5}), frozenset({3, 6})} <= _pairs(plain)
    res = pair_swiss_round(ps, 14, SwissOptions(), random.Random(0), rounds_left=1)
    assert {frozenset({1, 4}), frozenset({2, 6}), frozenset({3, 5})} <= _pairs(res)
    assert res.explanation[0] == (
        "look-ahead: the first choice would leave the 1 later round(s) without a "
        "rematch-free pairing (相遇过的对手不再编对); re-paired without 3-6")
    assert res.explanation[1] == "segment 8: 3, 6 float down to the nearest score"
    left = {i: set() for i in range(1, 17)}  # type: dict[int, set[int]]
    for a, b in prism + _CYCLE_EDGES:
        if frozenset({a, b}) not in _pairs(res):
            left[a].add(b)
            left[b].add(a)
    assert _has_perfect_matching(left)
    assert not _has_perfect_matching({1: {3, 5}, 3: {1, 5}, 5: {1, 3}})  # the triangles


def _prism_edges(first: int) -> list[tuple[int, int]]:
    """The pairs still allowed among first..first+5 after two rounds, as in
    the six-entry case: triangles, and the rungs first-first+3 and so on."""
    base = [(1, 3), (3, 5), (5, 1), (2, 4), (4, 6), (6, 2), (1, 4), (2, 5), (3, 6)]
    return [(a + first - 1, b + first - 1) for a, b in base]


def test_look_ahead_on_a_large_field_rules_out_two_boards_together() -> None:
    """Sixteen entries, hard colour limits: two prisms (1-6 and 7-12, their
    rungs on the six lowest boards, alternating prism by prism) and, on top,
    13 and 14 who may only take Red and 15 and 16 who may only take Black
    (13-16 have met): 13-15 and 14-16 is the only round for them now, and
    13-14, 15-16 is left for the next.  The first choice takes every rung:
    two pairs of triangles, no last round.  Ruling out one board fixes at most
    one prism, and ruling out 13-15 or 14-16 leaves no pairing at all; the
    bottom two boards together (3-6 and 9-12) fix both."""
    edges = _prism_edges(1) + _prism_edges(7) + [(13, 15), (14, 16), (13, 14), (15, 16),
                                                  (14, 15)]
    scores = {13: 20, 14: 20, 15: 20, 16: 20, 1: 10, 4: 10, 7: 9.5, 10: 9.5, 2: 9, 5: 9,
              8: 8.5, 11: 8.5, 3: 8, 6: 8, 9: 7.5, 12: 7.5}
    must = {13: (B, B), 14: (B, B), 15: (R, R), 16: (R, R)}
    ps = [SwissPlayer(p.id, p.score, p.order, p.opponents,
                      must.get(p.id, (R, B) if p.id % 2 else (B, R)))
          for p in _sixteen(scores, edges)]
    opts = SwissOptions(colour_rule="hard")
    rungs = {frozenset({a, a + 3}) for a in (1, 2, 3, 7, 8, 9)}
    assert rungs <= _pairs(pair_swiss_round(ps, 14, opts, random.Random(0)))
    res = pair_swiss_round(ps, 14, opts, random.Random(0), rounds_left=1)
    assert res.explanation[0] == (
        "look-ahead: the first choice would leave the 1 later round(s) without a "
        "rematch-free pairing (相遇过的对手不再编对); re-paired without 3-6, 9-12")
    assert res.relaxed == []
    got = _pairs(res)
    assert {frozenset({13, 15}), frozenset({14, 16})} <= got
    # each prism now holds one rung and two triangle edges (not 3-6 or 9-12)
    assert len(got & rungs) == 2 and not got & {frozenset({3, 6}), frozenset({9, 12})}
    left: dict[int, set[int]] = {i: set() for i in range(1, 17)}
    for a, b in edges:
        if frozenset({a, b}) not in got:
            left[a].add(b)
            left[b].add(a)
    assert _has_perfect_matching(left)


def test_look_ahead_on_a_large_field_says_when_nothing_helps() -> None:
    """1-4 may still meet only along the path 1-2-3-4 (so this round must be
    1-2, 3-4 and 2-3 is left alone for the next), 5-16 along a 12-cycle: no
    re-pairing helps, the round stands and the explanation says so."""
    twelve = list(range(5, 17))
    edges = [(1, 2), (2, 3), (3, 4)] + [(twelve[k], twelve[(k + 1) % 12]) for k in range(12)]
    ps = _sixteen({1: 3, 2: 3, 3: 2, 4: 2}, edges)
    res = pair_swiss_round(ps, 12, SwissOptions(), random.Random(0), rounds_left=1)
    assert {frozenset({1, 2}), frozenset({3, 4})} <= _pairs(res)
    assert res.explanation[-1] == ("look-ahead: no re-pairing found that keeps the 1 later "
                                   "round(s) pairable without rematches")


def test_look_ahead_too_large_to_decide_says_so() -> None:
    """26 entries in two clubs of 13 that have met across except 1 and 14:
    this round must use 1-14 (13 is odd), and the next has no pairing; above
    the search limit and past the sufficient bound the look-ahead cannot
    confirm the later round, and says so instead of guessing."""
    a, b = list(range(1, 14)), list(range(14, 27))
    ps = []
    for i in range(1, 27):
        own = a if i in a else b
        other = set(b if i in a else a) - ({14} if i == 1 else {1} if i == 14 else set())
        ps.append(SwissPlayer(i, 1.0 if i in a else 0.0, i, frozenset(other), ()))
        assert i not in other and not set(own) & other
    res = pair_swiss_round(ps, 14, SwissOptions(), random.Random(0), rounds_left=1)
    assert frozenset({1, 14}) in _pairs(res)
    assert res.explanation[-1] == ("look-ahead: could not confirm that the 1 later round(s) "
                                   "stay pairable without rematches")


# -- 优先安排多先者与多后者编对: opposite colour needs meet inside a segment ---------------


@pytest.mark.parametrize("seg", ["halves", "adjacent"])
@pytest.mark.parametrize("histories", [
    ((R,), (B,), (R,), (B,)),                  # differences +1 / -1: strong needs
    ((R, B), (B, R), (R, B), (B, R)),          # balanced: the alternation only
    ((R, R, B), (B, B, R), (R, R, B), (B, B, R)),
])
def test_opposite_colour_needs_are_paired(seg: str, histories) -> None:  # type: ignore[no-untyped-def]
    """Entries 1 and 3 are due one colour, 2 and 4 the other; the segment's
    position rule alone would pair 1-3 and 2-4 (halves) or 1-2 and 3-4
    (neighbours).  Appendix 2 ranks the colour balance second to the score
    only, so each entry meets one due the other colour, and every entry then
    gets the colour it was due."""
    ps = [SwissPlayer(i, 1.0, i, frozenset({10 + i}), h) for i, h in enumerate(histories, 1)]
    res = pair_swiss_round(ps, len(histories[0]) + 1, SwissOptions(segment_pairing=seg),
                           random.Random(0))
    for p in res.pairings:
        assert (p.red % 2) != (p.black % 2)  # type: ignore[operator]
    due_red = {i for i, h in enumerate(histories, 1)
               if SwissPlayer(0, 0, 0, colours=h).colour_diff < 0
               or (SwissPlayer(0, 0, 0, colours=h).colour_diff == 0 and h[-1] is B)}
    assert {p.red for p in res.pairings} == due_red
    assert res.relaxed == []


def test_opposite_needs_in_a_segment_with_a_floater() -> None:
    """The same with an odd segment and a floater (the general matching):
    1, 2, 3 on 2 points, 4, 5, 6 on 1; 3 floats; colours are due as in
    1 R-last, 2 B-last, ...; no pair of two entries due the same colour is
    made when a pairing without one exists at the same score distance."""
    hist = {1: (R,), 2: (B,), 3: (R,), 4: (B,), 5: (R,), 6: (B,)}
    score = {1: 2.0, 2: 2.0, 3: 2.0, 4: 1.0, 5: 1.0, 6: 1.0}
    ps = [SwissPlayer(i, score[i], i, frozenset({10 + i}), hist[i]) for i in range(1, 7)]
    res = pair_swiss_round(ps, 2, SwissOptions(), random.Random(0))
    for p in res.pairings:
        assert hist[p.red] == (B,) and hist[p.black] == (R,)  # type: ignore[index]
    crossing = [p for p in res.pairings if score[p.red] != score[p.black]]  # type: ignore[index]
    assert len(crossing) == 1


# -- the top-down objective against brute force, both colour rules ----------------------


def _paired_random_rounds(rng: random.Random, count: int) -> Iterator[Any]:
    """Yield ``(entries, options, entries by id, result)`` for each of
    ``count`` random rounds (:func:`_random_round`) that can be paired."""
    for _ in range(count):
        ps, opts = _random_round(rng)
        try:
            res = pair_swiss_round(ps, 4, opts, random.Random(rng.random()))
        except PairingError:
            continue
        yield ps, opts, {p.id: p for p in ps}, res


def _random_round(rng: random.Random) -> tuple[list[SwissPlayer], SwissOptions]:
    """A round of 4-8 entries with random scores, random earlier opponents
    and random colour histories (not produced by the pairer)."""
    n = rng.choice([4, 6, 8])
    games = rng.randint(1, 3)
    ps = []
    for i in range(1, n + 1):
        met = frozenset(j for j in range(1, n + 1) if j != i and rng.random() < 0.15)
        ps.append(SwissPlayer(i, float(rng.randint(0, games)), i, met,
                              tuple(rng.choice((R, B)) for _ in range(games))))
    # make "met" symmetric
    met = {p.id: set(p.opponents) for p in ps}
    for p in ps:
        for j in p.opponents:
            met[j].add(p.id)
    ps = [SwissPlayer(p.id, p.score, p.id, frozenset(met[p.id]), p.colours) for p in ps]
    opts = SwissOptions(max_colour_diff=rng.randint(1, 2), max_streak=rng.randint(1, 2),
                        segment_pairing=rng.choice(["halves", "adjacent"]),
                        colour_rule=rng.choice(["score_first", "hard"]))
    return ps, opts


def _allowed(by: dict[int, SwissPlayer], opts: SwissOptions, hard: bool, a: int, b: int) -> bool:
    if b in by[a].opponents:
        return False
    if not hard:
        return True
    return any(_may_take(by[x].colours, R, opts) and _may_take(by[y].colours, B, opts)
               for x, y in ((a, b), (b, a)))


def _cross(m, by, levels):  # type: ignore[no-untyped-def]
    """Pairs across each score boundary, top boundary first."""
    v = [0] * len(levels)
    for a, b in m:
        la, lb = levels.index(by[a].score), levels.index(by[b].score)
        for k in range(min(la, lb), max(la, lb)):
            v[k] += 1
    return v


def test_fewest_score_crossings_from_the_top_against_brute_force() -> None:
    """Appendix 2 "由最高分按积分段逐段向下编排...以近分者编对": on 150 random
    rounds, no pairing that keeps the rules has fewer pairs across the top
    score boundary than ours, and in nearly all ours is best boundary by
    boundary.  Hard colour limits (colour_rule='hard') are rules here and are
    kept whenever the result does not report them relaxed; with score first
    they are only reported."""
    checked = best_all = 0
    for ps, opts, by, res in _paired_random_rounds(random.Random(2024), 150):
        hard = opts.colour_rule == "hard" and not res.relaxed

        ok = functools.partial(_allowed, by, opts, hard)
        for p in res.pairings:
            assert p.black is not None and _allowed(by, opts, False, p.red, p.black)
            if hard:
                assert _may_take(by[p.red].colours, R, opts), (p, opts)
                assert _may_take(by[p.black].colours, B, opts), (p, opts)
            elif opts.colour_rule == "score_first":
                for pid, c in ((p.red, R), (p.black, B)):
                    if not _may_take(by[pid].colours, c, opts):
                        assert any(f"{pid} takes {c.value}" in line for line in res.relaxed)
        levels = sorted({p.score for p in ps}, reverse=True)

        options = [_cross(m, by, levels) for m in perfect_matchings(sorted(by), ok)]
        if not options:
            continue
        ours = _cross([(p.red, p.black) for p in res.pairings], by, levels)
        assert ours[0] == min(options)[0], (ours, min(options), opts)
        checked += 1
        best_all += ours == min(options)
    assert checked >= 100
    assert best_all >= 0.95 * checked, (best_all, checked)


def test_look_ahead_keeps_reporting_broken_colour_limits() -> None:
    """The six-entry prism with at most one colour in a row: 1, 3, 5 are due
    Red, 2, 4, 6 Black.  The look-ahead's pairing 1-4, 3-5, 2-6 puts two
    entries due the same colour on two boards (score groups first, Appendix 2),
    and the result names the broken limits as any other round does."""
    ps = _prism_players()
    res = pair_swiss_round(ps, 3, SwissOptions(max_streak=1), random.Random(0), rounds_left=2)
    assert _pairs(res) == {frozenset({1, 4}), frozenset({3, 5}), frozenset({2, 6})}
    assert len(res.relaxed) == 2
    assert all(" in a row > 1" in line for line in res.relaxed)
    board = {frozenset(p.players()): p for p in res.pairings}
    assert (board[frozenset({1, 4})].red, board[frozenset({1, 4})].black) == (1, 4)


def test_hard_limits_pair_as_many_as_the_colours_allow() -> None:
    """Hard colour limits (an event's regulations): 1, 2, 3 may only take Red,
    4 only Black, all on 1 point; 5 and 6 (0 points) may take either.  Only
    one pair can be made in the segment; 4 meets the highest placed (1); 2
    and 3 float down and take Red against 5 and 6; no limit is broken."""
    h_red, h_black = (B, B), (R, R)
    ps = [SwissPlayer(1, 1.0, 1, frozenset({11}), h_red),
          SwissPlayer(2, 1.0, 2, frozenset({12}), h_red),
          SwissPlayer(3, 1.0, 3, frozenset({13}), h_red),
          SwissPlayer(4, 1.0, 4, frozenset({14}), h_black),
          SwissPlayer(5, 0.0, 5, frozenset({15}), (R, B)),
          SwissPlayer(6, 0.0, 6, frozenset({16}), (B, R))]
    res = pair_swiss_round(ps, 3, SwissOptions(colour_rule="hard"), random.Random(0))
    assert res.relaxed == []
    assert (res.pairings[0].red, res.pairings[0].black) == (1, 4)
    assert {p.red for p in res.pairings} == {1, 2, 3}
    assert {p.black for p in res.pairings} == {4, 5, 6}


def test_completable_when_the_first_matching_tried_is_a_dead_end() -> None:
    """The prism again, numbered so that the rungs 0-1, 2-3, 4-5 are the
    first perfect matching a search meets: taking them leaves two triangles,
    yet three disjoint matchings exist (a rung and two triangle edges, three
    ways)."""
    from qisai.competition.pairing.lookahead import completable

    prism = _union(_cycle([0, 2, 4]), _cycle([1, 3, 5]),
                   {0: {1}, 1: {0}, 2: {3}, 3: {2}, 4: {5}, 5: {4}})
    assert completable(prism, 3) is True
    assert completable(prism, 4) is False


def _colour_cost(by: dict[int, SwissPlayer], opts: SwissOptions, limits: bool,
                 m: list[tuple[int, int]]) -> tuple[int, int]:
    """(limits a pairing must break, weighted pairs of two entries due the
    same colour)."""
    broken = clash = 0
    for a, b in m:
        if limits:
            broken += min((not _may_take(by[x].colours, R, opts))
                          + (not _may_take(by[y].colours, B, opts))
                          for x, y in ((a, b), (b, a)))
        (ca, sa), (cb, sb) = _due(by[a].colours), _due(by[b].colours)
        clash += min(sa, sb) if ca is not None and ca is cb else 0
    return broken, clash


def test_colours_and_colour_balance_against_the_clauses() -> None:
    """On 200 random rounds: every board's colours are the ones the clauses
    give (_expected_colours), and among the pairings with our score
    crossings, ours has (nearly always) the fewest pairs of two entries due
    the same colour (在首先服从同分或近分者对弈的原则下...优先安排多先者与多后者编对),
    weighted by how strongly they are due, after the fewest broken limits."""
    checked = best = 0
    for ps, opts, by, res in _paired_random_rounds(random.Random(77), 200):
        limits = not any(r in ("colour limits", "colour limits and same-group avoidance")
                         for r in res.relaxed)
        for p in res.pairings:
            assert p.black is not None
            assert (p.red, p.black) in _expected_colours(by[p.red], by[p.black], opts, limits), \
                (p, by[p.red], by[p.black], opts, limits)
        hard = opts.colour_rule == "hard" and limits
        ok = functools.partial(_allowed, by, opts, hard)
        levels = sorted({p.score for p in ps}, reverse=True)

        cost = functools.partial(_colour_cost, by, opts, limits)
        ours_pairs = [(p.red, p.black) for p in res.pairings]
        ours_cross = _cross(ours_pairs, by, levels)
        same = [m for m in perfect_matchings(sorted(by), ok) if _cross(m, by, levels) == ours_cross]
        if not same:
            continue
        checked += 1
        best += cost(ours_pairs) == min(cost(m) for m in same)
    assert checked >= 120
    assert best >= 0.92 * checked, (best, checked)


def test_boards_go_by_the_higher_score_on_them() -> None:
    """1 (2 points) has met 2 and 3 and must take Red (Black twice): it meets
    4 (0 points) on board 1, above 2-3 (1 point each), because the board's
    higher score decides, whoever has Red."""
    ps = [SwissPlayer(1, 2.0, 1, frozenset({2, 3}), (B, B)),
          SwissPlayer(2, 1.0, 2, frozenset({1, 9}), (R, B)),
          SwissPlayer(3, 1.0, 3, frozenset({1, 8}), (B, R)),
          SwissPlayer(4, 0.0, 4, frozenset({7}), (R, R))]
    res = pair_swiss_round(ps, 3, SwissOptions(), random.Random(0))
    assert (res.pairings[0].red, res.pairings[0].black) == (1, 4)
    assert set(res.pairings[1].players()) == {2, 3}


def test_last_resort_relaxes_colour_limits_and_avoidance_together() -> None:
    """Hard limits and same-club avoidance: the only two entries are of one
    club and both must take Black; only the last attempt, with both relaxed,
    pairs them, and the result says so."""
    ps = [SwissPlayer(1, 1.0, 1, frozenset({8}), (R, R), group="A"),
          SwissPlayer(2, 1.0, 2, frozenset({9}), (R, R), group="A")]
    res = pair_swiss_round(ps, 3, SwissOptions(colour_rule="hard", avoid_group_rounds=3),
                           random.Random(0))
    assert res.relaxed == ["colour limits and same-group avoidance"]
    assert len(res.pairings) == 1


def test_soft_limits_outweigh_the_neighbour_rule() -> None:
    """Neighbours meet (1-2, 3-4) unless that breaks a colour limit that
    another pairing at the same score keeps: 1 and 2 must take Black, 3 and 4
    (one Red game each) may take either, so 1-4 and 2-3 (or 1-3, 2-4) with no
    limit broken."""
    ps = [SwissPlayer(1, 2.0, 1, frozenset({7}), (R, R)),
          SwissPlayer(2, 2.0, 2, frozenset({8}), (R, R)),
          SwissPlayer(3, 2.0, 3, frozenset({9}), (R, B, R)),
          SwissPlayer(4, 2.0, 4, frozenset({10}), (B, R, R))]
    res = pair_swiss_round(ps, 4, SwissOptions(segment_pairing="adjacent", max_streak=3),
                           random.Random(0))
    assert frozenset({1, 2}) not in _pairs(res)
    assert res.relaxed == []


def test_look_ahead_one_round_left_on_the_prism() -> None:
    """One round left after this one is enough to refuse the rungs: the two
    triangles they leave hold no pairing for the last round (the degrees are
    just below Dirac's bound, n/2 + k - 1, so the shortcut cannot accept it)."""
    res = pair_swiss_round(_prism_players(), 3, SwissOptions(), random.Random(0), rounds_left=1)
    assert _pairs(res) == {frozenset({1, 4}), frozenset({3, 5}), frozenset({2, 6})}


def test_segments_follow_the_seeding_order_not_the_entry_numbers() -> None:
    """Halves and neighbours go by the order (seeding: rating or lot), which
    need not follow the entry numbers: entries 20, 40, 10, 30 seeded 1-4 on
    equal scores give 20-10 and 40-30 (halves), 20-40 and 10-30 (neighbours)."""
    ps = [SwissPlayer(pid, 1.0, order, frozenset({99})) for pid, order in
          ((10, 3), (20, 1), (30, 4), (40, 2))]
    res = pair_swiss_round(ps, 2, SwissOptions(), random.Random(0))
    assert _pairs(res) == {frozenset({20, 10}), frozenset({40, 30})}
    res = pair_swiss_round(ps, 2, SwissOptions(segment_pairing="adjacent"), random.Random(0))
    assert _pairs(res) == {frozenset({20, 40}), frozenset({10, 30})}


def test_neighbours_still_meet_after_a_segment_is_taken_apart() -> None:
    """With the neighbour rule, re-pairing a segment for a floater (拆开重排)
    keeps neighbours together: 5 floats from the five leaders but has met
    6 and 7, so the top segment is re-paired with the one below; the leaders
    still meet as 1-2 and 3-4."""
    ps = _fresh([2, 2, 2, 2, 2, 1, 1, 0], {5: {6, 7}, 6: {5}, 7: {5}})
    res = pair_swiss_round(ps, 3, SwissOptions(segment_pairing="adjacent"), random.Random(0))
    assert {frozenset({1, 2}), frozenset({3, 4})} <= _pairs(res)
    assert "segment 1 could not take the floaters: re-paired with segment 2 (拆开重排)" \
        in res.explanation


def test_relaxed_rules_are_named_with_the_reason() -> None:
    """When a rule gives way the explanation names the rules the stricter
    attempt could not keep and the entries left without a partner: four
    entries who may each only take Red (hard limits, Black twice) cannot form
    one pair; two clubmates alone in round 2 of 前两轮同队不相遇 cannot meet
    until the avoidance goes, which is relaxed last, with the colour limits."""
    ps = [SwissPlayer(i, 1.0, i, frozenset({10 + i}), (B, B)) for i in range(1, 5)]
    res = pair_swiss_round(ps, 3, SwissOptions(colour_rule="hard"), random.Random(0))
    assert res.relaxed == ["colour limits"]
    assert res.explanation[0] == ("relaxed: colour limits (no pairing satisfied them: no "
                                  "pairing without rematch and within the colour limits "
                                  "exists for 1, 2, 3, 4)")
    mates = [SwissPlayer(1, 1.0, 1, frozenset({9}), (R,), group="A"),
             SwissPlayer(2, 1.0, 2, frozenset({8}), (B,), group="A")]
    res = pair_swiss_round(mates, 2, SwissOptions(avoid_group_rounds=2), random.Random(0))
    assert res.relaxed == ["colour limits and same-group avoidance"]
    assert res.explanation[0] == ("relaxed: colour limits and same-group avoidance (no pairing "
                                  "satisfied them: no pairing without rematch and keeping "
                                  "same-group entries apart exists for 1, 2)")
