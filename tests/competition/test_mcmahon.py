"""McMahon pairing for Go events."""

from __future__ import annotations

import random

import pytest

from qisai.competition.errors import PairingError
from qisai.competition.pairing.mcmahon import initial_scores, pair_mcmahon_round, rank_value
from qisai.competition.pairing.swiss import SwissOptions, SwissPlayer


def test_rank_values() -> None:
    assert [rank_value(r) for r in ("1d", "5段", "1k", "10级", "30k")] == [0, 4, -1, -10, -30]
    for bad in ("0d", "10d", "31k", "3p", "d3"):
        with pytest.raises(PairingError):
            rank_value(bad)


def test_bar_and_floor() -> None:
    ranks = {1: "6d", 2: "3d", 3: "2d", 4: "1k", 5: "10k", 6: "25k"}
    s = initial_scores(ranks, bar="3d", floor="10k")
    # 3d and above share the top; 10k and below start at 0
    assert s == {1: 12, 2: 12, 3: 11, 4: 9, 5: 0, 6: 0}
    with pytest.raises(PairingError):
        initial_scores(ranks, bar="10k", floor="3d")


def test_first_round_pairs_within_mcmahon_groups() -> None:
    ranks = {i: r for i, r in enumerate(["5d", "4d", "3d", "3d", "1k", "1k", "5k", "5k"],
                                        start=1)}
    start = initial_scores(ranks, bar="3d", floor="5k")
    players = [SwissPlayer(i, 0.0, i) for i in ranks]
    res = pair_mcmahon_round(players, start, 1, SwissOptions(), random.Random(0))
    # 8 players in three even McMahon groups (4 + 2 + 2): four boards, no bye
    assert len(res.pairings) == 4
    for p in res.pairings:
        assert p.black is not None
        assert start[p.red] == start[p.black]  # 3d+ together, 1k together, 5k together


def test_later_round_uses_points_plus_start() -> None:
    start = {1: 2, 2: 2, 3: 0, 4: 0}
    # after round 1 (1 beat 2, 3 beat 4): MMS 3, 2, 1, 0 -> 1-2 rematch avoided
    players = [SwissPlayer(1, 1.0, 1, frozenset({2})), SwissPlayer(2, 0.0, 2, frozenset({1})),
               SwissPlayer(3, 1.0, 3, frozenset({4})), SwissPlayer(4, 0.0, 4, frozenset({3}))]
    res = pair_mcmahon_round(players, start, 2, SwissOptions(), random.Random(0))
    assert {frozenset(p.players()) for p in res.pairings} == {frozenset({1, 3}),
                                                             frozenset({2, 4})}
    with pytest.raises(PairingError, match="no McMahon"):
        pair_mcmahon_round(players, {1: 0}, 2, SwissOptions(), random.Random(0))
