"""Game: one game under one rule profile, driven by timestamped events.

The base class :class:`Game` holds what both games share: the event log, the
clocks, presence and late arrival (21), draw offers (23.1), resignation,
fouls and warnings, arbiter decisions, pause and adjournment (封棋), the
result, and notices for listeners.  :class:`qisai.referee.xiangqi_game.XiangqiGame`
and :class:`qisai.referee.go_game.GoGame` add the rules of play.

Every public action takes an optional ``at`` (seconds); without it the game
reads its injected time source.  Each action appends an :class:`Event` to
:attr:`Game.events` when it is accepted, so :meth:`Game.replay` rebuilds the
same game from the log.  An action that cannot be applied raises an
:class:`~qisai.referee.errors.EventError` and leaves the game as it was,
except that a time-based ending that happened before it (a flag fall, a late
arrival beyond the limit) is recorded first.
"""

from __future__ import annotations

import enum
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from qisai.referee.clock import Clock, ClockSnapshot, FlagCause, TimeSource, to_ms
from qisai.referee.errors import EventError, GameOverError, NotYourTurnError
from qisai.referee.events import ClaimKind, Event, EventType, Notice, NoticeType
from qisai.referee.rulesets import GoRules, XiangqiRules
from qisai.referee.verdict import GameKind, Outcome, Reason, Result, Side

__all__ = ["Game", "Infraction", "MoveRecord", "Phase"]

Listener = Callable[[Notice], None]
Handler = Callable[["Game", Event], None]
"""Applies one event to a game (an entry of :attr:`Game._HANDLERS`)."""


class Phase(enum.Enum):
    """Where the game stands."""

    WAITING = "waiting"
    """Not started."""
    PLAYING = "playing"
    PAUSED = "paused"
    ADJOURNED = "adjourned"
    """封棋: a move is sealed; the clocks stop until :meth:`Game.resume`."""
    SCORING = "scoring"
    """Go: both passed; dead stones are being agreed."""
    OVER = "over"


@dataclass(frozen=True)
class Infraction:
    """A foul (犯规) or a warning (警告) recorded against a side."""

    kind: str
    """``"foul"`` or ``"warning"``."""
    side: Side
    at: float
    clause: str
    note: str


@dataclass(frozen=True)
class MoveRecord:
    """One move (or Go pass) of the record, with its timing.

    ``elapsed`` is the thinking time (s); ``clock`` is the mover's clock after
    the move (``None`` without clocks).  ``gave_check`` / ``capture`` are
    Xiangqi facts used by the natural-limit count (23.3); ``void`` marks a Go
    move that was invalid and counted as a pass.
    """

    ply: int
    side: Side
    move: str
    at: float
    elapsed: float
    clock: ClockSnapshot | None
    gave_check: bool = False
    capture: bool = False
    void: bool = False


@dataclass
class _Offer:
    by: Side
    at: float


@dataclass
class _Presence:
    absent: set[Side] = field(default_factory=set)
    first_clock_start: dict[Side, float] = field(default_factory=dict)
    both_late: bool = False


class Game(ABC):
    """One game under one rule profile.

    Subclasses supply the rules of play; this class enforces the competition
    rules both games share.  Attributes: ``rules``, ``phase``, ``result``,
    ``events`` (the accepted event log), ``notices`` (everything emitted),
    ``moves`` (:class:`MoveRecord` list), ``infractions``, ``clock``.
    """

    kind: ClassVar[GameKind]
    CLAUSES: ClassVar[dict[str, str]]
    """Clause texts per situation key, per game."""

    def __init__(self, rules: XiangqiRules | GoRules, now: TimeSource | None = None) -> None:
        self.rules = rules
        self._now = now
        self.phase = Phase.WAITING
        self.result: Result | None = None
        self.events: list[Event] = []
        self.notices: list[Notice] = []
        self.moves: list[MoveRecord] = []
        self.infractions: list[Infraction] = []
        self.clock: Clock | None = Clock(rules.time_control) if rules.time_control else None
        self.start_time: float | None = None
        self.ended_at: float | None = None
        self._listeners: list[Listener] = []
        self._last_at = float("-inf")
        self._calls_since = float("-inf")
        self._presence = _Presence()
        self._offer: _Offer | None = None
        self._previous_offer_by: Side | None = None
        self._last_mover: Side | None = None
        self._sealed: tuple[Side, str] | None = None
        self._out: list[Notice] = []

    # --------------------------------------------------------------- queries
    @property
    @abstractmethod
    def to_move(self) -> Side:
        """Return the side to move."""

    def fouls(self, side: Side) -> int:
        """Return the number of fouls recorded against ``side``."""
        return sum(1 for i in self.infractions if i.side is side and i.kind == "foul")

    def warnings(self, side: Side) -> int:
        """Return the number of warnings recorded against ``side``."""
        return sum(1 for i in self.infractions if i.side is side and i.kind == "warning")

    @property
    def pending_offer(self) -> Side | None:
        """Return the side whose draw offer awaits an answer, or ``None``."""
        return self._offer.by if self._offer else None

    @property
    def absent(self) -> frozenset[Side]:
        """Return the sides not (yet) at the board."""
        return frozenset(self._presence.absent)

    @property
    def last_event_at(self) -> float | None:
        """Return the time of the last event applied (``None`` before any):
        how long a game has been left alone (the Go count's time limit)."""
        return None if self._last_at == float("-inf") else self._last_at

    @property
    def is_over(self) -> bool:
        """Return whether the game has ended."""
        return self.phase is Phase.OVER

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every future :class:`Notice`."""
        self._listeners.append(listener)

    # -------------------------------------------------------------- driving
    def _time(self, at: float | None) -> float:
        if at is not None:
            return float(at)
        if self._now is None:
            raise EventError("no time given and the game has no time source")
        return float(self._now())

    def apply(self, event: Event) -> list[Notice]:
        """Apply ``event`` and return the notices it caused.

        Raises :class:`EventError` (or a subclass) if the event does not fit
        the game: the game is unchanged except for a time-based ending before
        the event, which is kept (and logged as a ``TICK``).
        """
        out: list[Notice] = []
        self._out = out
        try:
            if not math.isfinite(event.at):
                raise EventError(f"{event.type.value}: the time {event.at} is not a finite number")
            if event.at < self._last_at:
                raise EventError(f"{event.type.value} at {event.at} s is earlier than the previous "
                                 f"event ({self._last_at} s)")
            self._last_at = event.at
            ended = self._advance(event.at)
            if event.type in (EventType.TICK, EventType.FLAG):
                if event.type is EventType.FLAG and not ended:
                    if self.phase is Phase.OVER:
                        raise GameOverError(self._over_message())
                    raise EventError(f"flag at {event.at} s: no flag has fallen")
                return out
            if self.phase is Phase.OVER:
                raise GameOverError(self._over_message())
            self._dispatch(event)
            self.events.append(event)
            return out
        finally:
            self.notices.extend(out)
            for notice in out:
                for listener in self._listeners:
                    listener(notice)
            self._out = []

    def _over_message(self) -> str:
        assert self.result is not None
        return (f"the game is over ({self.result.reason.value}, {self.result.pgn_result}): "
                f"{self.result.explanation_en}")

    _HANDLERS: ClassVar[dict[EventType, Handler]] = {
        EventType.START: lambda g, e: g._on_start(e),
        EventType.ARRIVE: lambda g, e: g._on_arrive(e),
        EventType.MOVE: lambda g, e: g._on_move_event(e),
        EventType.PASS: lambda g, e: g._on_pass_event(e),
        EventType.OFFER_DRAW: lambda g, e: g._on_offer(e),
        EventType.ACCEPT_DRAW: lambda g, e: g._on_accept(e),
        EventType.DECLINE_DRAW: lambda g, e: g._on_decline(e),
        EventType.RESIGN: lambda g, e: g._on_resign(e),
        EventType.CLAIM: lambda g, e: g._on_claim(e),
        EventType.PAUSE: lambda g, e: g._on_pause(e),
        EventType.RESUME: lambda g, e: g._on_resume(e),
        EventType.ADJOURN: lambda g, e: g._on_adjourn(e),
        EventType.FOUL: lambda g, e: g._on_arbiter_foul(e),
        EventType.WARNING: lambda g, e: g._on_arbiter_warning(e),
        EventType.TIME_PENALTY: lambda g, e: g._on_time_penalty(e),
        EventType.ADJUDICATE: lambda g, e: g._on_adjudicate(e),
        EventType.MARK_DEAD: lambda g, e: g._on_mark_dead(e),
        EventType.CONFIRM_DEAD: lambda g, e: g._on_confirm_dead(e),
        EventType.DISPUTE_DEAD: lambda g, e: g._on_dispute_dead(e),
    }
    """The handler of each event type: a table built once (a match applies an
    event for every move) whose entries call the method by name on the game,
    so that a subclass's own handler (Xiangqi's move, Go's pass) is the one
    called, and mypy checks every entry."""

    def _dispatch(self, event: Event) -> None:
        self._HANDLERS[event.type](self, event)

    # Convenience wrappers -------------------------------------------------
    def start(self, at: float | None = None, absent: Iterable[Side] = ()) -> list[Notice]:
        """Start the game; ``absent`` players are late (21).  See :meth:`apply`."""
        return self.apply(Event(EventType.START, self._time(at), absent=tuple(absent)))

    def arrive(self, side: Side, at: float | None = None) -> list[Notice]:
        """A late player arrives (21.2, 21.3).  See :meth:`apply`."""
        return self.apply(Event(EventType.ARRIVE, self._time(at), side))

    def move(self, side: Side, move: str, at: float | None = None) -> list[Notice]:
        """``side`` plays ``move``.  See :meth:`apply`."""
        return self.apply(Event(EventType.MOVE, self._time(at), side, move=move))

    def offer_draw(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` offers a draw right after its move (23.1).  See :meth:`apply`."""
        return self.apply(Event(EventType.OFFER_DRAW, self._time(at), side))

    def accept_draw(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` accepts the pending offer (4.2.2).  See :meth:`apply`."""
        return self.apply(Event(EventType.ACCEPT_DRAW, self._time(at), side))

    def decline_draw(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` declines the pending offer (23.1).  See :meth:`apply`."""
        return self.apply(Event(EventType.DECLINE_DRAW, self._time(at), side))

    def resign(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` resigns (4.1.9; Go 4(2)).  See :meth:`apply`."""
        return self.apply(Event(EventType.RESIGN, self._time(at), side))

    def claim(self, side: Side, kind: ClaimKind, at: float | None = None) -> list[Notice]:
        """``side`` claims a draw (23.3) or a repetition ruling (24).  See :meth:`apply`."""
        return self.apply(Event(EventType.CLAIM, self._time(at), side, claim=kind))

    def tick(self, at: float | None = None) -> list[Notice]:
        """Let time pass: emits clock calls and rules flag falls and late
        arrivals beyond the limit.  Never raises for a finished game."""
        return self.apply(Event(EventType.TICK, self._time(at)))

    def flag(self, at: float | None = None) -> list[Notice]:
        """Report a flag fall; raises :class:`EventError` if no flag has
        fallen, :class:`GameOverError` if the game had already ended (22.5)."""
        return self.apply(Event(EventType.FLAG, self._time(at)))

    def pause(self, at: float | None = None, note: str = "") -> list[Notice]:
        """Stop the clocks (a pause ordered by the arbiter).  See :meth:`apply`."""
        return self.apply(Event(EventType.PAUSE, self._time(at), note=note))

    def resume(self, at: float | None = None) -> list[Notice]:
        """Restart after a pause, or after an adjournment (the sealed move is
        played first).  See :meth:`apply`."""
        return self.apply(Event(EventType.RESUME, self._time(at)))

    def adjourn(self, side: Side, sealed_move: str, at: float | None = None) -> list[Notice]:
        """封棋: the side to move seals ``sealed_move``; the clocks stop."""
        return self.apply(Event(EventType.ADJOURN, self._time(at), side, move=sealed_move))

    def record_foul(self, side: Side, clause: str, note: str = "", at: float | None = None) -> list[Notice]:
        """Arbiter: record a foul (9.1; touch-move 5 is entered this way)."""
        return self.apply(Event(EventType.FOUL, self._time(at), side, clause=clause, note=note))

    def record_warning(self, side: Side, clause: str, note: str = "", at: float | None = None) -> list[Notice]:
        """Arbiter: record a warning (Go 8(2), 9; Xiangqi 8.8)."""
        return self.apply(Event(EventType.WARNING, self._time(at), side, clause=clause, note=note))

    def penalize_time(self, side: Side, seconds: float, clause: str, note: str = "",
                      at: float | None = None) -> list[Notice]:
        """Arbiter: deduct ``seconds`` from ``side``'s clock."""
        return self.apply(Event(EventType.TIME_PENALTY, self._time(at), side, seconds=seconds,
                                clause=clause, note=note))

    def adjudicate(self, outcome: Outcome, reason: Reason, clause: str, winner: Side | None = None,
                   note: str = "", at: float | None = None) -> list[Notice]:
        """Arbiter: end the game with ``outcome`` (e.g. 4.2.1 no win possible,
        4.1.10 misconduct).  See :meth:`apply`."""
        return self.apply(Event(EventType.ADJUDICATE, self._time(at), winner=winner,
                                outcome=outcome, reason=reason, clause=clause, note=note))

    @classmethod
    def replay(cls, events: Iterable[Event], **kwargs: Any) -> Game:
        """Return a new game built with ``kwargs`` and driven by ``events``.

        Raises :class:`EventError` if an event does not apply.
        """
        game = cls(**kwargs)
        for event in events:
            game.apply(event)
        return game

    # ----------------------------------------------------------- internals
    def _emit(self, ntype: NoticeType, at: float, side: Side | None, zh: str, en: str,
              clause: str = "", **data: Any) -> None:
        self._out.append(Notice(ntype, at, side, zh, en, clause, data))

    def _name(self, side: Side) -> tuple[str, str]:
        return side.name_zh(self.kind), side.name_en(self.kind)

    def _require_playing(self, what: str) -> None:
        if self.phase is Phase.WAITING:
            raise EventError(f"{what}: the game has not started")
        if self.phase in (Phase.PAUSED, Phase.ADJOURNED):
            raise EventError(f"{what}: the game is {self.phase.value}; resume it first")
        if self.phase is Phase.SCORING:
            raise EventError(f"{what}: the game is in the dead-stone phase")

    def _require_side(self, event: Event) -> Side:
        if event.side is None:
            raise EventError(f"{event.type.value} at {event.at} s needs a side")
        return event.side

    def _advance(self, at: float) -> bool:
        """Rule time-based endings up to ``at``; return True if one ended the game."""
        if self.phase is not Phase.PLAYING:
            return False
        candidates: list[tuple[float, int, str, Side]] = []
        clock = self.clock
        if clock is not None and clock.running is not None:
            deadline = clock.deadline()
            assert deadline is not None
            if deadline <= at:
                candidates.append((deadline, 1, "flag", clock.running))
        if self.start_time is not None:
            for side in self._presence.absent:
                limit = self._late_limit(side)
                if limit is not None:
                    candidates.append((self.start_time + limit, 0, "late", side))
        if not candidates:
            # The usual case (every move of a game): nothing is due.
            self._emit_calls(at)
            return False
        due = sorted((c for c in candidates if c[0] <= at), key=lambda c: (c[0], c[1]))
        if not due:
            self._emit_calls(at)
            return False
        instant, _, what, side = due[0]
        self._emit_calls(instant)
        if sum(1 for c in due if c[2] == "late" and c[0] == instant) == 2:
            # 21.3: both beyond the limit: both forfeit.
            self._finish(Result.ended(self.kind, Outcome.DOUBLE_FORFEIT, Reason.LATE_ARRIVAL,
                                      self.CLAUSES["both_late"]), instant)
        elif what == "late" or side in self._presence.absent:
            clause = self.CLAUSES["late"]
            if self._presence.both_late:
                # 21.3: 如双方迟到 ... 一方超过规定时限即判负.
                clause = f"{clause}, {self.CLAUSES['both_late']}"
            self._finish(Result.win(self.kind, side.other, Reason.LATE_ARRIVAL, clause), instant)
        else:
            assert clock is not None
            cause = clock.flag_cause(side)
            key = "move_limit" if cause is FlagCause.MOVE_LIMIT else "time"
            self._finish(Result.win(self.kind, side.other, Reason.TIME_FORFEIT, self.CLAUSES[key]),
                         instant)
        self.events.append(Event(EventType.TICK, at))
        return True

    def _late_limit(self, side: Side) -> float | None:
        """Return the seconds after the start beyond which the absent
        ``side`` loses (4.1.5, 21): the profile's ``late_limit`` when the
        event set one, else :meth:`_default_late_limit`; ``None``: only his
        running clock limits him."""
        if self.rules.late_limit is not None:
            return self.rules.late_limit
        return self._default_late_limit(side)

    def _default_late_limit(self, side: Side) -> float | None:
        """Return the late limit of ``side`` when the profile sets none
        (``None`` here; a game's rules may derive one)."""
        return None

    def _emit_calls(self, until: float) -> None:
        clock = self.clock
        if clock is not None and clock.running is not None and until > self._calls_since:
            for call in clock.calls(self._calls_since, until):
                # The flag's own call ("10，超时判负", Go §3 读秒: 最后的报法)
                # is sent too, just before _advance rules the loss on time.
                self._emit(NoticeType.CLOCK_CALL, call.at, call.side, call.text_zh, call.text_en,
                           kind=call.kind, value=call.value)
        self._calls_since = max(self._calls_since, until)

    def _finish(self, result: Result, at: float) -> None:
        if self.clock is not None:
            self.clock.stop(at=max(at, self._clock_last()))
        self.result = result
        self.phase = Phase.OVER
        self.ended_at = at
        self._offer = None
        self._emit(NoticeType.GAME_OVER, at, result.winner, result.explanation_zh,
                   result.explanation_en, result.clause, outcome=result.outcome.value,
                   reason=result.reason.value, result=self._result_tag(result))

    def _clock_last(self) -> float:
        assert self.clock is not None
        return self.clock._last / 1000  # noqa: SLF001 - same package

    def _result_tag(self, result: Result) -> str:
        return result.pgn_result if self.kind is GameKind.XIANGQI else result.sgf_result

    def _win(self, winner: Side, reason: Reason, clause: str, at: float,
             detail_zh: str = "", detail_en: str = "") -> None:
        self._finish(Result.win(self.kind, winner, reason, clause, detail_zh, detail_en), at)

    def _press(self, side: Side, at: float) -> tuple[float, ClockSnapshot | None]:
        """End ``side``'s move on the clock; return (elapsed, snapshot after)."""
        if self.clock is None:
            prev = self.moves[-1].at if self.moves else self.start_time
            if prev is None:
                prev = at
            return max(0.0, at - prev), None
        press = self.clock.press(at=at)
        # _advance ruled any flag fall before this instant.
        assert press.flagged is None, press
        self._note_clock_start(side.other, at)
        return press.elapsed, self.clock.snapshot(side, at=at)

    def _note_clock_start(self, side: Side, at: float) -> None:
        if side in self._presence.absent:
            self._presence.first_clock_start.setdefault(side, at)

    def _after_move(self, side: Side, at: float) -> None:
        """Bookkeeping after a completed move: offers (23.1)."""
        self._last_mover = side
        if self._offer is not None and self._offer.by is side.other:
            # 23.1: 走出轮走的一着棋，则为拒绝和棋.
            self._decline_offer(at, by_move=True)

    def _decline_offer(self, at: float, by_move: bool) -> None:
        assert self._offer is not None
        offerer = self._offer.by
        self._offer = None
        zh, en = self._name(offerer.other)
        how_zh, how_en = ("走棋", "by moving") if by_move else ("表示不同意", "")
        self._emit(NoticeType.DRAW_DECLINED, at, offerer.other, f"{zh}{how_zh}，拒绝和棋",
                   f"{en} declines the draw {how_en}".rstrip(), self.CLAUSES["offer"])

    def _add_infraction(self, kind: str, side: Side, at: float, clause: str, note: str) -> None:
        """Record a foul or warning; end the game at the limit (4.1.8; Go 12(2))."""
        self.infractions.append(Infraction(kind, side, at, clause, note))
        zh, en = self._name(side)
        if kind == "foul":
            count, limit = self.fouls(side), self._foul_limit()
            self._emit(NoticeType.FOUL, at, side, f"{zh}犯规（第{count}次）：{note}",
                       f"foul by {en} (number {count}): {note}", clause, count=count)
            if limit is not None and count >= limit:
                self._win(side.other, Reason.FOULS, self._foul_clause(), at)
        else:
            count, limit = self.warnings(side), self._warning_limit()
            self._emit(NoticeType.WARNING, at, side, f"{zh}被警告（第{count}次）：{note}",
                       f"warning to {en} (number {count}): {note}", clause, count=count)
            if limit is not None and count >= limit:
                self._win(side.other, Reason.TWO_WARNINGS, self.CLAUSES["warnings"], at)

    def _foul_limit(self) -> int | None:
        return None

    def _foul_clause(self) -> str:
        return self.CLAUSES["fouls"]

    def _warning_limit(self) -> int | None:
        return None

    def _charge(self, side: Side, seconds: float, at: float, clause: str) -> None:
        """Deduct time from ``side`` (23.3 false claim, arbiter penalty)."""
        if self.clock is None or self.phase is Phase.OVER:
            return
        flag = self.clock.charge(side, seconds, at=at)
        zh, en = self._name(side)
        self._emit(NoticeType.TIME_CHARGED, at, side, f"{zh}棋钟加计{seconds:g}秒",
                   f"{seconds:g} s charged to {en}'s clock", clause, seconds=seconds)
        if flag is not None:
            # 23.3: 若因此而超时，即判负.
            self._win(side.other, Reason.TIME_FORFEIT, clause, at)

    # ------------------------------------------------------------ handlers
    def _on_start(self, event: Event) -> None:
        if self.phase is not Phase.WAITING:
            raise EventError(f"start at {event.at} s: the game has already started")
        self.start_time = event.at
        self.phase = Phase.PLAYING
        self._presence.absent = set(event.absent)
        self._presence.both_late = len(self._presence.absent) == 2
        first = self.to_move
        if self.clock is not None:
            # 21.1: an absent player's clock runs from his turn.
            self.clock.start(first, at=event.at)
            self._note_clock_start(first, event.at)
        self._calls_since = event.at
        self._emit(NoticeType.STARTED, event.at, None, "对局开始", "the game starts",
                   absent=[s.name.lower() for s in event.absent])

    def _on_arrive(self, event: Event) -> None:
        side = self._require_side(event)
        if self.phase is Phase.WAITING:
            raise EventError(f"arrive at {event.at} s: the game has not started")
        if side not in self._presence.absent:
            raise EventError(f"arrive at {event.at} s: {side.name_en(self.kind)} is not absent")
        self._presence.absent.discard(side)
        start = event.at if self.start_time is None else self.start_time
        late = event.at - start
        zh, en = self._name(side)
        self._emit(NoticeType.ARRIVED, event.at, side, f"{zh}到场，迟到{late:g}秒",
                   f"{en} arrives {late:g} s late", self.CLAUSES["late"], late=late)
        if self._presence.both_late and self.clock is not None:
            # 21.3: both late: each one's late time comes off his own clock.
            # The part his clock already ran while he was away is counted.
            started = self._presence.first_clock_start.get(side, event.at)
            extra = max(0.0, started - start)
            if extra > 0:
                self._charge(side, extra, event.at, self.CLAUSES["both_late"])

    def _on_move_event(self, event: Event) -> None:
        self._require_playing("move")
        side = self._require_side(event)
        if event.move is None:
            raise EventError(f"move at {event.at} s: no move given")
        if side in self._presence.absent:
            raise EventError(f"move at {event.at} s: {side.name_en(self.kind)} is absent "
                             f"(send an arrive event first)")
        self._on_move(side, event.move, event.at)

    @abstractmethod
    def _on_move(self, side: Side, move: str, at: float) -> None:
        """Apply a move by ``side`` (validated for phase and presence)."""

    def _on_pass_event(self, event: Event) -> None:
        raise EventError(f"pass at {event.at} s: a {self.kind.value} game has no pass")

    def _on_claim(self, event: Event) -> None:
        raise EventError(f"claim at {event.at} s: a {self.kind.value} game has no claims")

    def _on_mark_dead(self, event: Event) -> None:
        raise EventError(f"{event.type.value} at {event.at} s: only Go marks dead stones")

    def _on_confirm_dead(self, event: Event) -> None:
        self._on_mark_dead(event)

    def _on_dispute_dead(self, event: Event) -> None:
        self._on_mark_dead(event)

    def _on_offer(self, event: Event) -> None:
        self._require_playing("offer draw")
        side = self._require_side(event)
        clause = self.CLAUSES["offer"]
        if not self.rules.draw_offers:
            raise EventError(f"offer draw at {event.at} s: draw offers are not part of these rules")
        if self._offer is not None:
            raise EventError(f"offer draw at {event.at} s: an offer by "
                             f"{self._offer.by.name_en(self.kind)} is pending")
        if self._last_mover is not side or self.to_move is side:
            # 23.1: 提议作和必须在自己走棋后提出.
            raise NotYourTurnError(f"offer draw at {event.at} s: {side.name_en(self.kind)} may "
                                   f"offer only right after its own move ({clause})")
        if self._previous_offer_by is side and self.rules.repeat_offer_is_foul:
            # 23.1 提和必须轮流进行; 9.1.3: offering again after a refusal is a foul.
            self._add_infraction("foul", side, event.at, self.CLAUSES["repeat_offer"],
                                 "提议作和经对方拒绝后，连续提出 / offered a draw again after a refusal")
            return
        self._offer = _Offer(side, event.at)
        self._previous_offer_by = side
        zh, en = self._name(side)
        self._emit(NoticeType.DRAW_OFFERED, event.at, side, f"{zh}提议作和", f"{en} offers a draw",
                   clause)

    def _on_accept(self, event: Event) -> None:
        self._require_playing("accept draw")
        side = self._require_side(event)
        if self._offer is None or self._offer.by is side:
            raise EventError(f"accept draw at {event.at} s: no offer by the opponent is pending")
        self._finish(Result.ended(self.kind, Outcome.DRAW, Reason.AGREEMENT, self.CLAUSES["agreement"]),
                     event.at)

    def _on_decline(self, event: Event) -> None:
        self._require_playing("decline draw")
        side = self._require_side(event)
        if self._offer is None or self._offer.by is side:
            raise EventError(f"decline draw at {event.at} s: no offer by the opponent is pending")
        self._decline_offer(event.at, by_move=False)

    def _on_resign(self, event: Event) -> None:
        side = self._require_side(event)
        if self.phase is Phase.WAITING:
            raise EventError(f"resign at {event.at} s: the game has not started")
        self._win(side.other, Reason.RESIGNATION, self.CLAUSES["resign"], event.at)

    def _on_pause(self, event: Event) -> None:
        if self.phase is not Phase.PLAYING:
            raise EventError(f"pause at {event.at} s: the game is {self.phase.value}")
        if self.clock is not None:
            self.clock.pause(at=event.at)
        self.phase = Phase.PAUSED
        self._emit(NoticeType.PAUSED, event.at, None, "暂停，棋钟停止", "paused; clocks stopped",
                   self.CLAUSES["pause"], note=event.note)

    def _on_resume(self, event: Event) -> None:
        if self.phase not in (Phase.PAUSED, Phase.ADJOURNED):
            raise EventError(f"resume at {event.at} s: the game is {self.phase.value}, not paused")
        adjourned = self.phase is Phase.ADJOURNED
        if self.clock is not None:
            self.clock.resume(at=event.at)
        self._calls_since = event.at
        self.phase = Phase.PLAYING
        self._emit(NoticeType.RESUMED, event.at, None, "续赛", "play resumes", self.CLAUSES["pause"])
        if adjourned:
            assert self._sealed is not None
            side, move = self._sealed
            self._sealed = None
            # 封棋: the arbiter opens the envelope and plays the sealed move.
            try:
                self._on_move(side, move, event.at)
            except EventError as exc:
                # A sealed move the rules refuse (casual play): the sealer must
                # move now; the resumption itself stands.
                zh, en = self._name(side)
                self._emit(NoticeType.INVALID_MOVE, event.at, side, f"{zh}封存的着法无效：{move}",
                           f"{en}'s sealed move {move} is refused: {exc}", self.CLAUSES["adjourn"])

    def _on_adjourn(self, event: Event) -> None:
        self._require_playing("adjourn")
        side = self._require_side(event)
        if event.move is None:
            raise EventError(f"adjourn at {event.at} s: the sealed move is missing")
        if side is not self.to_move:
            raise NotYourTurnError(f"adjourn at {event.at} s: only the side to move seals a move")
        if self.clock is not None:
            self.clock.pause(at=event.at)
        self._sealed = (side, event.move)
        self.phase = Phase.ADJOURNED
        zh, en = self._name(side)
        self._emit(NoticeType.ADJOURNED, event.at, side, f"封棋，{zh}封存着法",
                   f"adjourned; {en} sealed a move", self.CLAUSES["adjourn"])

    def _on_arbiter_foul(self, event: Event) -> None:
        side = self._require_side(event)
        if self.phase is Phase.WAITING:
            raise EventError(f"foul at {event.at} s: the game has not started")
        self._add_infraction("foul", side, event.at, event.clause or self.CLAUSES["foul"], event.note)

    def _on_arbiter_warning(self, event: Event) -> None:
        side = self._require_side(event)
        if self.phase is Phase.WAITING:
            raise EventError(f"warning at {event.at} s: the game has not started")
        self._add_infraction("warning", side, event.at, event.clause or self.CLAUSES["warning"],
                             event.note)

    def _on_time_penalty(self, event: Event) -> None:
        side = self._require_side(event)
        if self.phase is Phase.WAITING:
            raise EventError(f"time penalty at {event.at} s: the game has not started")
        if self.clock is None:
            raise EventError(f"time penalty at {event.at} s: the game has no clock")
        if not (0 < event.seconds < math.inf):
            raise EventError(f"time penalty at {event.at} s: seconds must be positive")
        self._charge(side, event.seconds, event.at, event.clause or self.CLAUSES["penalty"])

    def _on_adjudicate(self, event: Event) -> None:
        if self.phase is Phase.WAITING:
            raise EventError(f"adjudicate at {event.at} s: the game has not started")
        if event.outcome is None or event.reason is None or not event.clause:
            raise EventError(f"adjudicate at {event.at} s: outcome, reason and clause are required")
        if (event.outcome is Outcome.WIN) != (event.winner is not None):
            raise EventError(f"adjudicate at {event.at} s: a win names the winner, nothing else does")
        if event.outcome is Outcome.WIN:
            assert event.winner is not None
            self._win(event.winner, event.reason, event.clause, event.at, event.note, event.note)
        else:
            self._finish(Result.ended(self.kind, event.outcome, event.reason, event.clause,
                                      event.note, event.note), event.at)

    # Helpers for subclasses ------------------------------------------------
    def _record_move(self, side: Side, move: str, at: float, elapsed: float,
                     snap: ClockSnapshot | None, **facts: bool) -> MoveRecord:
        record = MoveRecord(len(self.moves) + 1, side, move, at, elapsed, snap, **facts)
        self.moves.append(record)
        return record

    def clock_reading(self, side: Side, at: float | None = None) -> float | None:
        """Return the seconds ``side`` may still use (``None`` without clocks)."""
        if self.clock is None:
            return None
        t = self._time(at)
        if to_ms(t) < self.clock._last:  # noqa: SLF001 - same package
            t = self.clock._last / 1000  # noqa: SLF001
        return self.clock.remaining(side, at=t)

    def event_log(self) -> list[dict[str, Any]]:
        """Return the accepted events as JSON-ready data."""
        return [e.to_dict() for e in self.events]
