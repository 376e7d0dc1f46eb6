"""Clock scenarios on a manual time source (6.1-6.5, 2007 odds, Go §3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def play(clock: Clock, times: list[float], start: float = 0.0) -> float:
    """Alternate moves taking ``times`` seconds each; return the end time."""
    t = start
    for d in times:
        t += d
        press = clock.press(at=t)
        assert press.flagged is None, (t, press)
    return t


def test_6_1_second_stage_adds_15_minutes_after_move_40() -> None:
    clock = Clock(TimeControl.both(scheme_6_1()))
    clock.start(R, at=0)
    # 39 moves each of 60 s for red (and 1 s for black).
    t = play(clock, [60, 1] * 39)
    assert clock.remaining(R, at=t) == pytest.approx(5400 - 39 * 60)
    assert clock.snapshot(R, at=t).moves_to_go == 1
    t = play(clock, [60], start=t)  # red's 40th move
    # 90 min - 40 min used + 15 min of the second stage
    assert clock.remaining(R, at=t) == pytest.approx(5400 - 2400 + 900)
    assert clock.snapshot(R, at=t).moves_to_go == 10


def test_6_1_flag_before_move_40_is_time_forfeit() -> None:
    clock = Clock(TimeControl.both(scheme_6_1()))
    clock.start(R, at=0)
    t = play(clock, [130, 1] * 39)  # red has used 5070 s, 330 s left
    assert clock.deadline() == pytest.approx(t + 330)
    assert clock.flagged(at=t + 329.999) is None
    assert clock.flagged(at=t + 330) is R
    press = clock.press(at=t + 331)
    assert press.flagged is FlagCause.TIME


@pytest.mark.parametrize(
    ("scheme", "first_moves", "first_s", "then_moves", "then_s"),
    [(scheme_6_2(), 30, 3600, 10, 600), (scheme_6_3(), 40, 600, 30, 300), (scheme_6_4(), 30, 300, 30, 300)],
)
def test_6_2_to_6_4_stages_repeat(scheme: SideTimeControl, first_moves: int, first_s: float,
                                 then_moves: int, then_s: float) -> None:
    clock = Clock(TimeControl.both(scheme))
    clock.start(R, at=0)
    t = play(clock, [1, 1] * first_moves)
    assert clock.remaining(R, at=t) == pytest.approx(first_s - first_moves + then_s)
    t = play(clock, [1, 1] * then_moves, start=t)
    assert clock.remaining(R, at=t) == pytest.approx(first_s - first_moves + 2 * then_s - then_moves)


def test_6_5_sudden_death() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(5)))
    clock.start(R, at=0)
    t = play(clock, [100, 10, 100, 10])
    assert clock.remaining(R, at=t) == pytest.approx(100)
    assert clock.deadline() == pytest.approx(t + 100)
    assert clock.snapshot(R, at=t).moves_to_go is None


def test_2007_time_odds_with_increment() -> None:
    odds = TimeControl(SideTimeControl((Stage(None, 4800),), increment=30),
                       SideTimeControl((Stage(None, 2400),), increment=30))
    clock = Clock(odds)
    clock.start(R, at=0)
    t = play(clock, [100, 100])
    assert clock.remaining(R, at=t) == pytest.approx(4800 - 100 + 30)
    assert clock.remaining(B, at=t) == pytest.approx(2400 - 100 + 30)


def test_chinese_byoyomi_61_seconds_costs_a_minute_59_nothing() -> None:
    control = SideTimeControl((Stage(None, 0),), byoyomi=chinese_byoyomi(5))
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    play(clock, [59])
    assert clock.snapshot(R, at=59).periods == 5
    play(clock, [1], start=59)
    t = play(clock, [61], start=60)
    assert clock.snapshot(R, at=t).periods == 4
    t = play(clock, [1, 60], start=t)  # exactly one full minute is deducted too
    assert clock.snapshot(R, at=t).periods == 3


def test_chinese_byoyomi_calls_and_last_minute_count() -> None:
    control = SideTimeControl((Stage(None, 10),), byoyomi=chinese_byoyomi(2))
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    calls = clock.calls(0, 200)
    kinds = [(c.at, c.kind, c.value) for c in calls]
    assert kinds[0] == (10.0, "byoyomi", 2)
    assert (40.0, "seconds", 30) in kinds and (68.0, "seconds", 58) in kinds
    assert (70.0, "periods_left", 1) in kinds
    # last minute: 30, 40, 50, then 1..9, then "10，超时判负" at 60 s
    last = [(c.at, c.kind, c.value) for c in calls if c.at > 70]
    assert last[:3] == [(100.0, "seconds", 30), (110.0, "seconds", 40), (120.0, "seconds", 50)]
    assert [v for (_, k, v) in last if k == "count"] == list(range(1, 10))
    assert last[-1][1] == "flag" and last[-1][0] == 130.0
    assert calls[-1].text_zh == "10，超时判负"
    assert clock.deadline() == 130.0
    assert clock.calls(40, 50) == [c for c in calls if 40 < c.at <= 50]


def test_japanese_byoyomi_periods() -> None:
    control = SideTimeControl((Stage(None, 60),), byoyomi=Byoyomi(ByoyomiKind.JAPANESE, 3, 30))
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    t = play(clock, [85, 1])  # 60 main + 25 of the first period
    assert clock.snapshot(R, at=t).periods == 3
    t = play(clock, [65, 1], start=t)  # two periods used up
    assert clock.snapshot(R, at=t).periods == 1
    assert clock.deadline() is not None
    assert clock.flagged(at=t + 29.999) is None and clock.flagged(at=t + 30) is R


def test_canadian_byoyomi_renews_after_n_moves() -> None:
    control = SideTimeControl((Stage(None, 10),), byoyomi=Byoyomi(ByoyomiKind.CANADIAN, 1, 100, moves=3))
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    t = play(clock, [40, 1])  # 10 main + 30 of the period
    snap = clock.snapshot(R, at=t)
    assert snap.in_byoyomi and snap.period_left == pytest.approx(70) and snap.moves_to_go == 2
    t = play(clock, [30, 1, 30, 1], start=t)  # third move renews the period
    snap = clock.snapshot(R, at=t)
    assert snap.period_left == pytest.approx(100) and snap.moves_to_go == 3


def test_per_move_limit_of_the_local_rules() -> None:
    control = SideTimeControl((Stage(None, 3600),), move_limit=120)
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    assert clock.deadline() == 120
    assert clock.flag_cause(R) is FlagCause.MOVE_LIMIT
    assert clock.press(at=121).flagged is FlagCause.MOVE_LIMIT


def test_pause_and_resume_stop_time() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=0)
    clock.pause(at=100)
    assert clock.remaining(R, at=500) == pytest.approx(500)
    assert clock.snapshot(R, at=600).main == pytest.approx(500)
    clock.resume(at=1000)
    assert clock.remaining(R, at=1100) == pytest.approx(600 - 200)
    assert clock.deadline() == pytest.approx(1100 + 400)


def test_charge_penalty_and_flag() -> None:
    clock = Clock(TimeControl.both(scheme_6_5(10)))
    clock.start(R, at=0)
    assert clock.charge(R, 300, at=10) is None
    assert clock.remaining(R, at=10) == pytest.approx(290)
    assert clock.charge(B, 599, at=10) is None
    assert clock.remaining(B, at=10) == pytest.approx(1)
    assert clock.charge(R, 290, at=10) is FlagCause.TIME


def test_injected_time_source_and_errors() -> None:
    now = ManualTime(5)
    clock = Clock(TimeControl.both(scheme_6_5(1)), now=now)
    clock.start(R)
    now.advance(20)
    assert clock.remaining(R) == pytest.approx(40)
    with pytest.raises(ClockError):
        clock.remaining(R, at=1)  # earlier than the last operation
    with pytest.raises(ClockError):
        now.advance(-1)
    with pytest.raises(ClockError):
        clock.start(B)
    with pytest.raises(TimeControlError):
        SideTimeControl((Stage(40, 5400),))  # last stage needs repeat or byo-yomi
    with pytest.raises(TimeControlError):
        SideTimeControl(())


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["press", "pause", "resume", "charge", "remaining"]),
              st.floats(min_value=0, max_value=200, allow_nan=False)),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(ACTIONS, st.sampled_from(["61", "cn", "jp", "ca", "limit"]))
def test_random_clock_operations_stay_consistent(actions: list[tuple[str, float]], which: str) -> None:
    controls = {
        "61": scheme_6_1(),
        "cn": SideTimeControl((Stage(None, 100),), byoyomi=chinese_byoyomi(2)),
        "jp": SideTimeControl((Stage(None, 50),), byoyomi=Byoyomi(ByoyomiKind.JAPANESE, 2, 30)),
        "ca": SideTimeControl((Stage(None, 50),), byoyomi=Byoyomi(ByoyomiKind.CANADIAN, 1, 60, 2)),
        "limit": SideTimeControl((Stage(None, 300),), increment=5, move_limit=90),
    }
    clock = Clock(TimeControl.both(controls[which]))
    clock.start(R, at=0)
    t = 0.0
    for action, dt in actions:
        t += dt
        try:
            if action == "press":
                deadline = clock.deadline()
                press = clock.press(at=t)
                assert (press.flagged is not None) == (deadline is not None and t >= deadline - 1e-9)
                if press.flagged:
                    assert clock.running is None
                    return
            elif action == "pause":
                clock.pause(at=t)
            elif action == "resume":
                clock.resume(at=t)
            elif action == "charge":
                clock.charge(Side.SECOND, dt / 10, at=t)
            else:
                for side in Side:
                    snap = clock.snapshot(side, at=t)
                    assert snap.main >= 0 and snap.periods >= 0
                    assert clock.remaining(side, at=t) >= 0
        except ClockError:
            pass
