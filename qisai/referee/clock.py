"""Game clocks: stages, sudden death, increment, byo-yomi, per-move limits.

Rule text: Xiangqi clause 6 (schemes 6.1-6.5), 21 (late arrival), 22 (time
forfeit), the 2007 trial rules (time odds, Fischer increment), the local rule
of seed 000 (a limit per move), and the Go competition rules §3 (时限 and
读秒, Chinese byo-yomi with the arbiter's calls).

A :class:`Clock` never reads the wall clock by itself: every operation takes
the time ``at`` (seconds, any origin) or reads it from an injected
:data:`TimeSource`.  Tests drive a :class:`ManualTime`.  Internally time is
kept in whole milliseconds, so 59.999 s and 60 s are told apart exactly.

Example (scheme 6.1: 40 moves in 90 minutes, then 10 moves per 15 minutes)::

    >>> clock = Clock(TimeControl.both(scheme_6_1()))
    >>> clock.start(Side.FIRST, at=0)
    >>> clock.remaining(Side.FIRST, at=60)
    5340.0
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from qisai.referee.errors import ClockError, TimeControlError
from qisai.referee.verdict import Side

__all__ = [
    "Byoyomi",
    "ByoyomiKind",
    "Clock",
    "ClockCall",
    "ClockSnapshot",
    "FlagCause",
    "ManualTime",
    "Press",
    "SideTimeControl",
    "Stage",
    "TimeControl",
    "TimeSource",
    "chinese_byoyomi",
    "scheme_6_1",
    "scheme_6_2",
    "scheme_6_3",
    "scheme_6_4",
    "scheme_6_5",
]

TimeSource = Callable[[], float]
"""A function returning the current time in seconds (e.g. ``time.monotonic``)."""


class ManualTime:
    """A time source that moves only when told to: for tests and replays.

    >>> t = ManualTime(10.0)
    >>> t.advance(2.5); t()
    12.5
    """

    def __init__(self, start: float = 0.0) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        """Return the current time in seconds."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the time forward.  Raises :class:`ClockError` if ``seconds`` < 0."""
        if seconds < 0:
            raise ClockError(f"time cannot go back ({seconds} s)")
        self.now += seconds

    def set(self, at: float) -> None:
        """Set the time.  Raises :class:`ClockError` if it would go back."""
        if at < self.now:
            raise ClockError(f"time cannot go back from {self.now} to {at}")
        self.now = float(at)


def to_ms(seconds: float) -> int:
    """Return ``seconds`` as whole milliseconds (rounded to nearest)."""
    return int(round(seconds * 1000))


# ---------------------------------------------------------------- settings
@dataclass(frozen=True)
class Stage:
    """One period of main time: ``moves`` moves in ``seconds``.

    ``moves=None`` means the rest of the game (sudden death, 6.5).  Unused
    time carries over into the next stage (6.1: after move 40 another 15
    minutes are added to what is left).
    """

    moves: int | None
    seconds: float


class ByoyomiKind(enum.Enum):
    """Overtime after the main time is used up."""

    JAPANESE = "japanese"
    """``periods`` periods of ``period_seconds``; a move inside a period
    costs nothing, each period used up is lost; the last one lost loses."""
    CHINESE = "chinese"
    """Go §3 读秒: a reserve of ``periods`` minutes, spent one whole minute at
    a time (a move under a minute costs nothing, each full minute deducts
    one); calls at 30, 40, 50, 55, 58 s; the last minute counted second by
    second, "10，超时判负"."""
    CANADIAN = "canadian"
    """``moves`` moves in ``period_seconds``; the period renews after them."""


@dataclass(frozen=True)
class Byoyomi:
    """Overtime settings; see :class:`ByoyomiKind` for the meaning."""

    kind: ByoyomiKind
    periods: int = 1
    period_seconds: float = 60.0
    moves: int = 1


def chinese_byoyomi(minutes: int = 5) -> Byoyomi:
    """Return Chinese byo-yomi with a reserve of ``minutes`` minutes (Go §3:
    5 in national events, 1 allowed locally)."""
    return Byoyomi(ByoyomiKind.CHINESE, periods=minutes, period_seconds=60.0)


@dataclass(frozen=True)
class SideTimeControl:
    """The time control of one side.

    * ``stages``: main time, in order; the last stage repeats if
      ``repeat_last`` (6.1-6.4), otherwise it must be sudden death
      (``moves=None``) unless byo-yomi follows.
    * ``increment``: Fischer seconds added after every move made in main time
      (2007 trial rules: 30 s).
    * ``byoyomi``: overtime after the main time (Go §3).
    * ``move_limit``: the most seconds one move may take (seed 000, local
      rule 2: "每方走一着棋的时间不得超过…秒，如有一着棋超过时间，判负").
    """

    stages: tuple[Stage, ...]
    repeat_last: bool = False
    increment: float = 0.0
    byoyomi: Byoyomi | None = None
    move_limit: float | None = None

    def __post_init__(self) -> None:
        if not self.stages:
            raise TimeControlError("a time control needs at least one stage of main time")
        for i, stage in enumerate(self.stages):
            if stage.seconds < 0:
                raise TimeControlError(f"stage {i + 1}: negative time {stage.seconds}")
            if stage.moves is not None and stage.moves < 1:
                raise TimeControlError(f"stage {i + 1}: moves must be at least 1, not {stage.moves}")
            if stage.moves is None and i != len(self.stages) - 1:
                raise TimeControlError(f"stage {i + 1}: only the last stage may be sudden death")
        last = self.stages[-1]
        if last.moves is not None and not self.repeat_last and self.byoyomi is None:
            raise TimeControlError(
                "the last stage has a move count: set repeat_last, make it sudden death "
                "(moves=None) or add byo-yomi")
        if self.repeat_last and last.moves is None:
            raise TimeControlError("repeat_last needs a last stage with a move count")
        if self.repeat_last and last.seconds <= 0:
            raise TimeControlError("a repeating stage needs a positive time")
        if self.increment < 0:
            raise TimeControlError(f"negative increment {self.increment}")
        if self.move_limit is not None and self.move_limit <= 0:
            raise TimeControlError(f"move limit must be positive, not {self.move_limit}")
        b = self.byoyomi
        if b is not None:
            if b.periods < 1 or b.period_seconds <= 0 or b.moves < 1:
                raise TimeControlError(f"byo-yomi needs positive periods, time and moves: {b}")
            if b.kind is ByoyomiKind.CHINESE and b.period_seconds != 60:
                raise TimeControlError("Chinese byo-yomi is counted in whole minutes (60 s)")


@dataclass(frozen=True)
class TimeControl:
    """The time controls of both sides (they may differ: the 2007 time odds)."""

    first: SideTimeControl
    second: SideTimeControl

    @classmethod
    def both(cls, control: SideTimeControl) -> TimeControl:
        """Return the same control for both sides."""
        return cls(control, control)

    def of(self, side: Side) -> SideTimeControl:
        """Return the control of ``side``."""
        return self.first if side is Side.FIRST else self.second


def scheme_6_1() -> SideTimeControl:
    """6.1: 40 moves in 90 minutes, then 10 moves in every 15 minutes."""
    return SideTimeControl((Stage(40, 5400), Stage(10, 900)), repeat_last=True)


def scheme_6_2() -> SideTimeControl:
    """6.2: 30 moves in 60 minutes, then 10 moves in every 10 minutes."""
    return SideTimeControl((Stage(30, 3600), Stage(10, 600)), repeat_last=True)


def scheme_6_3() -> SideTimeControl:
    """6.3 (rapid): 40 moves in 10 minutes, then 30 moves in every 5 minutes."""
    return SideTimeControl((Stage(40, 600), Stage(30, 300)), repeat_last=True)


def scheme_6_4() -> SideTimeControl:
    """6.4 (rapid): 30 moves in every 5 minutes."""
    return SideTimeControl((Stage(30, 300),), repeat_last=True)


def scheme_6_5(minutes: float) -> SideTimeControl:
    """6.5: ``minutes`` for the whole game, no move count (包干)."""
    return SideTimeControl((Stage(None, minutes * 60),))


# ------------------------------------------------------------------- state
class FlagCause(enum.Enum):
    """Why a flag fell."""

    TIME = "time"
    """Main time (and overtime) used up (22.1, 4.1.4)."""
    MOVE_LIMIT = "move_limit"
    """One move took longer than the per-move limit (seed 000, local rule 2)."""


@dataclass(frozen=True)
class ClockCall:
    """Something the arbiter (or a speaking clock) announces.

    ``kind`` is one of ``"byoyomi"`` (overtime begins), ``"seconds"`` (``value``
    seconds of the current period used), ``"count"`` (the last-minute count
    1..9), ``"periods_left"`` (``value`` periods or minutes left),
    ``"flag"`` (time is up).
    """

    side: Side
    at: float
    kind: str
    value: int
    text_zh: str
    text_en: str


@dataclass(frozen=True)
class ClockSnapshot:
    """The state of one side's clock at an instant."""

    side: Side
    main: float
    """Main time left, seconds."""
    periods: int
    """Byo-yomi periods (Chinese: minutes) left; 0 without byo-yomi."""
    period_left: float
    """Canadian: time left in the current period; otherwise 0."""
    moves_to_go: int | None
    """Moves still to make in the current stage, or in the Canadian period."""
    in_byoyomi: bool
    moves: int
    """Moves this side has completed."""
    running: bool


@dataclass(frozen=True)
class Press:
    """The outcome of ending a move on the clock."""

    side: Side
    elapsed: float
    """Seconds the move took (pauses excluded)."""
    flagged: FlagCause | None
    """Set when the time ran out before the move was completed."""


@dataclass
class _SideState:
    control: SideTimeControl
    main_ms: int
    stage: int = 0
    stage_moves: int = 0
    moves: int = 0
    periods: int = 0
    period_ms: int = 0
    canadian_moves: int = 0
    in_byoyomi: bool = False
    flagged: FlagCause | None = None

    def copy(self) -> _SideState:
        # Spelled out: dataclasses.replace inspects the fields on every call,
        # and a state is copied at the start of every move.
        return _SideState(self.control, self.main_ms, self.stage, self.stage_moves, self.moves,
                          self.periods, self.period_ms, self.canadian_moves, self.in_byoyomi,
                          self.flagged)


def _allowance_ms(s: _SideState) -> int:
    """Return how long the side can think on this move before its flag falls
    (from the start of the move, ignoring the per-move limit)."""
    b = s.control.byoyomi
    if b is None:
        return s.main_ms
    if not s.in_byoyomi:
        # Entering overtime during this move: the overtime starts afresh.
        if b.kind is ByoyomiKind.CANADIAN:
            return s.main_ms + to_ms(b.period_seconds)
        return s.main_ms + s.periods * to_ms(b.period_seconds)
    if b.kind is ByoyomiKind.CANADIAN:
        return s.period_ms
    return s.periods * to_ms(b.period_seconds)


def _consume(s: _SideState, elapsed_ms: int, *, completes_move: bool) -> FlagCause | None:
    """Charge ``elapsed_ms`` to ``s`` (mutated).  Returns the flag cause if
    the time runs out, else ``None``.  ``completes_move`` applies the
    end-of-move bookkeeping (byo-yomi period renewal, stages, increment)."""
    b = s.control.byoyomi
    if elapsed_ms < 0:
        raise ClockError(f"negative elapsed time {elapsed_ms} ms")
    was_main = not s.in_byoyomi
    if elapsed_ms >= _allowance_ms(s):
        # 22.1: the time (and any overtime) is used up; the flag has fallen.
        s.main_ms = 0
        if b is not None:
            s.in_byoyomi = True
            s.periods = 0
            s.period_ms = 0
        return FlagCause.TIME
    if not s.in_byoyomi:
        if elapsed_ms < s.main_ms or b is None:
            s.main_ms -= elapsed_ms
            over = 0
        else:
            over = elapsed_ms - s.main_ms
            s.main_ms = 0
            s.in_byoyomi = True
            if b.kind is ByoyomiKind.CANADIAN:
                s.period_ms = to_ms(b.period_seconds)
                s.canadian_moves = b.moves
    else:
        over = elapsed_ms
    if s.in_byoyomi and b is not None:
        if b.kind is ByoyomiKind.CANADIAN:
            s.period_ms -= over
            if completes_move:
                s.canadian_moves -= 1
                if s.canadian_moves <= 0:
                    s.period_ms = to_ms(b.period_seconds)
                    s.canadian_moves = b.moves
        else:
            # Go §3: each full period (minute) used is deducted; a move
            # inside a period costs nothing.  Outside a move (a penalty) the
            # same counting applies.
            s.periods -= over // to_ms(b.period_seconds)
    if completes_move:
        s.moves += 1
        if was_main and not s.in_byoyomi:
            s.main_ms += to_ms(s.control.increment)
        _advance_stage(s)
    return None


def _advance_stage(s: _SideState) -> None:
    stages = s.control.stages
    stage = stages[s.stage]
    if stage.moves is None:
        return
    s.stage_moves += 1
    if s.stage_moves < stage.moves:
        return
    # 6.1-6.4: the stage's moves are made; the next stage's time is added.
    s.stage_moves = 0
    if s.stage + 1 < len(stages):
        s.stage += 1
    elif not s.control.repeat_last:
        return
    add = to_ms(stages[s.stage].seconds)
    if s.in_byoyomi:
        # Back from overtime into a new main-time stage.
        s.in_byoyomi = False
        s.main_ms = add
    else:
        s.main_ms += add


def _initial_state(control: SideTimeControl) -> _SideState:
    s = _SideState(control=control, main_ms=to_ms(control.stages[0].seconds))
    if control.byoyomi is not None and control.byoyomi.kind is not ByoyomiKind.CANADIAN:
        s.periods = control.byoyomi.periods
    return s


class Clock:
    """A two-faced game clock.

    At most one side's clock runs.  :meth:`start` starts a side, :meth:`press`
    ends the running side's move and starts the other's, :meth:`pause` and
    :meth:`resume` stop both (暂停时间不计入对局时限), :meth:`stop` ends the
    game.  :meth:`deadline` is the instant the running side's flag falls if
    it does not move; :meth:`calls` lists the announcements between two
    instants.

    Every method takes ``at`` in seconds; ``None`` reads the injected time
    source.  Raises :class:`ClockError` when ``at`` is earlier than the last
    operation or the operation does not fit the state.
    """

    def __init__(self, control: TimeControl, now: TimeSource | None = None) -> None:
        self.control = control
        self._now = now
        self._state = {side: _initial_state(control.of(side)) for side in Side}
        self._running: Side | None = None
        self._paused: Side | None = None
        self._segment_start = 0  # ms, when the running side's current segment began
        self._spent = 0  # ms spent on the current move before the segment
        self._move_start_state: _SideState | None = None
        self._last = -(2**62)
        self._stopped = False

    # ------------------------------------------------------------ helpers
    def _at(self, at: float | None) -> int:
        if at is None:
            if self._now is None:
                raise ClockError("no time given and the clock has no time source")
            at = self._now()
        ms = to_ms(at)
        if ms < self._last:
            raise ClockError(f"time {at} s is earlier than the last clock operation "
                             f"({self._last / 1000} s)")
        self._last = ms
        return ms

    def _elapsed_ms(self, at_ms: int) -> int:
        return self._spent + max(0, at_ms - self._segment_start)

    def _limit_ms(self, side: Side) -> int | None:
        limit = self.control.of(side).move_limit
        return None if limit is None else to_ms(limit)

    def _move_allowance_ms(self, side: Side) -> int:
        base = self._move_start_state or self._state[side]
        allowance = _allowance_ms(base)
        limit = self._limit_ms(side)
        if limit is not None:
            allowance = min(allowance, limit)
        return allowance

    # ------------------------------------------------------------- queries
    @property
    def running(self) -> Side | None:
        """Return the side whose clock runs (``None`` if stopped or paused)."""
        return self._running

    @property
    def paused(self) -> bool:
        """Return whether the clock is paused."""
        return self._paused is not None

    def deadline(self) -> float | None:
        """Return the instant (s) the running side's flag falls if it does not
        move, or ``None`` if no clock runs."""
        side = self._running
        if side is None:
            return None
        remaining = self._move_allowance_ms(side) - self._spent
        return (self._segment_start + remaining) / 1000

    def flag_cause(self, side: Side) -> FlagCause:
        """Return why ``side``'s flag would fall on this move: the per-move
        limit if it comes before the time."""
        on_move = self._running is side or self._paused is side
        base = (self._move_start_state if on_move else None) or self._state[side]
        limit = self._limit_ms(side)
        if limit is not None and limit < _allowance_ms(base):
            return FlagCause.MOVE_LIMIT
        return FlagCause.TIME

    def snapshot(self, side: Side, at: float | None = None) -> ClockSnapshot:
        """Return ``side``'s clock as it reads at ``at`` (the running side's
        current move is charged as if it ended then, without a move made)."""
        at_ms = self._at(at)
        s = self._state[side]
        running = self._running is side
        elapsed = self._current_elapsed(side, at_ms)
        if elapsed is not None:
            s = s.copy()
            _consume(s, min(elapsed, max(0, _allowance_ms(s))), completes_move=False)
        stage = s.control.stages[s.stage]
        if s.in_byoyomi and s.control.byoyomi and s.control.byoyomi.kind is ByoyomiKind.CANADIAN:
            to_go: int | None = s.canadian_moves
        else:
            to_go = None if stage.moves is None else stage.moves - s.stage_moves
        return ClockSnapshot(side, s.main_ms / 1000, s.periods, s.period_ms / 1000, to_go,
                             s.in_byoyomi, s.moves, running)

    def remaining(self, side: Side, at: float | None = None) -> float:
        """Return the seconds ``side`` may still use before its flag falls
        (main time plus overtime, as if a move started now)."""
        at_ms = self._at(at)
        elapsed = self._current_elapsed(side, at_ms)
        if elapsed is not None:
            return max(0, self._move_allowance_ms(side) - elapsed) / 1000
        return _allowance_ms(self._state[side]) / 1000

    def _current_elapsed(self, side: Side, at_ms: int) -> int | None:
        """Return the time ``side`` has spent on its current move (running or
        paused), or ``None`` if it is not on move."""
        if self._running is side:
            return self._elapsed_ms(at_ms)
        if self._paused is side:
            return self._spent
        return None

    def moves(self, side: Side) -> int:
        """Return the number of moves ``side`` has completed on this clock."""
        return self._state[side].moves

    # ------------------------------------------------------------ actions
    def start(self, side: Side, at: float | None = None) -> None:
        """Start ``side``'s clock (game start, or after an adjournment).

        Raises :class:`ClockError` if a clock already runs or the game's
        clock was stopped.
        """
        at_ms = self._at(at)
        if self._stopped:
            raise ClockError("the clock was stopped at the end of the game")
        if self._running is not None or self._paused is not None:
            raise ClockError(f"cannot start {side.name}: a clock already runs or is paused")
        self._begin(side, at_ms)

    def _begin(self, side: Side, at_ms: int) -> None:
        self._running = side
        self._segment_start = at_ms
        self._spent = 0
        self._move_start_state = self._state[side].copy()

    def press(self, at: float | None = None) -> Press:
        """End the running side's move at ``at`` and start the other side.

        Returns a :class:`Press`; if the time had run out, ``flagged`` is set,
        the move counts for nothing and the clock stops.  Raises
        :class:`ClockError` if no clock runs.
        """
        at_ms = self._at(at)
        side = self._running
        if side is None:
            raise ClockError("press: no clock is running")
        elapsed = self._elapsed_ms(at_ms)
        flag = self._flag_for(side, elapsed)
        if flag is not None:
            self._state[side].flagged = flag
            self._running = None
            self._stopped = True
            return Press(side, elapsed / 1000, flag)
        result = _consume(self._state[side], elapsed, completes_move=True)
        assert result is None
        self._begin(side.other, at_ms)
        return Press(side, elapsed / 1000, None)

    def _flag_for(self, side: Side, elapsed_ms: int) -> FlagCause | None:
        if elapsed_ms >= self._move_allowance_ms(side):
            return self.flag_cause(side)
        return None

    def flagged(self, at: float | None = None) -> Side | None:
        """Return the running side if its flag has fallen by ``at``."""
        at_ms = self._at(at)
        side = self._running
        if side is None:
            return None
        return side if self._elapsed_ms(at_ms) >= self._move_allowance_ms(side) else None

    def pause(self, at: float | None = None) -> None:
        """Stop both clocks (暂停); the running side's move time is kept.

        Raises :class:`ClockError` if nothing runs.
        """
        at_ms = self._at(at)
        if self._running is None:
            raise ClockError("pause: no clock is running")
        self._spent = self._elapsed_ms(at_ms)
        self._paused = self._running
        self._running = None

    def resume(self, at: float | None = None) -> None:
        """Restart the clock stopped by :meth:`pause`.

        Raises :class:`ClockError` if the clock is not paused.
        """
        at_ms = self._at(at)
        if self._paused is None:
            raise ClockError("resume: the clock is not paused")
        self._running = self._paused
        self._paused = None
        self._segment_start = at_ms

    def stop(self, at: float | None = None) -> None:
        """Stop the clock for good at the end of the game; the running move's
        time is charged (without completing a move)."""
        at_ms = self._at(at)
        side = self._running or self._paused
        if side is not None:
            elapsed = self._elapsed_ms(at_ms) if self._running else self._spent
            elapsed = min(elapsed, self._move_allowance_ms(side))
            s = self._state[side]
            flag = _consume(s, elapsed, completes_move=False)
            if flag is not None:
                s.flagged = flag
        self._running = None
        self._paused = None
        self._stopped = True

    def charge(self, side: Side, seconds: float, at: float | None = None) -> FlagCause | None:
        """Deduct ``seconds`` from ``side``'s time (23.3: a false claim costs 5
        minutes; 21.3: late time; an arbiter's time penalty).

        For the running side the time is added to the current move.  Returns
        the flag cause if this uses up the side's time (the caller rules the
        loss), else ``None``.  Raises :class:`ClockError` if ``seconds`` < 0.
        """
        at_ms = self._at(at)
        if seconds < 0:
            raise ClockError(f"cannot charge negative time ({seconds} s)")
        ms = to_ms(seconds)
        if self._running is side or self._paused is side:
            self._spent += ms
            elapsed = self._elapsed_ms(at_ms) if self._running is side else self._spent
            return FlagCause.TIME if elapsed >= self._move_allowance_ms(side) else None
        flag = _consume(self._state[side], ms, completes_move=False)
        if flag is not None:
            self._state[side].flagged = flag
        return flag

    # ------------------------------------------------------------- calls
    def calls(self, since: float, until: float) -> list[ClockCall]:
        """Return the announcements (读秒) for the running side in the time
        interval ``(since, until]``, in order.

        Only overtime is called: the start of byo-yomi, then per the kind
        (Chinese: 30, 40, 50, 55, 58 s of each minute and "还剩X分钟", the last
        minute 30, 40, 50 s then 1..9 and "10，超时判负").
        """
        side = self._running
        if side is None:
            return []
        base = self._move_start_state or self._state[side]
        b = base.control.byoyomi
        if b is None:
            return []
        lo = to_ms(since) - self._segment_start + self._spent
        hi = to_ms(until) - self._segment_start + self._spent
        out = []
        for offset, kind, value, zh, en in _schedule(base, b, self._move_allowance_ms(side)):
            if lo < offset <= hi:
                at = (self._segment_start + offset - self._spent) / 1000
                out.append(ClockCall(side, at, kind, value, zh, en))
        return out


def _schedule(s: _SideState, b: Byoyomi, allowance: int) -> list[tuple[int, str, int, str, str]]:
    """Return (offset ms from the move start, kind, value, zh, en) for the
    calls of one move that starts in state ``s``."""
    out: list[tuple[int, str, int, str, str]] = []
    start = 0 if s.in_byoyomi else s.main_ms
    period = to_ms(b.period_seconds)
    if not s.in_byoyomi:
        n = b.periods if b.kind is not ByoyomiKind.CANADIAN else b.moves
        out.append((start, "byoyomi", n, f"开始读秒，还剩{n}{_unit_zh(b)}",
                    f"byo-yomi begins: {n} {_unit_en(b)} left"))
    if b.kind is ByoyomiKind.CANADIAN:
        left = s.period_ms if s.in_byoyomi else period
        for mark in (60, 30, 10, 5, 4, 3, 2, 1):
            off = start + left - mark * 1000
            if off > start:
                out.append((off, "seconds", mark, f"还剩{mark}秒", f"{mark} seconds left"))
    else:
        periods = s.periods
        for i in range(periods):
            base = start + i * period
            last = i == periods - 1
            if b.kind is ByoyomiKind.CHINESE:
                marks = (30, 40, 50) if last else (30, 40, 50, 55, 58)
                for m in marks:
                    out.append((base + m * 1000, "seconds", m, f"{m}秒", f"{m} seconds"))
                if last:
                    for k in range(1, 10):
                        out.append((base + (50 + k) * 1000, "count", k, str(k), str(k)))
            else:
                for m in range(10, int(b.period_seconds), 10):
                    out.append((base + m * 1000, "seconds", m, f"{m}秒", f"{m} seconds"))
                if last:
                    for k in range(1, 10):
                        off = base + period - (10 - k) * 1000
                        if off > base:
                            out.append((off, "count", k, str(k), str(k)))
            if not last:
                left = periods - i - 1
                out.append((base + period, "periods_left", left, f"还剩{left}{_unit_zh(b)}",
                            f"{left} {_unit_en(b)} left"))
    out = [c for c in out if c[0] < allowance]
    out.append((allowance, "flag", 0, "10，超时判负" if b.kind is ByoyomiKind.CHINESE else "超时判负",
                "time is up: lost on time"))
    out.sort(key=lambda c: c[0])
    return out


def _unit_zh(b: Byoyomi) -> str:
    return "分钟" if b.kind is ByoyomiKind.CHINESE else ("次" if b.kind is ByoyomiKind.JAPANESE else "着")


def _unit_en(b: Byoyomi) -> str:
    return {"chinese": "minutes", "japanese": "periods", "canadian": "moves"}[b.kind.value]
