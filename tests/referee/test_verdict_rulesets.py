"""Verdicts and rule profiles."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qisai.go.rules import KoRule
from qisai.referee import PRESETS, GoRules, Penalty, RulesetError, XiangqiRules, new_game, ruleset
from qisai.referee.errors import EventError
from qisai.referee.events import Event, EventType
from qisai.referee.rulesets import RepetitionCode
from qisai.referee.verdict import GameKind, Outcome, Reason, Result, Side, format_fraction


def test_every_result_carries_reason_clause_and_both_languages() -> None:
    for reason in Reason:
        win = Result.win(GameKind.XIANGQI, Side.SECOND, reason, "x.y")
        assert win.clause == "x.y" and win.explanation_zh and win.explanation_en
        assert "{" not in win.explanation_zh and "{" not in win.explanation_en
        draw = Result.ended(GameKind.GO, Outcome.DRAW, reason, "z")
        assert "{" not in draw.explanation_zh and "{" not in draw.explanation_en
    with pytest.raises(ValueError):
        Result.win(GameKind.GO, Side.FIRST, Reason.SCORE, "")
    with pytest.raises(ValueError):
        Result.ended(GameKind.GO, Outcome.WIN, Reason.SCORE, "x")


def test_result_tags() -> None:
    mate = Result.win(GameKind.XIANGQI, Side.FIRST, Reason.CHECKMATE, "4.1.1")
    assert mate.pgn_result == "1-0" and mate.loser is Side.SECOND
    assert "红方胜" in mate.explanation_zh and "Red wins" in mate.explanation_en
    score = Result.win(GameKind.GO, Side.SECOND, Reason.SCORE, "胜负判别", margin=Fraction(1, 4), unit="子")
    assert score.sgf_result == "W+0.5" and "白方胜1/4子" in score.explanation_zh
    assert Result.win(GameKind.GO, Side.FIRST, Reason.SCORE, "c", margin=Fraction(13, 2),
                      unit="目").sgf_result == "B+6.5"
    assert Result.ended(GameKind.GO, Outcome.NO_RESULT, Reason.CYCLE, "11(3)").sgf_result == "Void"
    assert Result.ended(GameKind.GO, Outcome.DRAW, Reason.CYCLE, "11(3)").sgf_result == "0"
    assert format_fraction(Fraction(15, 4)) == "3又3/4"


def test_side_names() -> None:
    assert Side.FIRST.name_zh(GameKind.XIANGQI) == "红方" and Side.FIRST.name_en(GameKind.GO) == "Black"
    assert Side.parse("black", GameKind.GO) is Side.FIRST
    assert Side.parse("黑", GameKind.XIANGQI) is Side.SECOND
    with pytest.raises(ValueError):
        Side.parse("green", GameKind.GO)


def test_presets_are_data() -> None:
    assert {"cxa", "cxa-2007", "cxa-local", "axf", "casual", "chinese", "japanese", "korean",
            "go-casual"} <= set(PRESETS)
    cxa, axf = ruleset("cxa"), ruleset("axf")
    assert isinstance(cxa, XiangqiRules) and isinstance(axf, XiangqiRules)
    assert axf.repetition_code is RepetitionCode.AXF and cxa.repetition_code is RepetitionCode.CXA
    assert cxa.natural_limit == 60 and cxa.foul_limit == 3 and cxa.illegal_move is Penalty.LOSS
    local = ruleset("cxa-local")
    assert isinstance(local, XiangqiRules) and local.foul_limit == 2
    chinese = ruleset("chinese")
    assert isinstance(chinese, GoRules)
    assert chinese.komi == Fraction(15, 2) and chinese.core.ko is KoRule.POSITIONAL
    japanese = ruleset("japanese")
    assert isinstance(japanese, GoRules) and japanese.komi == Fraction(13, 2)
    assert japanese.cycle_outcome is Outcome.NO_RESULT
    points = ruleset("cxa-2007").points
    red_win = Result.win(GameKind.XIANGQI, Side.FIRST, Reason.CHECKMATE, "4.1.1")
    assert points.points(red_win) == (3, 0)


def test_overrides_per_event() -> None:
    r = ruleset("cxa", natural_limit=40, foul_limit=2, repetition_count=4, illegal_move="foul")
    assert isinstance(r, XiangqiRules)
    assert (r.natural_limit, r.foul_limit, r.repetition_count, r.illegal_move) == (40, 2, 4, Penalty.FOUL)
    g = ruleset("chinese", komi="6.5", ko="situational", board_size=13)
    assert isinstance(g, GoRules)
    assert g.komi == Fraction(13, 2) and g.core.ko is KoRule.SITUATIONAL and g.board_size == 13
    for bad in ({"no_such": 1}, {"foul_limit": 0}, {"illegal_move": "maybe"}, {"repetition_count": 1},
                {"draw_offers": "yes"}):
        with pytest.raises(RulesetError):
            ruleset("cxa", **bad)
    with pytest.raises(RulesetError):
        ruleset("chinese", board_size=30)
    with pytest.raises(RulesetError):
        ruleset("nope")


def test_new_game_picks_the_game() -> None:
    assert new_game("cxa").kind is GameKind.XIANGQI
    assert new_game(ruleset("japanese")).kind is GameKind.GO


def test_event_dict_round_trip_and_errors() -> None:
    e = Event(EventType.ADJUDICATE, 3.5, None, outcome=Outcome.WIN, winner=Side.FIRST,
              reason=Reason.MISCONDUCT, clause="4.1.10", note="n")
    assert Event.from_dict(e.to_dict()) == e
    with pytest.raises(EventError):
        Event.from_dict({"type": "move"})
    with pytest.raises(EventError):
        Event.from_dict({"type": "move", "at": 1, "side": "third"})
