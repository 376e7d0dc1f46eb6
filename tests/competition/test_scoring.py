"""Points systems: 14.1, 14.2, 21.4 and the 2007 trial."""

from __future__ import annotations

import pytest

from qisai.competition.errors import CompetitionError, ResultError
from qisai.competition.model import Colour, Game, Outcome, Result
from qisai.competition.scoring import (
    CLASSIC,
    CXA_2011,
    TEAM_MATCH,
    TRIAL_2007,
    ScoringTable,
    points_of_result,
    preset,
    score_of,
)


def test_14_1_win_one_draw_half() -> None:
    assert points_of_result(Result.RED_WIN, CLASSIC) == (1.0, 0.0)
    assert points_of_result(Result.DRAW, CLASSIC) == (0.5, 0.5)
    assert points_of_result(Result.BLACK_WIN, CLASSIC) == (0.0, 1.0)


def test_2011_two_one_zero() -> None:
    assert points_of_result(Result.DRAW, CXA_2011) == (1.0, 1.0)
    assert points_of_result(Result.BLACK_WIN, CXA_2011) == (0.0, 2.0)


def test_2007_trial_draw_red_one_black_two() -> None:
    # 胜方3分，负方0分；红方和局1分，黑方和局2分
    assert points_of_result(Result.DRAW, TRIAL_2007) == (1.0, 2.0)
    assert points_of_result(Result.RED_WIN, TRIAL_2007) == (3.0, 0.0)
    assert not TRIAL_2007.colour_neutral
    with pytest.raises(CompetitionError, match="colour"):
        TRIAL_2007.points(Outcome.DRAW)


def test_21_4_forfeit_plus_minus() -> None:
    # '+' worth a win (1 for individuals), '-' worth 0; double forfeit 0 each (21.3)
    assert points_of_result(Result.RED_FORFEIT_WIN, CLASSIC) == (1.0, 0.0)
    assert points_of_result(Result.BLACK_FORFEIT_WIN, CLASSIC) == (0.0, 1.0)
    assert points_of_result(Result.DOUBLE_FORFEIT, CLASSIC) == (0.0, 0.0)
    assert not Result.RED_FORFEIT_WIN.played


def test_14_2_team_match_points() -> None:
    # 局分多者为胜 2，少者 0，相等各 1; '+' for a team is 2 (21.4)
    assert TEAM_MATCH.of(3, 1) == 2 and TEAM_MATCH.of(1, 3) == 0 and TEAM_MATCH.of(2, 2) == 1
    assert TEAM_MATCH.forfeit_win == 2


def test_bye_counts_as_win_by_default() -> None:
    g = Game(1, 5, None, Result.BYE)
    assert CLASSIC.game_points(g, 5) == 1.0
    rr = ScoringTable("rr", 1, 0.5, 0.5, bye=0.0)
    assert rr.game_points(g, 5) == 0.0


def test_score_of_and_presets() -> None:
    games = [Game(1, 1, 2, Result.DRAW), Game(2, 3, 1, Result.BLACK_WIN)]
    assert score_of(1, games, TRIAL_2007) == 1.0 + 3.0
    assert preset("trial-2007") is TRIAL_2007
    with pytest.raises(CompetitionError, match="unknown scoring"):
        preset("4-2-0")
    assert ScoringTable.from_dict(TRIAL_2007.to_dict()) == TRIAL_2007
    with pytest.raises(CompetitionError):
        ScoringTable("bad", win=0.5, draw_red=1, draw_black=1)


def test_result_parse() -> None:
    assert Result.parse("1/2") is Result.DRAW
    assert Result.parse(" +- ") is Result.RED_FORFEIT_WIN
    assert Result.parse("0-1").outcome(Colour.BLACK) is Outcome.WIN
    with pytest.raises(ResultError, match="unknown result"):
        Result.parse("2-0")
