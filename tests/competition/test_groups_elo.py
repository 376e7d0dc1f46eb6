"""Group round robin (11.3) and Elo updates."""

from __future__ import annotations

import random

import pytest

from qisai.competition.elo import expected, rate_games, update
from qisai.competition.errors import CompetitionError, EventStateError
from qisai.competition.groups import GroupStage, snake_groups
from qisai.competition.model import Game, Result
from qisai.competition.tournament import Player

from ._sim import play_round


def test_snake_seeding() -> None:
    players = [Player(f"S{k}", 3000 - k) for k in range(1, 13)]
    groups = snake_groups(players, 3)
    assert [[p.name for p in g] for g in groups] == [
        ["S1", "S6", "S7", "S12"], ["S2", "S5", "S8", "S11"], ["S3", "S4", "S9", "S10"]]
    with pytest.raises(CompetitionError):
        snake_groups(players[:5], 3)


def test_group_stage_then_qualifiers() -> None:
    players = [Player(f"S{k}", 3000 - k) for k in range(1, 11)]
    stage = GroupStage.create("prelim", players, 2, seed=3)
    assert [len(g.players) for g in stage.groups] == [5, 5]
    with pytest.raises(EventStateError):
        stage.qualifiers(2)
    rng = random.Random(1)
    for g in stage.groups:
        while not g.finished:
            play_round(g, rng)
    q = stage.qualifiers(2)
    assert len(q) == 4
    winners = [g.player(g.standings()[0].entry).name for g in stage.groups]
    assert [p.name for p in q[:2]] == winners


def test_elo_known_values() -> None:
    assert expected(1600, 1600) == 0.5
    assert abs(expected(2000, 1600) - 0.909) < 0.001  # 1 / (1 + 10^-1)
    assert abs(update(1600, [(1600, 1.0)], k=20) - 1610) < 1e-9
    assert abs(update(2000, [(1600, 0.0)], k=10) - (2000 - 9.0909)) < 1e-3
    with pytest.raises(CompetitionError):
        update(1500, [(1500, 2.0)])


def test_elo_zero_sum_and_unplayed_games_unrated() -> None:
    ratings = {1: 2100.0, 2: 1900.0, 3: 1700.0}
    games = [Game(1, 1, 2, Result.BLACK_WIN), Game(2, 2, 3, Result.DRAW),
             Game(3, 3, 1, Result.RED_FORFEIT_WIN)]
    new = rate_games(ratings, games, k=16)
    assert abs(sum(new.values()) - sum(ratings.values())) < 1e-9
    assert new[2] > ratings[2] and new[1] < ratings[1]
    assert rate_games(ratings, games[2:]) == ratings  # a forfeit is not rated
