"""The clock's contract in the details mutation testing found unpinned: the
schemes' exact numbers (6.1-6.5), the settings checks and their messages,
time odds with different controls per side, stages that follow byo-yomi,
stop(), pause/resume state, calls after a pause, and every call's text."""

from __future__ import annotations

import re

import pytest

from qisai.referee.clock import (
    Byoyomi,
    ByoyomiKind,
    Clock,
    FlagCause,
    ManualTime,
    SideTimeControl,
    Stage,
    TimeControl,
    chinese_byoyomi,
    scheme_6_1,
    scheme_6_2,
    scheme_6_3,
    scheme_6_4,
    scheme_6_5,
)
from qisai.referee.errors import ClockError, TimeControlError
from qisai.referee.verdict import Side

R, B = Side.FIRST, Side.SECOND
JAPANESE = Byoyomi(ByoyomiKind.JAPANESE, 3, 30)


# ------------------------------------------------------------ the schemes
def test_schemes_are_the_rule_texts_numbers() -> None:
    assert scheme_6_1() == SideTimeControl((Stage(40, 5400), Stage(10, 900)), repeat_last=True)
    assert scheme_6_2() == SideTimeControl((Stage(30, 3600), Stage(10, 600)), repeat_last=True)
    assert scheme_6_3() == SideTimeControl((Stage(40, 600), Stage(30, 300)), repeat_last=True)
    assert scheme_6_4() == SideTimeControl((Stage(30, 300),), repeat_last=True)
    assert scheme_6_5(25) == SideTimeControl((Stage(None, 1500),))
    assert chinese_byoyomi() == Byoyomi(ByoyomiKind.CHINESE, periods=5, period_seconds=60.0)
    assert chinese_byoyomi(1).periods == 1


# ------------------------------------------------------- settings checks
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"stages": ()}, "a time control needs at least one stage of main time"),
    ({"stages": (Stage(None, -1),)}, "stage 1: negative time -1"),
    ({"stages": (Stage(10, 60), Stage(None, -5))}, "stage 2: negative time -5"),
    ({"stages": (Stage(0, 60),), "repeat_last": True}, "stage 1: moves must be at least 1, not 0"),
    ({"stages": (Stage(5, 60), Stage(0, 60)), "repeat_last": True},
     "stage 2: moves must be at least 1, not 0"),
    ({"stages": (Stage(None, 60), Stage(None, 60))}, "stage 1: only the last stage may be sudden death"),
    ({"stages": (Stage(5, 60), Stage(None, 60), Stage(None, 60))},
     "stage 2: only the last stage may be sudden death"),
    ({"stages": (Stage(40, 5400),)},
     "the last stage has a move count: set repeat_last, make it sudden death (moves=None) or "
     "add byo-yomi"),
    ({"stages": (Stage(None, 60),), "repeat_last": True}, "repeat_last needs a last stage with a move count"),
    ({"stages": (Stage(1, 0),), "repeat_last": True}, "a repeating stage needs a positive time"),
    ({"stages": (Stage(None, 60),), "increment": -1}, "negative increment -1"),
    ({"stages": (Stage(None, 60),), "move_limit": 0}, "move limit must be positive, not 0"),
    ({"stages": (Stage(None, 60),), "byoyomi": Byoyomi(ByoyomiKind.JAPANESE, 0, 30)},
     "byo-yomi needs positive periods, time and moves"),
    ({"stages": (Stage(None, 60),), "byoyomi": Byoyomi(ByoyomiKind.JAPANESE, 1, 0)},
     "byo-yomi needs positive periods, time and moves"),
    ({"stages": (Stage(None, 60),), "byoyomi": Byoyomi(ByoyomiKind.CANADIAN, 1, 60, 0)},
     "byo-yomi needs positive periods, time and moves"),
    ({"stages": (Stage(None, 60),), "byoyomi": Byoyomi(ByoyomiKind.CHINESE, 5, 30)},
     "Chinese byo-yomi is counted in whole minutes (60 s)"),
])
def test_bad_settings_say_what_is_wrong(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(TimeControlError, match="^" + re.escape(message)):
        SideTimeControl(**kwargs)


@pytest.mark.parametrize("kwargs", [
    {"stages": (Stage(1, 60),), "repeat_last": True},  # one move per stage
    {"stages": (Stage(None, 0),), "byoyomi": JAPANESE},  # byo-yomi only
    {"stages": (Stage(1, 0.5),), "repeat_last": True},  # half a second
    {"stages": (Stage(None, 60),), "increment": 0, "move_limit": 0.5},
    {"stages": (Stage(None, 60),), "byoyomi": Byoyomi(ByoyomiKind.JAPANESE, 1, 0.5)},
    {"stages": (Stage(None, 60),), "byoyomi": Byoyomi(ByoyomiKind.CANADIAN, 1, 60, 1)},
    {"stages": (Stage(30, 60),), "byoyomi": chinese_byoyomi(1)},  # a move count, then byo-yomi
])
def test_smallest_good_settings_are_accepted(kwargs: dict) -> None:  # type: ignore[type-arg]
    SideTimeControl(**kwargs)


# ---------------------------------------------------------- time sources
def test_manual_time() -> None:
    t = ManualTime(10)
    assert t() == 10.0 and isinstance(t(), float)
    t.advance(0)
    t.advance(0.5)
    assert t() == 10.5
    t.set(10.5)  # not back: allowed
    t.set(12)
    assert t() == 12.0 and isinstance(t(), float)
    with pytest.raises(ClockError, match=r"^time cannot go back \(-0.5 s\)$"):
        t.advance(-0.5)
    with pytest.raises(ClockError, match=r"^time cannot go back from 12.0 to 11.9$"):
        t.set(11.9)
    assert t() == 12.0


def test_time_source_errors_and_any_origin() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(1)))
    with pytest.raises(ClockError, match="^no time given and the clock has no time source$"):
        clock.start(R)
    # any origin, negative times included
    clock.start(R, at=-100.0)
    assert clock.remaining(R, at=-70.0) == 30
    with pytest.raises(ClockError, match=r"^time -80.0 s is earlier than the last clock "
                                         r"operation \(-70.0 s\)$"):
        clock.remaining(R, at=-80.0)


# ------------------------------------------------------- different sides
ODDS = TimeControl(SideTimeControl((Stage(None, 600),), move_limit=30),
                   SideTimeControl((Stage(None, 300),), move_limit=100))


def test_each_side_has_its_own_control() -> None:
    clock = Clock(ODDS)
    clock.start(R, at=0)
    assert clock.deadline() == 30  # Red's move limit, not Black's
    assert clock.remaining(R, at=10) == 20
    assert clock.flag_cause(R) is FlagCause.MOVE_LIMIT
    assert clock.flagged(at=19.999) is None
    press = clock.press(at=20)
    assert (press.side, press.elapsed, press.flagged) == (R, 20.0, None)
    assert clock.deadline() == 120  # Black: 100 s a move
    assert clock.remaining(B, at=20) == 100 and clock.remaining(R, at=20) == 580
    assert clock.charge(B, 99, at=20) is None
    assert clock.charge(B, 1, at=20) is FlagCause.TIME
    clock2 = Clock(ODDS)
    clock2.start(R, at=0)
    assert clock2.flagged(at=29.999) is None and clock2.flagged(at=30) is R
    press = clock2.press(at=30.5)
    assert press.flagged is FlagCause.MOVE_LIMIT and press.side is R and press.elapsed == 30.5


def test_flag_cause_of_each_side() -> None:
    # Red: 10 s of main time (less than its 30 s limit); Black: 30 s limit, 600 s main
    control = TimeControl(SideTimeControl((Stage(None, 10),), move_limit=30),
                          SideTimeControl((Stage(None, 600),), move_limit=30))
    clock = Clock(control)
    clock.start(R, at=0)
    assert clock.flag_cause(R) is FlagCause.TIME
    assert clock.flag_cause(B) is FlagCause.MOVE_LIMIT  # judged on Black's own time


def test_limit_equal_to_the_time_left_is_a_time_forfeit() -> None:
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 120),), move_limit=120)))
    clock.start(R, at=0)
    assert clock.flag_cause(R) is FlagCause.TIME
    assert clock.press(at=120).flagged is FlagCause.TIME


def test_press_reports_the_move_time_in_seconds() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=1.0)
    press = clock.press(at=13.345)
    assert press.side is R and press.elapsed == pytest.approx(12.345) and press.flagged is None
    with pytest.raises(ClockError, match="^cannot start SECOND: a clock already runs or is paused$"):
        clock.start(B, at=14)


# ------------------------------------------------------- stages and moves
def test_moves_are_counted_on_every_face() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=0)
    t = 0.0
    for _ in range(3):
        t += 1
        clock.press(at=t)
        t += 1
        clock.press(at=t)
    assert clock.moves(R) == 3 and clock.moves(B) == 3
    snap = clock.snapshot(R, at=t + 1)  # Red running: its own count, not charged a move
    assert snap.moves == 3 and snap.running
    other = clock.snapshot(B, at=t + 1)
    assert other.moves == 3 and not other.running and other.side is B
    assert snap.side is R


def test_third_stage_follows_the_second() -> None:
    control = SideTimeControl((Stage(2, 100), Stage(2, 50), Stage(2, 20)), repeat_last=True)
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    t = 0.0
    added = []
    for _ in range(6):
        before = clock.remaining(R, at=t)
        t += 1
        clock.press(at=t)
        added.append(round(clock.remaining(R, at=t) - before + 1))
        clock.press(at=t)
    assert added == [0, 50, 0, 20, 0, 20]


def test_stage_after_byoyomi_brings_main_time_back() -> None:
    """Go style: 2 moves in 10 s, then sudden death 100 s, with byo-yomi
    between: a side in overtime when the stage's moves are made gets the
    next stage's main time and leaves overtime."""
    control = SideTimeControl((Stage(2, 10), Stage(None, 100)), byoyomi=JAPANESE)
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    clock.press(at=15)  # 10 main + 5 of a period: in byo-yomi
    assert clock.snapshot(R, at=15).in_byoyomi
    clock.press(at=15)
    clock.press(at=20)  # the stage's second move
    snap = clock.snapshot(R, at=20)
    assert not snap.in_byoyomi and snap.main == 100 and snap.periods == 3


def test_increment_is_not_given_for_the_move_that_enters_byoyomi() -> None:
    control = SideTimeControl((Stage(None, 60),), increment=10, byoyomi=JAPANESE)
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    clock.press(at=30)
    assert clock.snapshot(R, at=30).main == 40  # 60 - 30 + 10
    clock.press(at=30)
    clock.press(at=100)  # 70 s: 40 main + 30, a period used up
    snap = clock.snapshot(R, at=100)
    assert snap.in_byoyomi and snap.main == 0 and snap.periods == 2
    clock.press(at=100)
    clock.press(at=101)  # a move in byo-yomi: no increment either
    assert clock.snapshot(R, at=101).main == 0


# ---------------------------------------------------- stop, pause, charge
def test_stop_charges_the_running_move_and_ends_the_game() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=0)
    clock.press(at=10)
    clock.stop(at=50)  # Black thought 40 s, no move made
    assert clock.running is None and not clock.paused
    snap = clock.snapshot(B, at=60)
    assert snap.main == 560 and snap.moves == 0 and not snap.running
    assert clock.snapshot(R, at=60).main == 590
    assert clock.deadline() is None and clock.flagged(at=70) is None
    with pytest.raises(ClockError, match="^the clock was stopped at the end of the game$"):
        clock.start(R, at=80)


def test_stop_while_paused_charges_the_time_before_the_pause() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=0)
    clock.pause(at=30)
    clock.stop(at=500)
    assert clock.snapshot(R, at=500).main == 570
    with pytest.raises(ClockError):
        clock.resume(at=600)


def test_stop_past_the_flag_leaves_no_time() -> None:
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 60),), byoyomi=JAPANESE)))
    clock.start(R, at=0)
    clock.stop(at=1000)
    snap = clock.snapshot(R, at=1000)
    assert snap.main == 0 and snap.periods == 0 and snap.in_byoyomi
    assert clock.remaining(R, at=1000) == 0


def test_stop_before_the_start_and_twice() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(1)))
    clock.stop(at=0)
    clock.stop(at=1)
    assert clock.snapshot(R, at=2).main == 60
    with pytest.raises(ClockError):
        clock.start(R, at=3)


def test_flag_stops_the_clock_for_good() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(1)))
    clock.start(R, at=0)
    assert clock.press(at=61).flagged is FlagCause.TIME
    assert clock.running is None
    with pytest.raises(ClockError, match="^the clock was stopped at the end of the game$"):
        clock.start(B, at=62)


def test_pause_and_resume_state() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    with pytest.raises(ClockError, match="^pause: no clock is running$"):
        clock.pause(at=0)
    with pytest.raises(ClockError, match="^resume: the clock is not paused$"):
        clock.resume(at=0)
    with pytest.raises(ClockError, match="^press: no clock is running$"):
        clock.press(at=0)
    clock.start(R, at=0)
    clock.pause(at=10)
    assert clock.running is None and clock.paused is True
    assert clock.deadline() is None and clock.flagged(at=700) is None
    clock.resume(at=700)
    assert clock.running is R and clock.paused is False
    assert clock.deadline() == 700 + 590


def test_charge_rules() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=0)
    assert clock.charge(B, 0, at=0) is None  # nothing to charge is no error
    assert clock.charge(B, 0.5, at=0) is None
    assert clock.remaining(B, at=0) == 599.5
    with pytest.raises(ClockError, match=r"^cannot charge negative time \(-1 s\)$"):
        clock.charge(B, -1, at=0)
    assert clock.snapshot(B, at=0).moves == 0  # a penalty is no move
    # the side on move while paused: the pause does not count
    clock.pause(at=100)
    assert clock.charge(R, 400, at=500) is None  # 100 + 400 of 600
    assert clock.remaining(R, at=500) == 100
    assert clock.charge(R, 100, at=500) is FlagCause.TIME


# ------------------------------------------------------------ the calls
def test_calls_after_a_pause_are_shifted_by_it() -> None:
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 60),), byoyomi=JAPANESE)))
    clock.start(R, at=0)
    clock.pause(at=20)
    assert clock.calls(0, 1000) == []  # nothing is called while paused
    clock.resume(at=100)  # 40 s of main time left
    calls = clock.calls(100, 1000)
    assert [(c.at, c.kind, c.value) for c in calls][:3] == [
        (140.0, "byoyomi", 3), (150.0, "seconds", 10), (160.0, "seconds", 20)]
    assert calls[-1].at == clock.deadline() == 230.0
    assert all(c.side is R for c in calls)
    assert clock.calls(100, 140) == calls[:1] and clock.calls(140, 150) == calls[1:2]


def test_japanese_calls_and_texts() -> None:
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 10),),
                                                   byoyomi=Byoyomi(ByoyomiKind.JAPANESE, 2, 30))))
    clock.start(R, at=0)
    got = [(c.at, c.kind, c.value, c.text_zh, c.text_en) for c in clock.calls(0, 100)]
    assert got == [
        (10.0, "byoyomi", 2, "开始读秒，还剩2次", "byo-yomi begins: 2 periods left"),
        (20.0, "seconds", 10, "10秒", "10 seconds"),
        (30.0, "seconds", 20, "20秒", "20 seconds"),
        (40.0, "periods_left", 1, "还剩1次", "1 periods left"),
        (50.0, "seconds", 10, "10秒", "10 seconds"),
        (60.0, "seconds", 20, "20秒", "20 seconds"),
        (61.0, "count", 1, "1", "1"), (62.0, "count", 2, "2", "2"), (63.0, "count", 3, "3", "3"),
        (64.0, "count", 4, "4", "4"), (65.0, "count", 5, "5", "5"), (66.0, "count", 6, "6", "6"),
        (67.0, "count", 7, "7", "7"), (68.0, "count", 8, "8", "8"), (69.0, "count", 9, "9", "9"),
        (70.0, "flag", 0, "超时判负", "time is up: lost on time"),
    ]


def test_chinese_call_texts() -> None:
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 0),), byoyomi=chinese_byoyomi(2))))
    clock.start(R, at=0)
    got = [(c.at, c.kind, c.value, c.text_zh, c.text_en) for c in clock.calls(-1, 200)]
    assert got[0] == (0.0, "byoyomi", 2, "开始读秒，还剩2分钟", "byo-yomi begins: 2 minutes left")
    assert got[1:6] == [(30.0, "seconds", 30, "30秒", "30 seconds"),
                        (40.0, "seconds", 40, "40秒", "40 seconds"),
                        (50.0, "seconds", 50, "50秒", "50 seconds"),
                        (55.0, "seconds", 55, "55秒", "55 seconds"),
                        (58.0, "seconds", 58, "58秒", "58 seconds")]
    assert got[6] == (60.0, "periods_left", 1, "还剩1分钟", "1 minutes left")
    assert got[7:10] == [(90.0, "seconds", 30, "30秒", "30 seconds"),
                         (100.0, "seconds", 40, "40秒", "40 seconds"),
                         (110.0, "seconds", 50, "50秒", "50 seconds")]
    assert got[10:19] == [(110.0 + k, "count", k, str(k), str(k)) for k in range(1, 10)]
    assert got[19:] == [(120.0, "flag", 0, "10，超时判负", "time is up: lost on time")]


def test_canadian_call_texts() -> None:
    control = SideTimeControl((Stage(None, 0),), byoyomi=Byoyomi(ByoyomiKind.CANADIAN, 1, 8, 5))
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    got = [(c.at, c.kind, c.value, c.text_zh, c.text_en) for c in clock.calls(-1, 100)]
    assert got == [
        (0.0, "byoyomi", 5, "开始读秒，还剩5着", "byo-yomi begins: 5 moves left"),
        (3.0, "seconds", 5, "还剩5秒", "5 seconds left"),
        (4.0, "seconds", 4, "还剩4秒", "4 seconds left"),
        (5.0, "seconds", 3, "还剩3秒", "3 seconds left"),
        (6.0, "seconds", 2, "还剩2秒", "2 seconds left"),
        (7.0, "seconds", 1, "还剩1秒", "1 seconds left"),
        (8.0, "flag", 0, "超时判负", "time is up: lost on time"),
    ]


# A per-move limit for Red only: every query about Red must use Red's limit.
RED_LIMIT = TimeControl(SideTimeControl((Stage(None, 600),), move_limit=30),
                        SideTimeControl((Stage(None, 600),)))


def test_red_only_limit_is_red_s() -> None:
    clock = Clock(RED_LIMIT)
    clock.start(R, at=0)
    assert clock.flag_cause(R) is FlagCause.MOVE_LIMIT and clock.flag_cause(B) is FlagCause.TIME
    assert clock.charge(R, 29, at=0) is None
    assert clock.charge(R, 1, at=0) is FlagCause.TIME  # the move's time is up
    flagged = Clock(RED_LIMIT)
    flagged.start(R, at=0)
    assert flagged.press(at=31).flagged is FlagCause.MOVE_LIMIT
    stopped = Clock(RED_LIMIT)
    stopped.start(R, at=0)
    stopped.stop(at=100)  # a move cannot cost more than the limit
    assert stopped.snapshot(R, at=100).main == 570


def test_calls_end_at_the_move_limit() -> None:
    control = TimeControl(SideTimeControl((Stage(None, 0),), byoyomi=JAPANESE, move_limit=40),
                          SideTimeControl((Stage(None, 0),), byoyomi=JAPANESE))
    clock = Clock(control)
    clock.start(R, at=0)
    got = [(c.at, c.kind, c.value) for c in clock.calls(-1, 1000)]
    # the 10 s call of the second period would be at 40: the flag is there instead
    assert got == [(0.0, "byoyomi", 3), (10.0, "seconds", 10), (20.0, "seconds", 20),
                   (30.0, "periods_left", 2), (40.0, "flag", 0)]


def test_periods_left_counts_down() -> None:
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 0),), byoyomi=Byoyomi(
        ByoyomiKind.JAPANESE, 4, 10))))
    clock.start(R, at=0)
    left = [(c.at, c.value, c.text_zh) for c in clock.calls(-1, 100) if c.kind == "periods_left"]
    assert left == [(10.0, 3, "还剩3次"), (20.0, 2, "还剩2次"), (30.0, 1, "还剩1次")]
    counts = [c.at for c in clock.calls(30, 100) if c.kind == "count"]
    assert counts == [31.0 + k for k in range(9)]


def test_short_periods_call_only_what_fits() -> None:
    # Japanese 5 s: the last-period count starts at 6 (5 s before the end)
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 0),), byoyomi=Byoyomi(
        ByoyomiKind.JAPANESE, 1, 5))))
    clock.start(R, at=0)
    assert [(c.at, c.kind, c.value) for c in clock.calls(-1, 100)] == [
        (0.0, "byoyomi", 1), (1.0, "count", 6), (2.0, "count", 7), (3.0, "count", 8),
        (4.0, "count", 9), (5.0, "flag", 0)]
    # Canadian 60 s: "60 seconds left" is not called at the period's start
    canadian = Clock(TimeControl.both(SideTimeControl((Stage(None, 0),), byoyomi=Byoyomi(
        ByoyomiKind.CANADIAN, 1, 60, 5))))
    canadian.start(R, at=0)
    first = [(c.at, c.kind, c.value) for c in canadian.calls(-1, 31)]
    assert first == [(0.0, "byoyomi", 5), (30.0, "seconds", 30)]


def test_leaving_byoyomi_for_a_new_stage_is_a_plain_false() -> None:
    control = SideTimeControl((Stage(2, 10), Stage(None, 100)), byoyomi=JAPANESE)
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    clock.press(at=15)
    clock.press(at=15)
    clock.press(at=20)
    assert clock.snapshot(R, at=20).in_byoyomi is False
