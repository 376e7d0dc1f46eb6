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

import random

import pytest

from qisai.competition.errors import PairingError
from qisai.competition.model import Colour
from qisai.competition.pairing.swiss import SwissOptions, SwissPlayer, pair_swiss_round

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
    with pytest.raises(PairingError, match=f"^{key} must be a whole number >= 0, not "):
        SwissOptions(**{key: bad})  # type: ignore[arg-type]


def test_options_bounds_and_names() -> None:
    assert SwissOptions(avoid_group_rounds=0).avoid_group_rounds == 0
    assert SwissOptions(max_colour_diff=1, max_streak=1).max_streak == 1
    for key in ("max_colour_diff", "max_streak"):
        with pytest.raises(PairingError, match="^colour limits must be at least 1$"):
            SwissOptions(**{key: 0})  # type: ignore[arg-type]
    with pytest.raises(PairingError, match="^segment_pairing must be 'halves' or 'adjacent', "
                                           "not 'random'$"):
        SwissOptions(segment_pairing="random")
    with pytest.raises(PairingError, match="^first_round must be 'lot' or 'fold', not 'x'$"):
        SwissOptions(first_round="x")
    with pytest.raises(PairingError, match="^colour_rule must be 'score_first' or 'hard', "
                                           "not 'soft'$"):
        SwissOptions(colour_rule="soft")
    d = SwissOptions()
    # the defaults: a difference of at most 2 and at most 2 in a row, score groups first
    assert (d.max_colour_diff, d.max_streak, d.avoid_group_rounds, d.segment_pairing,
            d.first_round, d.colour_rule) == (2, 2, 0, "halves", "lot", "score_first")


# -- the field ------------------------------------------------------------------------


def test_field_errors_name_the_round() -> None:
    with pytest.raises(PairingError, match="^round 3: at least two entries are needed$"):
        pair_swiss_round([SwissPlayer(1, 0.0, 1)], 3, SwissOptions(), random.Random(0))
    with pytest.raises(PairingError, match="^round 2: duplicate entry ids$"):
        pair_swiss_round([SwissPlayer(1, 0.0, 1), SwissPlayer(1, 0.0, 2)], 2, SwissOptions(),
                         random.Random(0))
    with pytest.raises(PairingError, match=r"^round 2: .*no pairing without rematch exists"):
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
