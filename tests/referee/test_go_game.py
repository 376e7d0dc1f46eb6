"""Scenario tests for the Go referee (seed 003: competition rules 3-5, 8-12)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qisai.referee.clock import ManualTime, SideTimeControl, Stage, TimeControl, chinese_byoyomi
from qisai.referee.errors import EventError, NotYourTurnError
from qisai.referee.events import NoticeType
from qisai.referee.game import Phase
from qisai.referee.go_game import GoGame, InvalidGoMoveError
from qisai.referee.rulesets import ruleset
from qisai.referee.verdict import Outcome, Reason, Side

BL, WH = Side.FIRST, Side.SECOND
KO_SETUP = ["D5", "F6", "E6", "F4", "E4", "G5", "F5", "E5"]  # white E5 takes the ko at F5


def new(name: str = "chinese", **overrides: object) -> tuple[GoGame, ManualTime]:
    overrides.setdefault("board_size", 9)
    t = ManualTime(0)
    game = GoGame(ruleset(name, **overrides), now=t)  # type: ignore[arg-type]
    game.start()
    return game, t


def play(game: GoGame, t: ManualTime, moves: list[str], step: float = 1.0) -> None:
    for m in moves:
        t.advance(step)
        game.move(game.to_move, m)


def test_11_1_ko_retake_is_a_pass_and_no_warning() -> None:
    # 11(1): 判回提者着手无效，弃权一次 — no warning (12(2) counts 8(2)/9 warnings).
    game, t = new()
    play(game, t, KO_SETUP)
    t.advance(1)
    notices = game.move(BL, "F5")  # immediate ko recapture
    kinds = [n.type for n in notices]
    assert kinds == [NoticeType.INVALID_MOVE]
    assert notices[0].clause == "竞赛规定 11(1)"
    assert game.warnings(BL) == 0 and game.to_move is WH and game.board.get("F5") is None
    assert game.moves[-1].void and game.result is None
    play(game, t, ["A1"])
    t.advance(1)
    game.move(BL, "E5")  # occupied: void again, still no warning
    assert game.result is None and game.warnings(BL) == 0


def test_11_1_with_an_event_warning_second_warning_loses_12_2() -> None:
    game, t = new(invalid_move="warning")
    play(game, t, KO_SETUP)
    t.advance(1)
    notices = game.move(BL, "F5")  # immediate ko recapture
    kinds = [n.type for n in notices]
    assert kinds == [NoticeType.INVALID_MOVE, NoticeType.WARNING]
    assert notices[0].clause == "竞赛规定 11(1)"
    assert game.warnings(BL) == 1 and game.to_move is WH and game.board.get("F5") is None
    assert game.moves[-1].void and game.result is None
    play(game, t, ["A1"])
    t.advance(1)
    game.move(BL, "E5")  # occupied: void again, second warning
    assert game.result is not None and game.result.reason is Reason.TWO_WARNINGS
    assert game.result.winner is WH and game.result.clause == "竞赛规定 12(2)"


def test_10_forbidden_point_is_void() -> None:
    game2, t2 = new()
    play(game2, t2, ["A2", "J9", "B1", "H9"])
    t2.advance(1)
    game2.move(BL, "C3")
    t2.advance(1)
    notices = game2.move(WH, "A1")  # no liberty, captures nothing: 禁着点
    assert notices[0].type is NoticeType.INVALID_MOVE and notices[0].clause == "竞赛规定 10"
    assert game2.warnings(WH) == 0 and game2.to_move is BL


def test_casual_go_rejects_invalid_moves() -> None:
    game, t = new("go-casual")
    play(game, t, KO_SETUP)
    with pytest.raises(InvalidGoMoveError):
        game.move(BL, "F5")
    with pytest.raises(NotYourTurnError):
        game.move(WH, "A1")
    assert game.warnings(BL) == 0 and game.to_move is BL


def test_8_1_moving_twice_loses() -> None:
    game, t = new()
    play(game, t, ["E5"])
    t.advance(1)
    game.move(BL, "C3")
    assert game.result is not None and game.result.reason is Reason.MOVED_TWICE
    assert game.result.winner is WH and game.result.clause == "竞赛规定 8(1)"
    assert game.result.sgf_result == "W+F"


def test_4_2_resignation() -> None:
    game, t = new()
    play(game, t, ["E5", "C3"])
    game.resign(BL)
    assert game.result is not None and game.result.sgf_result == "W+R"
    assert "认输" in game.result.explanation_zh


def test_4_1_two_passes_then_4_4_confirmation_order_and_area_count() -> None:
    game, t = new()
    play(game, t, ["E5", "pass", "pass"])
    assert game.phase is Phase.SCORING
    with pytest.raises(EventError):
        game.move(WH, "C3")  # no moves while the dead stones are agreed
    assert game.to_move is WH
    with pytest.raises(NotYourTurnError):
        game.confirm_dead(BL)  # 4(4): the side to move confirms first
    game.confirm_dead(WH)
    game.confirm_dead(BL)
    result = game.result
    assert result is not None and result.reason is Reason.SCORE and result.winner is BL
    # 81 points for Black, komi 3¾ stones: Black wins by 81 - 40.5 - 3.75 = 36¾ stones.
    assert result.margin == Fraction(147, 4) and result.unit == "子"
    assert "黑方胜36又3/4子" in result.explanation_zh
    assert result.sgf_result == "B+73.5"


def test_dead_stones_marked_disputed_then_agreed() -> None:
    game, t = new()
    play(game, t, ["E5", "D4", "F5", "pass", "pass"])
    assert game.phase is Phase.SCORING and game.to_move is WH
    game.mark_dead(BL, ["D4"])
    assert game.dead == {(3, 3)}
    game.dispute_dead(WH)
    assert game.phase is Phase.PLAYING and not game.dead
    play(game, t, ["pass", "pass"])
    game.mark_dead(None, ["D4"])
    game.mark_dead(None, ["D4"])  # idempotent
    assert game.dead == {(3, 3)}
    game.mark_dead(None, ["D4"], dead=False)  # alive again
    assert not game.dead
    game.mark_dead(None, ["D4"])
    with pytest.raises(EventError):
        game.mark_dead(None, ["A1"])  # no stone there
    game.confirm_dead(game.to_move)
    game.confirm_dead(game.to_move.other)
    assert game.result is not None and game.result.winner is BL
    assert game.final_score is not None and game.final_score.dead == frozenset({(3, 3)})


def test_japanese_territory_count_in_points() -> None:
    game, t = new("japanese")
    play(game, t, ["E5", "pass", "pass"])
    game.confirm_dead(WH)
    game.confirm_dead(BL)
    assert game.result is not None and game.result.unit == "目"
    # 80 points of territory - 6.5 komi
    assert game.result.margin == Fraction(147, 2) and game.result.sgf_result == "B+73.5"


def test_11_3_unbreakable_cycle_no_result_or_draw() -> None:
    cycle = ["B2", "A2", "A1", "B1", "C3", "C2", "C1", "B3", "A1", "C2", "A3", "B1", "C3", "A2",
             "C1", "B3"]
    for name, outcome in (("japanese", Outcome.NO_RESULT), ("chinese", Outcome.DRAW)):
        game, t = new(name, board_size=3, core=ruleset("japanese").core, cycle_repetitions=2)  # type: ignore[union-attr]
        play(game, t, cycle[:-1])
        assert game.result is None
        play(game, t, cycle[-1:])
        assert game.result is not None and game.result.reason is Reason.CYCLE
        assert game.result.outcome is outcome and game.result.clause == "竞赛规定 11(3)"


def test_superko_forbids_the_cycle() -> None:
    cycle = ["B2", "A2", "A1", "B1", "C3", "C2", "C1", "B3", "A1", "C2", "A3", "B1", "C3", "A2",
             "C1", "B3"]
    game, t = new(board_size=3)
    play(game, t, cycle[:-1])
    t.advance(1)
    notices = game.move(game.to_move, cycle[-1])
    assert notices[0].type is NoticeType.INVALID_MOVE and "11" in notices[0].clause


def test_3_chinese_byoyomi_calls_and_time_forfeit() -> None:
    tc = TimeControl.both(SideTimeControl((Stage(None, 60),), byoyomi=chinese_byoyomi(1)))
    game, t = new(time_control=tc)
    t.advance(100)
    notices = game.tick()
    calls = [(n.data["kind"], n.data["value"], n.at) for n in notices if n.type is NoticeType.CLOCK_CALL]
    assert calls[0] == ("byoyomi", 1, 60.0)
    assert ("seconds", 30, 90.0) in calls and ("seconds", 40, 100.0) in calls
    t.advance(19)
    more = [n for n in game.tick() if n.type is NoticeType.CLOCK_CALL]
    assert [n.text_zh for n in more] == ["50秒", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    t.advance(1)
    game.tick()
    assert game.result is not None and game.result.reason is Reason.TIME_FORFEIT
    assert game.result.sgf_result == "W+T" and game.result.clause.startswith("竞赛规定 3")


def test_3_the_last_call_10_lost_on_time_is_sent_before_the_result() -> None:
    """Go §3 读秒 (seed 003): "最后的报法是'10，超时判负'" (issue 33 item 8):
    the call goes out at the flag, before the loss on time."""
    tc = TimeControl.both(SideTimeControl((Stage(None, 60),), byoyomi=chinese_byoyomi(1)))
    game, t = new(time_control=tc)
    t.advance(119)
    game.tick()
    t.advance(1)
    notices = game.tick()
    calls = [n for n in notices if n.type is NoticeType.CLOCK_CALL]
    assert [(n.text_zh, n.data["kind"], n.at) for n in calls] == [("10，超时判负", "flag", 120.0)]
    assert notices.index(calls[0]) < next(i for i, n in enumerate(notices)
                                          if n.type is NoticeType.GAME_OVER)
    assert game.result is not None and game.result.reason is Reason.TIME_FORFEIT


def test_3_byoyomi_59_seconds_free_61_costs_a_minute_in_game() -> None:
    tc = TimeControl.both(SideTimeControl((Stage(None, 0),), byoyomi=chinese_byoyomi(5)))
    game, t = new(time_control=tc)
    play(game, t, ["E5"], step=59)
    assert game.moves[-1].clock is not None and game.moves[-1].clock.periods == 5
    play(game, t, ["C3"], step=1)
    play(game, t, ["G7"], step=61)
    assert game.moves[-1].clock is not None and game.moves[-1].clock.periods == 4


def test_5_adjournment_with_sealed_move() -> None:
    game, t = new()
    play(game, t, ["E5"], step=10)
    t.advance(20)
    game.adjourn(WH, "C3")
    assert game.phase is Phase.ADJOURNED
    t.advance(3600 * 12)
    game.resume()
    assert game.moves[-1].move == "C3" and game.moves[-1].elapsed == pytest.approx(20)
    assert game.to_move is BL
    # two hours of main time and five minutes of byo-yomi, less the 20 s thought
    assert game.clock_reading(WH) == pytest.approx(7200 + 300 - 20)


def test_handicap_white_moves_first_no_komi_half_given_back() -> None:
    game, t = new(handicap=2)
    assert game.to_move is WH and game.grules.komi == 0
    play(game, t, ["pass", "pass"])
    game.confirm_dead(WH)
    game.confirm_dead(BL)
    # Black owns the board (81) but gives back half the two stones: 81 - 40.5 - 1 = 39.5 子.
    assert game.result is not None and game.result.margin == Fraction(79, 2)
    assert game.final_score is not None and game.final_score.komi == 0


def test_rang_xian_black_first_without_komi() -> None:
    game, t = new(handicap=1)
    assert game.to_move is BL and game.board.handicap == 0
    play(game, t, ["E5", "pass", "pass"])
    game.confirm_dead(WH)
    game.confirm_dead(BL)
    assert game.result is not None and game.result.margin == Fraction(81, 2)


def test_draw_offers_are_not_go_rules() -> None:
    game, t = new()
    play(game, t, ["E5"])
    with pytest.raises(EventError):
        game.offer_draw(BL)


def test_replay_rebuilds_go_game() -> None:
    game, t = new()
    play(game, t, KO_SETUP + ["F5", "A1", "pass", "pass"])
    game.mark_dead(BL, ["A1"])
    game.confirm_dead(game.to_move)
    game.confirm_dead(game.to_move.other)
    copy = GoGame.replay(game.events, rules=ruleset("chinese", board_size=9), now=ManualTime(0))
    assert isinstance(copy, GoGame)
    assert copy.result == game.result and copy.moves == game.moves
    assert str(copy.board) == str(game.board) and copy.infractions == game.infractions


def test_suggested_dead_stones_go_through_the_log() -> None:
    game, t = new()
    with pytest.raises(EventError):
        game.suggest_dead()
    # A white stone in Black's corner, with no room to live.
    play(game, t, ["C1", "A1", "B2", "pass", "A3", "pass", "E5", "pass", "pass"])
    assert game.phase is Phase.SCORING
    dead = game.suggest_dead(playouts=32)
    assert dead == ["A1"]
    game.mark_dead(None, dead)
    game.confirm_dead(game.to_move)
    game.confirm_dead(game.to_move.other)
    assert game.result is not None and game.result.winner is BL
    assert game.events[-3].points == ("A1",)


def test_8_2_and_9_arbiter_warnings_count_toward_12_2() -> None:
    game, t = new()
    play(game, t, ["E5", "C3"])
    game.record_warning(BL, "竞赛规定 8(2)", "stone taken back and placed elsewhere")
    assert game.result is None and game.warnings(BL) == 1
    game.record_warning(BL, "竞赛规定 9", "captured a live stone")
    assert game.result is not None and game.result.reason is Reason.TWO_WARNINGS
    assert game.result.winner is WH


def test_warning_limit_is_a_setting() -> None:
    game, t = new(warning_limit=3)
    for _ in range(2):
        game.record_warning(WH, "竞赛规定 9")
    assert game.result is None
    game.record_warning(WH, "竞赛规定 9")
    assert game.result is not None and game.result.winner is BL
