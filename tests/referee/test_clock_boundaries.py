"""The clock at its boundaries, one tick (1 ms, the clock's resolution)
either side, for every kind of time control.

Xiangqi 22.1 / Go §3: the flag falls when the time is used up, so a move
made with exactly all of the time left is too late, one tick earlier is in
time.  Using exactly all of the main time enters byo-yomi (the main time is
gone), and a byo-yomi period is lost when it is used up exactly.
"""

from __future__ import annotations

import pytest

from qisai.referee.clock import (
    Byoyomi,
    ByoyomiKind,
    Clock,
    FlagCause,
    SideTimeControl,
    Stage,
    TimeControl,
    chinese_byoyomi,
    scheme_6_1,
    scheme_6_4,
    scheme_6_5,
)
from qisai.referee.verdict import Side

R, B = Side.FIRST, Side.SECOND
TICK = 0.001

SUDDEN_DEATH = scheme_6_5(1)  # 60 s for the game
INCREMENT = SideTimeControl((Stage(None, 60),), increment=30)
JAPANESE = SideTimeControl((Stage(None, 60),), byoyomi=Byoyomi(ByoyomiKind.JAPANESE, 3, 30))
CHINESE = SideTimeControl((Stage(None, 10),), byoyomi=chinese_byoyomi(2))
CANADIAN = SideTimeControl((Stage(None, 10),), byoyomi=Byoyomi(ByoyomiKind.CANADIAN, 1, 100, moves=3))


def started(control: SideTimeControl) -> Clock:
    clock = Clock(TimeControl.both(control))
    clock.start(R, at=0)
    return clock


def red_moves(control: SideTimeControl, seconds: float) -> Clock:
    """Red's first move takes ``seconds``; it must be in time."""
    clock = started(control)
    press = clock.press(at=seconds)
    assert press.flagged is None, (seconds, press)
    return clock


def ticks_around(t: float) -> list[float]:
    return [round(t - TICK, 3), t, round(t + TICK, 3)]


# ------------------------------------------------------------- main time
@pytest.mark.parametrize("control", [SUDDEN_DEATH, INCREMENT], ids=["sudden_death", "increment"])
def test_flag_falls_at_exactly_zero_main_time(control: SideTimeControl) -> None:
    clock = started(control)
    assert clock.deadline() == 60
    assert clock.remaining(R, at=60 - TICK) == pytest.approx(TICK)
    assert clock.flagged(at=60 - TICK) is None
    assert clock.remaining(R, at=60) == 0
    assert clock.flagged(at=60) is R
    assert clock.snapshot(R, at=60).main == 0


@pytest.mark.parametrize("control", [SUDDEN_DEATH, INCREMENT], ids=["sudden_death", "increment"])
@pytest.mark.parametrize("t", ticks_around(60))
def test_move_at_zero_main_time_is_too_late(control: SideTimeControl, t: float) -> None:
    clock = started(control)
    press = clock.press(at=t)
    if t < 60:
        assert press.flagged is None
        snap = clock.snapshot(R, at=t)
        # the tick left, plus the increment for a move made in time
        assert snap.main == pytest.approx(TICK + control.increment)
        assert not snap.in_byoyomi and snap.moves == 1
        assert clock.running is B
    else:
        assert press.flagged is FlagCause.TIME
        assert clock.running is None


def test_increment_is_added_only_after_a_move_in_time() -> None:
    clock = red_moves(INCREMENT, 60 - TICK)
    assert clock.remaining(R, at=60) == pytest.approx(30 + TICK)
    clock.press(at=60)  # Black's move takes no time
    assert clock.deadline() == pytest.approx(60 + 30 + TICK)
    assert clock.flagged(at=90) is None
    assert clock.flagged(at=90 + TICK) is R


@pytest.mark.parametrize("t", ticks_around(271))
def test_6_4_thirtieth_move_at_the_end_of_the_stage(t: float) -> None:
    """6.4: 30 moves in 5 minutes.  29 moves of 1 s leave 271 s for the 30th;
    made in time it brings the next 5 minutes."""
    clock = started(scheme_6_4())
    now = 0.0
    for _ in range(29):
        now += 1
        clock.press(at=now)  # red
        clock.press(at=now)  # black, instantly
    assert clock.snapshot(R, at=now).moves_to_go == 1
    assert clock.deadline() == pytest.approx(now + 271)
    press = clock.press(at=now + t)
    if t < 271:
        assert press.flagged is None
        snap = clock.snapshot(R, at=now + t)
        assert snap.main == pytest.approx(271 - t + 300)
        assert snap.moves_to_go == 30
    else:
        assert press.flagged is FlagCause.TIME


@pytest.mark.parametrize("t", ticks_around(330))
def test_6_1_fortieth_move_at_the_end_of_the_first_stage(t: float) -> None:
    clock = started(scheme_6_1())
    now = 0.0
    for _ in range(39):
        now += 130
        clock.press(at=now)
        clock.press(at=now)
    assert clock.deadline() == pytest.approx(now + 330)
    press = clock.press(at=now + t)
    if t < 330:
        assert press.flagged is None
        assert clock.remaining(R, at=now + t) == pytest.approx(330 - t + 900)
        assert clock.snapshot(R, at=now + t).moves_to_go == 10
    else:
        assert press.flagged is FlagCause.TIME


# ------------------------------------------------ entering byo-yomi exactly
@pytest.mark.parametrize("control", [JAPANESE, CHINESE, CANADIAN], ids=["japanese", "chinese", "canadian"])
def test_using_exactly_all_main_time_enters_byoyomi(control: SideTimeControl) -> None:
    main = control.stages[0].seconds
    before = red_moves(control, main - TICK).snapshot(R, at=main)
    assert not before.in_byoyomi
    assert before.main == pytest.approx(TICK)
    exact = red_moves(control, main).snapshot(R, at=main)
    assert exact.in_byoyomi
    assert exact.main == 0
    after = red_moves(control, main + TICK).snapshot(R, at=main + TICK)
    assert after.in_byoyomi and after.main == 0
    byo = control.byoyomi
    assert byo is not None
    if byo.kind is ByoyomiKind.CANADIAN:
        assert (before.period_left, before.moves_to_go) == (0, None)
        # the move that used the main time is the first of the period's moves
        assert (exact.period_left, exact.moves_to_go) == (100, 2)
        assert after.period_left == pytest.approx(100 - TICK) and after.moves_to_go == 2
    else:
        # a move inside the first period costs no period
        assert before.periods == exact.periods == after.periods == byo.periods


@pytest.mark.parametrize("control", [JAPANESE, CHINESE, CANADIAN], ids=["japanese", "chinese", "canadian"])
def test_running_clock_shows_byoyomi_from_exactly_zero_main_time(control: SideTimeControl) -> None:
    main = control.stages[0].seconds
    clock = started(control)
    assert not clock.snapshot(R, at=main - TICK).in_byoyomi
    assert clock.snapshot(R, at=main).in_byoyomi
    assert clock.snapshot(R, at=main + TICK).in_byoyomi


# ------------------------------------------- Japanese and Chinese periods
@pytest.mark.parametrize(("control", "main", "period", "periods"),
                         [(JAPANESE, 60, 30, 3), (CHINESE, 10, 60, 2)], ids=["japanese", "chinese"])
def test_each_period_is_lost_when_used_up_exactly(control: SideTimeControl, main: int,
                                                 period: int, periods: int) -> None:
    # on the move that enters byo-yomi
    for k in range(1, periods):
        end = main + k * period
        left = [red_moves(control, t).snapshot(R, at=t).periods for t in ticks_around(end)]
        assert left == [periods - k + 1, periods - k, periods - k], end
    # the end of the last period is the flag
    end = main + periods * period
    assert red_moves(control, end - TICK).snapshot(R, at=end).periods == 1
    for t in (end, end + TICK):
        clock = started(control)
        assert clock.deadline() == end
        assert clock.flagged(at=end - TICK) is None and clock.flagged(at=t) is R
        assert clock.press(at=t).flagged is FlagCause.TIME


@pytest.mark.parametrize(("control", "main", "period", "periods"),
                         [(JAPANESE, 60, 30, 3), (CHINESE, 10, 60, 2)], ids=["japanese", "chinese"])
def test_move_in_byoyomi_at_the_end_of_a_period(control: SideTimeControl, main: int,
                                               period: int, periods: int) -> None:
    for t in ticks_around(period):
        clock = red_moves(control, main)  # in byo-yomi with every period
        clock.press(at=main)  # Black
        start = main
        press = clock.press(at=start + t)
        assert press.flagged is None
        expected = periods if t < period else periods - 1
        assert clock.snapshot(R, at=start + t).periods == expected, t
    # with one period left its end is the flag
    start = main + (periods - 1) * period
    clock = red_moves(control, start)
    clock.press(at=start)  # Black
    assert clock.snapshot(R, at=start).periods == 1
    assert clock.remaining(R, at=start) == period
    assert clock.deadline() == start + period
    assert clock.flagged(at=start + period - TICK) is None
    assert clock.press(at=start + period - TICK).flagged is None
    assert clock.snapshot(R, at=start + period).periods == 1


def test_last_period_flag_on_the_move() -> None:
    for t, flagged in [(30 - TICK, None), (30, FlagCause.TIME), (30 + TICK, FlagCause.TIME)]:
        clock = red_moves(JAPANESE, 60 + 2 * 30)  # two periods used, one left
        clock.press(at=120)
        assert clock.snapshot(R, at=120).periods == 1
        assert clock.deadline() == pytest.approx(150)
        assert clock.press(at=120 + t).flagged is flagged, t


def test_chinese_calls_at_the_boundaries() -> None:
    """Go §3: calls happen at their instant, in the interval (since, until]."""
    clock = started(CHINESE)
    kinds = lambda a, b: [(c.kind, c.value) for c in clock.calls(a, b)]  # noqa: E731
    assert kinds(0, 10 - TICK) == []
    assert kinds(0, 10) == [("byoyomi", 2)]
    assert kinds(10, 10 + TICK) == []
    assert kinds(69.999, 70) == [("periods_left", 1)]
    assert kinds(70, 100 - TICK) == []  # the last minute is called from 30 s
    assert kinds(99.999, 100) == [("seconds", 30)]
    assert kinds(129.999, 130) == [("flag", 0)]
    assert clock.calls(129.999, 130)[0].text_zh == "10，超时判负"
    assert kinds(130, 130 + TICK) == []
    assert clock.flagged(at=130 - TICK) is None and clock.flagged(at=130) is R


# ------------------------------------------------------- Canadian periods
def test_canadian_period_end_one_tick_either_side() -> None:
    # Red enters byo-yomi with exactly the main time: 2 moves to go in 100 s.
    for t, flagged in [(100 - TICK, None), (100, FlagCause.TIME), (100 + TICK, FlagCause.TIME)]:
        clock = red_moves(CANADIAN, 10)
        clock.press(at=10)
        assert clock.deadline() is not None
        clock.press(at=10)  # Red's second move takes no time
        clock.press(at=10)
        assert clock.snapshot(R, at=10).moves_to_go == 1
        assert clock.deadline() == pytest.approx(110)
        assert clock.press(at=10 + t).flagged is flagged, t
        if flagged is None:
            # the third move renews the period
            snap = clock.snapshot(R, at=10 + t)
            assert (snap.period_left, snap.moves_to_go) == (100, 3)


def test_canadian_entering_byoyomi_flag_one_tick_either_side() -> None:
    # main 10 s + one period of 100 s: the flag falls at 110 s
    assert red_moves(CANADIAN, 110 - TICK).snapshot(R, at=110).period_left == pytest.approx(TICK)
    for t in (110, 110 + TICK):
        clock = started(CANADIAN)
        assert clock.deadline() == 110
        assert clock.flagged(at=110 - TICK) is None and clock.flagged(at=t) is R
        assert clock.press(at=t).flagged is FlagCause.TIME


def test_canadian_period_left_runs_out_between_moves() -> None:
    clock = red_moves(CANADIAN, 10)
    clock.press(at=10)
    clock.press(at=10 + 60)  # 40 s of the period left, one more move to go
    clock.press(at=70)
    snap = clock.snapshot(R, at=70)
    assert snap.period_left == pytest.approx(40) and snap.moves_to_go == 1
    assert clock.remaining(R, at=70) == pytest.approx(40)
    assert clock.flagged(at=110 - TICK) is None
    assert clock.flagged(at=110) is R


# ------------------------------------------------------------ penalties
@pytest.mark.parametrize("control", [SUDDEN_DEATH, JAPANESE, CANADIAN],
                         ids=["sudden_death", "japanese", "canadian"])
@pytest.mark.parametrize("running", [False, True], ids=["waiting_side", "side_on_move"])
def test_penalty_of_exactly_all_the_time_left_flags(control: SideTimeControl, running: bool) -> None:
    """23.3 / 21.3: a time penalty that uses up the time loses on time; one
    tick less does not."""
    side = R if running else B
    total = {SUDDEN_DEATH: 60, JAPANESE: 60 + 3 * 30, CANADIAN: 10 + 100}[control]
    for seconds, expected in [(total - TICK, None), (total, FlagCause.TIME),
                              (total + TICK, FlagCause.TIME)]:
        clock = started(control)
        assert clock.remaining(side, at=0) == total
        assert clock.charge(side, seconds, at=0) is expected, seconds
        if expected is None:
            # Japanese, between moves: the last period is not used up, and is
            # whole again for the next move
            left = 30 if control is JAPANESE and not running else TICK
            assert clock.remaining(side, at=0) == pytest.approx(left)
        else:
            assert clock.remaining(side, at=0) == 0


# ----------------------------------------------------- Canadian calls
def test_canadian_calls_from_main_time() -> None:
    """Canadian byo-yomi: the start is called with the moves to make, then
    the seconds left in the period (60, 30, 10, 5..1) and the flag."""
    clock = started(CANADIAN)
    calls = clock.calls(0, 200)
    assert [(c.at, c.kind, c.value) for c in calls] == [
        (10.0, "byoyomi", 3),
        (50.0, "seconds", 60), (80.0, "seconds", 30), (100.0, "seconds", 10),
        (105.0, "seconds", 5), (106.0, "seconds", 4), (107.0, "seconds", 3),
        (108.0, "seconds", 2), (109.0, "seconds", 1),
        (110.0, "flag", 0),
    ]
    assert calls[0].text_zh == "开始读秒，还剩3着" and calls[0].text_en == "byo-yomi begins: 3 moves left"
    assert calls[1].text_zh == "还剩60秒" and calls[1].text_en == "60 seconds left"
    assert calls[-1].text_zh == "超时判负"
    assert all(c.side is R for c in calls)
    # one tick either side of a call
    assert clock.calls(0, 50 - TICK)[-1].kind == "byoyomi"
    assert [c.value for c in clock.calls(50 - TICK, 50)] == [60]
    assert clock.calls(50, 80 - TICK) == []


def test_canadian_calls_inside_the_period_count_what_is_left() -> None:
    clock = red_moves(CANADIAN, 10)  # in byo-yomi: 100 s for 2 more moves
    clock.press(at=10)
    clock.press(at=70)  # 40 s left for the last move of the period
    clock.press(at=70)
    calls = [(c.at, c.kind, c.value) for c in clock.calls(70, 200)]
    # no start call (already in byo-yomi), no 60 s call (only 40 s left)
    assert calls == [(80.0, "seconds", 30), (100.0, "seconds", 10), (105.0, "seconds", 5),
                     (106.0, "seconds", 4), (107.0, "seconds", 3), (108.0, "seconds", 2),
                     (109.0, "seconds", 1), (110.0, "flag", 0)]
    assert clock.deadline() == 110
    # the period renews after the third move: the next calls count 100 s again
    clock.press(at=75)
    clock.press(at=75)
    renewed = [(c.at, c.kind, c.value) for c in clock.calls(75, 300)]
    assert renewed[0] == (115.0, "seconds", 60) and renewed[-1] == (175.0, "flag", 0)
