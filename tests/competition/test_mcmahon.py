"""McMahon pairing for Go events."""

from __future__ import annotations

import random

import pytest

from qisai.competition.errors import PairingError
from qisai.competition.pairing.mcmahon import initial_scores, pair_mcmahon_round, rank_value
from qisai.competition.pairing.swiss import SwissPlayer
from qisai.competition.pairing.swiss_options import SwissOptions


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


def test_rank_bounds_and_messages() -> None:
    """Dan ranks run 1-9 (9d = 9段 is the top amateur rank), kyu ranks 1-30."""
    assert [rank_value(r) for r in ("9d", "9段", "30级", "1级", "1段")] == [8, 8, -30, -1, 0]
    for bad in ("10段", "31级", "0级", "0段"):
        with pytest.raises(PairingError, match=f"/ Go rank out of range: '{bad}'$"):
            rank_value(bad)
    with pytest.raises(PairingError, match=r"/ unreadable Go rank '3p'; write e\.g\. 3d, 5k, "
                                           "2段, 10级$"):
        rank_value("3p")


def test_bar_equal_to_floor_and_the_messages() -> None:
    # a bar at the floor: everyone starts level (a plain Swiss)
    assert initial_scores({1: "5d", 2: "20k"}, bar="1k", floor="1k") == {1: 0, 2: 0}
    with pytest.raises(PairingError, match="/ McMahon bar 10k is below the floor 3d$"):
        initial_scores({1: "1d"}, bar="10k", floor="3d")
    players = [SwissPlayer(i, 0.0, i) for i in (1, 2, 3, 4)]
    with pytest.raises(PairingError, match="/ no McMahon starting score for 3, 4$"):
        pair_mcmahon_round(players, {1: 0, 2: 0}, 1, SwissOptions(), random.Random(0))


def test_start_scores_are_added() -> None:
    """MMS = start + points: 1 starts highest (2), 2 and 3 on 1, 4 on 0.  1 is
    alone at the top and floats down to the nearest group; board 1 holds the
    highest MMS, so 1 is on it, and 4 (lowest) meets a 1-point entry."""
    players = [SwissPlayer(i, 0.0, i) for i in (1, 2, 3, 4)]
    res = pair_mcmahon_round(players, {1: 2, 2: 1, 3: 1, 4: 0}, 1, SwissOptions(),
                             random.Random(0))
    assert 1 in res.pairings[0].players()
    assert 4 in res.pairings[1].players()
    assert any(line.startswith("segment 2: 1 floats down") for line in res.explanation)
    # points count on top of the start: after a win 4 has MMS 1, level with 2 and 3
    players = [SwissPlayer(1, 0.0, 1), SwissPlayer(2, 0.0, 2), SwissPlayer(3, 0.0, 3),
               SwissPlayer(4, 1.0, 4)]
    res = pair_mcmahon_round(players, {1: 2, 2: 1, 3: 1, 4: 0}, 2, SwissOptions(),
                             random.Random(0))
    assert any(line.startswith("segment 2: 1 floats down") for line in res.explanation)
    assert not any(line.startswith("segment 1:") for line in res.explanation)  # 4 floats no more
