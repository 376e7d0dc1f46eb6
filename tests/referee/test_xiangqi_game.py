"""Scenario tests for the Xiangqi referee, one (or more) per clause, on a
manual time source.  Clause numbers are those of seeds 000/001."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from qisai.referee.clock import ManualTime, SideTimeControl, Stage, TimeControl, scheme_6_1
from qisai.referee.errors import EventError, GameOverError, NotYourTurnError
from qisai.referee.events import ClaimKind, EventType, NoticeType
from qisai.referee.game import Phase
from qisai.referee.repetition import (
    RepetitionQuery,
    RepetitionRuling,
    RulingKind,
    checks_only_judge,
)
from qisai.referee.rulesets import ruleset
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.referee.xiangqi_game import IllegalMoveEventError, XiangqiGame

R, B = Side.FIRST, Side.SECOND
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"  # b0b9 mates; d0e0 faces the generals
STALEMATE_IN_ONE = "4k4/9/9/9/9/9/9/9/9/R2K1R3 w - - 0 1"  # a0a8 stalemates
SHUTTLE = "4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1"
TESTDATA = Path(__file__).resolve().parents[1] / "data" / "xiangqi"


def new(fen: str | None = None, name: str = "cxa", **overrides: object) -> tuple[XiangqiGame, ManualTime]:
    t = ManualTime(1000.0)
    game = XiangqiGame(ruleset(name, **overrides), fen=fen, now=t)  # type: ignore[arg-type]
    game.start()
    return game, t


def play(game: XiangqiGame, t: ManualTime, moves: list[str], step: float = 1.0) -> None:
    for m in moves:
        t.advance(step)
        game.move(game.to_move, m)


# ----------------------------------------------------------------- 4.1 wins
def test_4_1_1_checkmate() -> None:
    game, t = new(MATE_IN_ONE)
    play(game, t, ["b0b9"])
    assert game.result is not None and game.result.reason is Reason.CHECKMATE
    assert game.result.winner is R and game.result.clause.startswith("4.1.1")
    assert "将死" in game.result.explanation_zh and "checkmated" in game.result.explanation_en


def test_22_5_flag_after_mate_stands_as_mate() -> None:
    game, t = new(MATE_IN_ONE, time_control=TimeControl.both(SideTimeControl((Stage(None, 60),))))
    t.advance(59)
    game.move(R, "b0b9")
    t.advance(3600)
    with pytest.raises(GameOverError):
        game.flag()
    game.tick()  # a tick after the end changes nothing
    assert game.result is not None and game.result.reason is Reason.CHECKMATE


def test_22_5_mating_move_after_the_flag_fell_loses_on_time() -> None:
    game, t = new(MATE_IN_ONE, time_control=TimeControl.both(SideTimeControl((Stage(None, 60),))))
    t.advance(61)
    with pytest.raises(GameOverError):
        game.move(R, "b0b9")
    assert game.result is not None and game.result.reason is Reason.TIME_FORFEIT
    assert game.result.winner is B and game.ended_at == pytest.approx(1060)
    assert game.events[-1].type is EventType.TICK  # the ending is in the log


def test_22_5_resignation_before_flag_stands() -> None:
    game, t = new(time_control=TimeControl.both(SideTimeControl((Stage(None, 60),))))
    t.advance(30)
    game.resign(R)
    t.advance(100)
    with pytest.raises(GameOverError):
        game.flag()
    assert game.result is not None and game.result.reason is Reason.RESIGNATION  # 4.1.9


def test_4_1_3_stalemate_loses() -> None:
    game, t = new(STALEMATE_IN_ONE)
    play(game, t, ["a0a8"])
    assert game.result is not None and game.result.reason is Reason.STALEMATE
    assert game.result.winner is R and "4.1.3" in game.result.clause


def test_4_1_2_facing_generals_loses_in_official_play() -> None:
    game, t = new(MATE_IN_ONE)
    play(game, t, ["d0e0"])
    assert game.result is not None and game.result.reason is Reason.FACING_GENERALS
    assert game.result.winner is B and "4.1.2" in game.result.clause


def test_4_1_6_illegal_move_loses_in_official_play() -> None:
    game, t = new()
    play(game, t, ["h2e3"])  # a cannon cannot move diagonally
    assert game.result is not None and game.result.reason is Reason.ILLEGAL_MOVE
    assert game.result.winner is B and game.result.clause == "4.1.6"


def test_casual_mode_rejects_illegal_moves_and_keeps_state() -> None:
    game, t = new(MATE_IN_ONE, name="casual")
    fen = game.board.fen()
    t.advance(1)
    with pytest.raises(IllegalMoveEventError):
        game.move(R, "d0e0")
    with pytest.raises(NotYourTurnError):
        game.move(B, "e9e8")
    assert game.board.fen() == fen and game.result is None and len(game.events) == 1


def test_5_8_move_out_of_turn_loses_under_national_rules() -> None:
    game, t = new()
    t.advance(1)
    game.move(B, "h7e7")
    assert game.result is not None and game.result.reason is Reason.ILLEGAL_MOVE
    assert game.result.winner is R and "5.8" in game.result.clause


def test_local_rules_illegal_moves_are_fouls_and_two_fouls_lose() -> None:
    game, t = new(name="cxa-local")
    t.advance(1)
    notices = game.move(R, "h2e3")
    assert [n.type for n in notices] == [NoticeType.INVALID_MOVE, NoticeType.FOUL]
    assert game.fouls(R) == 1 and game.to_move is R and game.result is None
    t.advance(1)
    game.move(B, "h7e7")  # out of turn: a technical foul too (local rule 8(五))
    assert game.fouls(B) == 1
    t.advance(1)
    game.move(R, "a0a5")
    assert game.result is not None and game.result.reason is Reason.FOULS
    assert game.result.winner is B and game.result.clause == "本次比赛规则 4(四)"


def test_4_1_8_three_fouls_lose_touch_move_entered_by_arbiter() -> None:
    game, t = new()
    for i in range(2):
        t.advance(1)
        game.record_foul(B, "5.1, 9.1.5", f"touch-move {i + 1}")
        assert game.result is None
    t.advance(1)
    game.record_foul(B, "9.1.1", "disturbing the opponent")
    assert game.result is not None and game.result.reason is Reason.FOULS and game.result.winner is R


def test_foul_limit_is_a_setting() -> None:
    game, t = new(foul_limit=2)
    game.record_foul(R, "9.1.5")
    game.record_foul(R, "9.1.5")
    assert game.result is not None and game.result.reason is Reason.FOULS


def test_4_1_4_time_forfeit_and_6_1_stage() -> None:
    game, t = new(time_control=TimeControl.both(scheme_6_1()), repetition_automatic=False)
    play(game, t, ["h2e2", "h7e7", "e2h2", "e7h7"] * 10, step=60)  # 20 moves each, 60 s apiece
    assert game.clock_reading(R) == pytest.approx(5400 - 20 * 60)
    t.advance(5400 - 20 * 60)
    notices = game.tick()
    assert notices[-1].type is NoticeType.GAME_OVER
    assert game.result is not None and game.result.reason is Reason.TIME_FORFEIT
    assert game.result.winner is B and game.result.clause == "4.1.4, 22.1"


def test_local_per_move_limit_loses() -> None:
    tc = TimeControl.both(SideTimeControl((Stage(None, 3600),), move_limit=30))
    game, t = new(name="cxa-local", time_control=tc)
    play(game, t, ["h2e2"], step=29)
    t.advance(31)
    game.tick()
    assert game.result is not None and game.result.reason is Reason.TIME_FORFEIT
    assert game.result.winner is R and "本次比赛规则 2" in game.result.clause


# --------------------------------------------------------------- 21 late
def test_21_1_absent_players_clock_runs_and_21_2_arrival_in_time() -> None:
    t = ManualTime(0)
    tc = TimeControl.both(scheme_6_1())
    game = XiangqiGame(ruleset("cxa", time_control=tc, late_limit=900), now=t)  # type: ignore[arg-type]
    game.start(absent=[R])
    t.advance(600)
    with pytest.raises(EventError):
        game.move(R, "h2e2")  # not there yet
    game.arrive(R)
    assert game.clock_reading(R) == pytest.approx(5400 - 600)
    t.advance(10)
    game.move(R, "h2e2")
    assert game.result is None


def test_4_1_5_late_beyond_the_limit_loses() -> None:
    t = ManualTime(0)
    game = XiangqiGame(ruleset("cxa", late_limit=900), now=t)  # type: ignore[arg-type]
    game.start(absent=[B])
    t.advance(5)
    game.move(R, "h2e2")
    t.advance(900)
    game.tick()
    assert game.result is not None and game.result.reason is Reason.LATE_ARRIVAL
    assert game.result.winner is R and game.ended_at == pytest.approx(900)


def test_21_3_both_late_time_deducted_and_double_forfeit() -> None:
    t = ManualTime(0)
    game = XiangqiGame(ruleset("cxa", late_limit=900), now=t)  # type: ignore[arg-type]
    game.start(absent=[R, B])
    t.advance(100)
    game.arrive(B)  # black's clock did not run: 100 s are deducted
    assert game.clock_reading(B) == pytest.approx(5400 - 100)
    t.advance(200)
    game.arrive(R)  # red's clock ran from the start
    assert game.clock_reading(R) == pytest.approx(5400 - 300)

    t2 = ManualTime(0)
    both = XiangqiGame(ruleset("cxa", late_limit=900), now=t2)  # type: ignore[arg-type]
    both.start(absent=[R, B])
    t2.advance(901)
    both.tick()
    assert both.result is not None and both.result.outcome is Outcome.DOUBLE_FORFEIT


# -------------------------------------------------------------- 23.1 offers
def test_23_1_draw_offer_after_own_move_and_acceptance() -> None:
    game, t = new()
    with pytest.raises(NotYourTurnError):
        game.offer_draw(R)  # red has not moved yet
    play(game, t, ["h2e2"])
    with pytest.raises(NotYourTurnError):
        game.offer_draw(B)  # black offers only after its own move
    game.offer_draw(R)
    assert game.pending_offer is R
    game.accept_draw(B)
    assert game.result is not None and game.result.reason is Reason.AGREEMENT
    assert game.result.outcome is Outcome.DRAW and "4.2.2" in game.result.clause


def test_23_1_move_declines_and_9_1_3_second_offer_is_a_foul() -> None:
    game, t = new()
    play(game, t, ["h2e2"])
    game.offer_draw(R)
    with pytest.raises(EventError):
        game.accept_draw(R)  # cannot accept one's own offer
    t.advance(1)
    notices = game.move(B, "h7e7")
    assert NoticeType.DRAW_DECLINED in [n.type for n in notices]
    assert game.pending_offer is None
    play(game, t, ["b0c2"])
    notices = game.offer_draw(R)
    assert [n.type for n in notices] == [NoticeType.FOUL]
    assert game.fouls(R) == 1 and game.pending_offer is None
    assert "9.1.3" in game.infractions[0].clause
    # Offers alternate: after black offers (and red declines), red may offer.
    play(game, t, ["b9c7"])
    game.offer_draw(B)
    game.decline_draw(R)
    play(game, t, ["a0b0"])
    game.offer_draw(R)
    assert game.pending_offer is R and game.fouls(R) == 1


# ------------------------------------------------------------ 24 repetition
def _cases() -> list[dict[str, object]]:
    data: list[dict[str, object]] = json.loads((TESTDATA / "repetition_basic.json").read_text())
    return data


@pytest.mark.parametrize("index", [0, 1, 6, 7])
def test_24_repetition_rulings_from_testdata(index: int) -> None:
    case = _cases()[index]
    game, t = new(str(case["fen"]))
    for move in list(case["moves"]):  # type: ignore[call-overload]
        if game.is_over:
            break
        play(game, t, [move])
    assert game.result is not None
    assert game.result.pgn_result == case["expected_verdict"]["result"]  # type: ignore[index]
    if game.result.outcome is Outcome.WIN:
        assert game.result.reason is Reason.PERPETUAL_CHECK and "24.1" in game.result.clause
    else:
        assert game.result.reason is Reason.REPETITION
    # Ruled as soon as a position occurred the third time (ply 8 or 9).
    assert len(game.moves) in (8, 9)


@pytest.mark.parametrize("index", [2, 3, 4])
def test_24_3_perpetual_chase_must_change_then_loses(index: int) -> None:
    case = _cases()[index]
    game, t = new(str(case["fen"]))
    moves = list(case["moves"])  # type: ignore[call-overload]
    play(game, t, moves)
    assert game.result is None
    must = [n for n in game.notices if n.type is NoticeType.MUST_CHANGE]
    assert len(must) == 1 and must[0].side is R  # the chasing side must change (26.4)
    assert game.last_ruling is not None and "捉" in game.last_ruling.full_zh
    cycle = moves[1:5]
    for move in cycle:
        if game.is_over:
            break
        play(game, t, [move])
    assert game.result is not None and game.result.reason is Reason.FORBIDDEN_REPETITION
    assert game.result.pgn_result == case["expected_verdict"]["result"]  # type: ignore[index]
    assert "24.3" in game.result.clause and "4.1.7" in game.result.clause


def test_24_protected_piece_attack_is_allowed_draw() -> None:
    case = _cases()[5]
    game, t = new(str(case["fen"]))
    for move in list(case["moves"]):  # type: ignore[call-overload]
        if not game.is_over:
            play(game, t, [move])
    assert game.result is not None and game.result.reason is Reason.REPETITION
    assert "4.2.3" in game.result.clause


def test_axf_profile_passes_its_code_to_the_judge() -> None:
    case = _cases()[0]
    game, t = new(str(case["fen"]), name="axf")
    play(game, t, list(case["moves"]))  # type: ignore[arg-type]
    assert game.result is not None and game.result.reason is Reason.PERPETUAL_CHECK
    assert game.last_ruling is not None and "Asian Xiangqi Federation" in game.last_ruling.full_en


def test_checks_only_judge_can_be_injected() -> None:
    case = _cases()[0]
    t = ManualTime(0)
    game = XiangqiGame(ruleset("cxa"), fen=str(case["fen"]), now=t,  # type: ignore[arg-type]
                       judge=checks_only_judge)
    game.start()
    play(game, t, list(case["moves"]))  # type: ignore[arg-type]
    assert game.result is not None and game.result.reason is Reason.PERPETUAL_CHECK
    assert game.result.clause == "24.1, 26.1"


def test_banned_moves_for_engines() -> None:
    case = _cases()[0]
    game, t = new(str(case["fen"]))
    play(game, t, list(case["moves"])[:8])  # type: ignore[arg-type]
    assert game.banned_moves() == ["a8a9"]  # the third perpetual check
    other, t2 = new()
    assert other.banned_moves() == []


def test_failing_judge_falls_back_to_checks() -> None:
    def broken(query: RepetitionQuery) -> RepetitionRuling:
        raise ValueError("cannot rule")

    case = _cases()[0]
    t = ManualTime(0)
    game = XiangqiGame(ruleset("cxa"), fen=str(case["fen"]), now=t, judge=broken)  # type: ignore[arg-type]
    game.start()
    play(game, t, list(case["moves"]))  # type: ignore[arg-type]
    assert game.result is not None and game.result.reason is Reason.PERPETUAL_CHECK
    assert "cannot rule" in game.result.explanation_en


def test_repetition_count_is_a_setting() -> None:
    case = _cases()[0]
    game, t = new(str(case["fen"]), repetition_count=2)
    play(game, t, list(case["moves"])[:5])  # type: ignore[arg-type]
    assert game.result is not None and game.result.reason is Reason.PERPETUAL_CHECK


class MustChangeJudge:
    """Rules that Black's cycle is forbidden (24.3) and records the queries."""

    def __init__(self) -> None:
        self.queries: list[RepetitionQuery] = []

    def __call__(self, query: RepetitionQuery) -> RepetitionRuling:
        self.queries.append(query)
        return RepetitionRuling(RulingKind.MUST_CHANGE, B, False, "24.3, 26.4", "长捉", "perpetual chase")


def test_24_3_must_change_then_repeating_again_loses() -> None:
    judge = MustChangeJudge()
    t = ManualTime(0)
    game = XiangqiGame(ruleset("cxa"), fen="3k1a3/9/9/8p/9/9/P8/9/9/3A1K3 w - - 0 1", now=t,  # type: ignore[arg-type]
                       judge=judge)
    game.start()
    cycle = ["d0e1", "f9e8", "e1d0", "e8f9"]
    play(game, t, cycle * 2)  # the start position occurs the third time
    assert game.result is None
    must = [n for n in game.notices if n.type is NoticeType.MUST_CHANGE]
    assert len(must) == 1 and must[0].side is B and must[0].clause == "24.3"
    assert judge.queries[0].count == 3 and len(judge.queries[0].moves) == 8
    play(game, t, cycle[:3])
    assert game.result is None
    play(game, t, cycle[3:])  # black completes the cycle once more
    assert game.result is not None and game.result.reason is Reason.FORBIDDEN_REPETITION
    assert game.result.winner is R and "4.1.7" in game.result.clause


def test_24_claim_when_not_automatic() -> None:
    case = _cases()[0]
    game, t = new(str(case["fen"]), repetition_automatic=False)
    play(game, t, list(case["moves"])[:4])  # type: ignore[arg-type]
    notices = game.claim(R, ClaimKind.REPETITION)
    assert notices[-1].type is NoticeType.CLAIM_REJECTED and game.result is None
    play(game, t, list(case["moves"])[4:])  # type: ignore[arg-type]
    assert game.result is None  # nobody claimed
    game.claim(B, ClaimKind.REPETITION)
    assert game.result is not None and game.result.reason is Reason.PERPETUAL_CHECK


# ------------------------------------------------------- 4.2.4, 23.3 limit
def test_4_2_4_natural_limit_automatic_lowered_for_the_event() -> None:
    game, t = new("3k1a3/9/9/8p/9/9/P8/9/4A4/3AK4 w - - 0 1", natural_limit=5,
                  repetition_automatic=False)
    play(game, t, ["e1f2", "f9e8", "f2e1", "e8f9"] * 2 + ["e1f2"])
    assert game.result is None
    play(game, t, ["f9e8"])
    assert game.result is not None and game.result.reason is Reason.NATURAL_LIMIT
    assert game.result.is_draw and "4.2.4" in game.result.clause


def test_23_3_false_claim_is_a_foul_and_costs_five_minutes() -> None:
    game, t = new(natural_limit_automatic=False)
    play(game, t, ["h2e2", "h7e7"])
    before = game.clock_reading(R)
    assert before is not None
    game.claim(R, ClaimKind.NATURAL_LIMIT)
    assert game.fouls(R) == 1 and game.result is None
    assert game.clock_reading(R) == pytest.approx(before - 300)
    with pytest.raises(NotYourTurnError):
        game.claim(B, ClaimKind.NATURAL_LIMIT)  # 8.5: in one's own turn


def test_23_3_false_claim_flag_loses() -> None:
    tc = TimeControl.both(SideTimeControl((Stage(None, 200),)))
    game, t = new(natural_limit_automatic=False, time_control=tc)
    game.claim(R, ClaimKind.NATURAL_LIMIT)
    assert game.result is not None and game.result.reason is Reason.TIME_FORFEIT
    assert game.result.winner is B and game.result.clause == "23.3"


def test_23_3_claimants_checks_count_at_most_ten() -> None:
    rules = dict(natural_limit=12, natural_limit_automatic=False, repetition_automatic=False)
    game, t = new(SHUTTLE, **rules)
    moves = (["a0a9", "e9e8"] + ["a9a8", "e8e9", "a8a9", "e9e8"] * 6)[:24]
    play(game, t, moves)
    # 12 rounds; red's 12 checks count as 10 moves: two rounds do not count.
    assert game.natural_limit_rounds(R) == 10
    game.claim(R, ClaimKind.NATURAL_LIMIT)
    assert game.fouls(R) == 1 and game.result is None
    t.advance(1)
    game.move(R, "a9a8" if game.board.fen().startswith("R") else "a8a9")
    assert game.natural_limit_rounds(B) == 12
    game.claim(B, ClaimKind.NATURAL_LIMIT)
    assert game.result is not None and game.result.reason is Reason.NATURAL_LIMIT


# --------------------------------------------------------- 4.2.1, 4.1.10
def test_4_2_1_arbiter_rules_no_win_possible_and_4_1_10_misconduct() -> None:
    game, t = new("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    game.adjudicate(Outcome.DRAW, Reason.NO_WIN_POSSIBLE, "4.2.1")
    assert game.result is not None and game.result.is_draw and game.result.clause == "4.2.1"
    other, _ = new()
    with pytest.raises(EventError):
        other.adjudicate(Outcome.WIN, Reason.MISCONDUCT, "4.1.10")  # no winner named
    other.adjudicate(Outcome.WIN, Reason.MISCONDUCT, "4.1.10", winner=B, note="refused to record")
    assert other.result is not None and other.result.winner is B


# ---------------------------------------------- pauses, records, points
def test_pause_stops_clocks_and_adjournment_plays_sealed_move() -> None:
    game, t = new()
    t.advance(10)
    game.pause()
    t.advance(1000)
    with pytest.raises(EventError):
        game.move(R, "h2e2")
    game.resume()
    assert game.clock_reading(R) == pytest.approx(5400 - 10)
    t.advance(5)
    game.adjourn(R, "h2e2")
    assert game.phase is Phase.ADJOURNED
    t.advance(50000)
    game.resume()
    assert game.moves[-1].move == "h2e2" and game.moves[-1].elapsed == pytest.approx(15)
    assert game.to_move is B


def test_replay_of_event_log_rebuilds_the_game() -> None:
    game, t = new(name="cxa-local")
    play(game, t, ["h2e2", "h7e7", "h0g2"], step=7)
    t.advance(3)
    game.move(B, "a9a1")  # illegal: a foul under the local rules
    game.offer_draw(R)
    t.advance(2)
    game.decline_draw(B)
    game.resign(B)
    copy = XiangqiGame.replay(game.events, rules=ruleset("cxa-local"), now=ManualTime(0))
    assert isinstance(copy, XiangqiGame)
    assert copy.board.fen() == game.board.fen()
    assert copy.result == game.result and copy.infractions == game.infractions
    assert copy.moves == game.moves


def test_2007_point_and_time_odds() -> None:
    rules = ruleset("cxa-2007")
    game, t = new(name="cxa-2007")
    assert game.clock_reading(R) == pytest.approx(4800)
    assert game.clock_reading(B) == pytest.approx(2400)
    play(game, t, ["h2e2"], step=10)
    assert game.clock_reading(R) == pytest.approx(4800 - 10 + 30)
    game.offer_draw(R)
    game.accept_draw(B)
    assert game.result is not None
    assert rules.points.points(game.result) == (Fraction(1), Fraction(2))
    assert ruleset("cxa").points.points(game.result) == (Fraction(1, 2), Fraction(1, 2))


def test_events_before_start_and_out_of_order_are_errors() -> None:
    t = ManualTime(100)
    game = XiangqiGame(now=t)
    with pytest.raises(EventError):
        game.move(R, "h2e2")
    game.start()
    with pytest.raises(EventError):
        game.move(R, "h2e2", at=50)
    with pytest.raises(EventError):
        game.move(R, "zz")
    with pytest.raises(EventError):
        game.start()


def test_non_finite_times_are_errors() -> None:
    game, t = new()
    with pytest.raises(EventError):
        game.move(R, "h2e2", at=float("inf"))
    with pytest.raises(EventError):
        game.penalize_time(R, float("inf"), "8.8")
    assert game.result is None


def test_refused_sealed_move_in_casual_play() -> None:
    game, t = new(name="casual", time_control=TimeControl.both(scheme_6_1()))
    t.advance(3)
    game.adjourn(R, "h2e3")  # illegal: refused on resumption, red must move
    t.advance(100)
    notices = game.resume()
    assert notices[-1].type is NoticeType.INVALID_MOVE and game.to_move is R
    play(game, t, ["h2e2"])
    copy = XiangqiGame.replay(game.events, rules=game.xrules, now=ManualTime(0))
    assert copy.moves == game.moves


def test_start_position_already_mated() -> None:
    game, _ = new("1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 1 1")
    assert game.result is not None and game.result.reason is Reason.CHECKMATE
    assert game.result.winner is R
