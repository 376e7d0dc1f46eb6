"""Engine opponents of the arena: the program that holds the open seat of a
game against an engine, how it is asked for a move, and what it says when
the dead stones are agreed.

Engines are named by the server's ``--engine NAME=SPEC``:

* ``gtp:COMMAND``: a Go engine speaking GTP (fed the game's moves, told the
  clock with ``kgs-time_settings``/``time_left``, asked
  ``final_status_list dead`` at the count);
* ``ucci:COMMAND``, ``uci:COMMAND``, ``xboard:COMMAND`` (also ``cecp:``,
  ``winboard:``) or a bare ``COMMAND`` (UCI): a Xiangqi engine;
* ``builtin`` (always there) is qisai's own engine for both games:
  ``python -m qisai engine xiangqi`` (UCI) and ``python -m qisai engine go``
  (GTP; its dead stones are its own ``final_status_list dead``, qisai's
  estimate computed in its process).

No engine runs in the server's interpreter: every seat leases a process
from the hub's :class:`~qisai.engines.pool.EnginePool` for each move (and
for its dead stones), so a bounded number of engine processes serve every
game, and a game waits in line for a free one (:class:`PooledSeat`).

A seat only answers; the referee judges.  Whatever goes wrong inside a seat
is raised as it is (:class:`~qisai.engines.errors.EngineError` or any other
exception); :func:`fault_verdict` turns it into the arbiter's ruling the
hub records, so a game never waits on a broken engine.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from qisai.engines.errors import (
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
    GtpCommandError,
)
from qisai.go.board import Board as GoBoard
from qisai.go.coords import Point, gtp_name
from qisai.go.move import Move as GoMove
from qisai.go.rules import Color
from qisai.referee.clock import ByoyomiKind
from qisai.referee.events import Event, EventType
from qisai.referee.game import Game as RefereeGame
from qisai.referee.rulesets import GoRules
from qisai.referee.verdict import Outcome, Reason, Side

if TYPE_CHECKING:
    from qisai.engines.pool import EnginePool, PooledEngine

T = TypeVar("T")

__all__ = [
    "BUILTIN",
    "BuiltinGoSeat",
    "BuiltinXiangqiSeat",
    "EngineSpec",
    "GoRequest",
    "GtpGoSeat",
    "PooledSeat",
    "Seat",
    "UciXiangqiSeat",
    "XiangqiRequest",
    "agreement_actions",
    "agreement_due",
    "builtin_command",
    "builtin_go_move",
    "engine_kinds",
    "fault_verdict",
    "go_time_left",
    "parse_spec",
    "playout_of",
]

BUILTIN = "builtin"
"""The name of qisai's own engine (both games)."""

_PROTOCOL_KIND = {"gtp": "go", "uci": "xiangqi", "ucci": "xiangqi", "xboard": "xiangqi"}


@dataclass(frozen=True)
class EngineSpec:
    """A configured engine: its protocol (``gtp``, ``uci``, ``ucci``,
    ``xboard``) and the command line that starts it."""

    protocol: str
    argv: tuple[str, ...]

    @property
    def kind(self) -> str:
        """Return the game the engine plays: ``go`` or ``xiangqi``."""
        return _PROTOCOL_KIND[self.protocol]


def parse_spec(spec: str) -> EngineSpec:
    """Return the engine ``spec`` describes (``gtp:CMD``, ``ucci:CMD``,
    ``uci:CMD``, ``xboard:CMD`` (``cecp:``, ``winboard:``) or a bare
    ``CMD``, which is UCI).

    Raises :class:`ValueError` if the command is empty or cannot be split
    like a shell line.
    """
    from qisai.engines.clients import protocol_name

    protocol, sep, rest = spec.partition(":")
    protocol = protocol_name(protocol)
    if not sep or protocol not in _PROTOCOL_KIND:
        protocol, rest = "uci", spec
    try:
        argv = tuple(shlex.split(rest))
    except ValueError as exc:
        raise ValueError(f"engine command {rest!r}: {exc}") from None
    if not argv:
        raise ValueError(f"engine spec {spec!r}: the command is empty")
    return EngineSpec(protocol, argv)


def engine_kinds(name: str, engines: dict[str, str]) -> tuple[str, ...]:
    """Return the games engine ``name`` plays (``()`` if unknown or
    misconfigured): ``builtin`` plays both."""
    if name == BUILTIN:
        return ("xiangqi", "go")
    spec = engines.get(name)
    if spec is None:
        return ()
    try:
        return (parse_spec(spec).kind,)
    except ValueError:
        return ()


# ------------------------------------------------------------------ verdicts
def fault_verdict(game: RefereeGame, side: Side, exc: BaseException, at: float) -> Event:
    """Return the arbiter's ruling when the engine playing ``side`` fails
    with ``exc``: the event the hub applies (an ``adjudicate`` win for the
    other side, the failure in its note).

    The mapping follows the match runner (:mod:`qisai.engines.play`): an
    engine that could not start did not come to the board (21; Go 4(3)); a
    move text that is not a move is an illegal move (4.1.6; Go 12(1)); a
    crash, a hang or any other failure means the engine can never move, so
    it loses on time (4.1.4, 22.1; Go 3).
    """
    clauses = game.CLAUSES
    note = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, EngineStartError):
        reason, clause, note = Reason.LATE_ARRIVAL, clauses["late"], f"engine failed to start: {exc}"
    elif isinstance(exc, EngineMoveError | EngineProtocolError):
        reason = Reason.ILLEGAL_MOVE
        clause = clauses.get("illegal", clauses["foul"])
        note = f"engine broke the protocol: {exc}"
    else:
        reason, clause = Reason.TIME_FORFEIT, clauses["time"]
        note = f"engine failed ({note}); it cannot move"
    return Event(EventType.ADJUDICATE, at, outcome=Outcome.WIN, winner=side.other,
                 reason=reason, clause=clause, note=note[:300])


# ------------------------------------------------------------ agreement
def _scoring_history(game: Any) -> tuple[set[Side], bool]:
    """Return (the sides that confirmed the current marking, whether any
    stone was marked since the dead-stone phase began), read from the
    event log: a mark resets the confirmations, a pass (or void move)
    began the phase (4(1), 4(4))."""
    confirmed: set[Side] = set()
    marked = False
    for event in reversed(game.events):
        if event.type in (EventType.PASS, EventType.MOVE, EventType.DISPUTE_DEAD):
            break
        if event.type is EventType.MARK_DEAD:
            marked = True
        elif event.type is EventType.CONFIRM_DEAD and not marked and event.side is not None:
            confirmed.add(event.side)
    return confirmed, marked


def _whole_groups(board: GoBoard, points: set[Point] | frozenset[Point]) -> set[Point]:
    out: set[Point] = set()
    for p in points:
        if p not in out and board.get(p) is not None:
            out |= board.group(p)
    return out


def agreement_due(game: Any, side: Side) -> bool:
    """Return whether the engine playing ``side`` may have something to do
    in the dead-stone phase of ``game`` (see :func:`agreement_actions`):
    it has not confirmed, and it confirms first (4(4)), or the opponent has
    confirmed, or nothing has been marked since the phase began.  Returns
    ``False`` outside the phase."""
    if game.phase.value != "scoring":
        return False
    confirmed, marked = _scoring_history(game)
    if side in confirmed:
        return False
    return game.to_move is side or bool(confirmed) or not marked


def agreement_actions(game: Any, side: Side, own: set[Point] | frozenset[Point]
                      ) -> list[Event]:
    """Return what the engine playing ``side`` does now in the dead-stone
    phase of the Go game ``game``, given its own opinion ``own`` (the
    points of the stones it holds dead): events without a time (``at``
    0; the hub stamps them), possibly none (it waits).

    The order is that of 4(4): the side to move confirms first, then the
    other.  The engine accepts a marking equal to its own opinion (it
    confirms when it is its turn to); otherwise it marks its own opinion
    (toggling the groups that differ), when it is its turn to confirm or the
    opponent confirmed a different marking, or at once when the phase began
    and nothing is marked yet.  While the opponent is still marking and must
    confirm first, it waits.  Raises :class:`ValueError` outside the
    dead-stone phase.
    """
    if game.phase.value != "scoring":
        raise ValueError(f"agreement: not in the dead-stone phase ({game.phase.value})")
    confirmed, marked = _scoring_history(game)
    if side in confirmed:
        return []
    board = game.board
    wanted = _whole_groups(board, own)
    current = set(game.dead)
    first = game.to_move is side
    confirm = Event(EventType.CONFIRM_DEAD, 0.0, side)
    if current == wanted:
        return [confirm] if (first or confirmed) else []
    if not (first or confirmed or not marked):
        return []
    toggles: list[str] = []
    seen: set[Point] = set()
    for p in sorted(current ^ wanted):
        if p in seen:
            continue
        seen |= board.group(p)
        toggles.append(gtp_name(p, board.size))
    out = [Event(EventType.MARK_DEAD, 0.0, side, points=tuple(toggles))]
    if first:
        out.append(confirm)
    return out


# --------------------------------------------------------------- requests
@dataclass(frozen=True)
class GoRequest:
    """What a Go seat needs to move, copied from the game under its lock."""

    board: GoBoard
    """A copy of the referee's board (history included)."""
    rules: GoRules
    side: Side
    think: float
    """Seconds the built-in engine may think."""
    timeout: float
    """Seconds after which a silent engine has failed."""
    time_left: tuple[float, int] | None = None
    """GTP ``time_left`` (seconds, stones) for the engine's clock."""


@dataclass(frozen=True)
class XiangqiRequest:
    """What a Xiangqi seat needs to move."""

    board: Any
    """A copy of the referee's :class:`qisai.xiangqi.Board`."""
    think: float
    timeout: float


def go_time_left(game: Any, side: Side, at: float) -> tuple[float, int] | None:
    """Return the GTP ``time_left`` arguments for ``side``'s clock at
    ``at``: main time with 0 stones, or in overtime the time and stones of
    the current period; ``None`` without a clock."""
    clock = game.clock
    control = game.rules.time_control
    if clock is None or control is None:
        return None
    snap = clock.snapshot(side, at=at)
    byo = control.of(side).byoyomi
    if not snap.in_byoyomi or byo is None:
        return snap.main, 0
    if byo.kind is ByoyomiKind.CANADIAN:
        return snap.period_left, snap.moves_to_go or byo.moves
    # Japanese and Chinese byo-yomi: each period is for one move.
    return byo.period_seconds, 1


# ------------------------------------------------------------------ seats
class Seat(ABC):
    """An engine holding one seat of one game."""

    @abstractmethod
    async def move(self, request: Any) -> str:
        """Return the engine's move: ICCS (Xiangqi), a GTP vertex, ``pass``
        or ``resign`` (Go).  Raises whatever the engine's failure is."""

    async def dead_stones(self, request: GoRequest) -> frozenset[Point]:
        """Return the stones the engine holds dead in the finished Go
        position ``request.board``.  Raises :class:`NotImplementedError` for
        a Xiangqi seat."""
        raise NotImplementedError("a Xiangqi engine marks no dead stones")

    async def close(self) -> None:
        """Stop the engine (nothing for the built-in ones).  Never raises."""
        return None


class PooledSeat(Seat):
    """A seat whose engine is a process leased from an
    :class:`~qisai.engines.pool.EnginePool` for each command (a move, the
    dead stones) and given back after it: the engine never runs in the
    server's interpreter, and no more processes run than the pool allows.

    A process that served another game is set up anew for this one
    (:meth:`_setup`).  One whose command failed or was cut short (the game
    ended while it thought) is stopped, not given back: its state is
    unknown.  The wait for a process counts against the move's
    ``timeout``; ``on_wait`` (set by the hub) hears when the seat starts and
    stops waiting for one.  Without a pool the seat has a private one of
    one process, stopped by :meth:`close`.
    """

    def __init__(self, name: str, pool: EnginePool | None = None, owner: str = "") -> None:
        from qisai.engines.pool import EnginePool

        self.name = name
        self._own_pool = pool is None
        self.pool = EnginePool(1) if pool is None else pool
        self.owner = owner or f"seat-{id(self):x}"
        """The game the seat plays (the pool's owner of its leases)."""
        self.on_wait: Callable[[bool], None] | None = None
        self._lease: PooledEngine | None = None

    @property
    def _engine(self) -> Any:
        """The protocol client of the process leased now, if any."""
        return None if self._lease is None else self._lease.client

    @abstractmethod
    def _key(self, request: Any) -> tuple[str, ...]:
        """The pool's key for this seat's kind of process (its command)."""

    @abstractmethod
    async def _start(self, request: Any) -> Any:
        """Start a process; return its protocol client."""

    async def _setup(self, lease: PooledEngine, request: Any) -> None:
        """Prepare a process that served another game (or none) for this one."""

    async def leased(self, request: Any,
                     work: Callable[[PooledEngine, float], Awaitable[T]]) -> T:
        """Run ``work(lease, seconds left)`` on a process leased from the pool
        for ``request`` (a move, or the analysis board's look at a position)
        and return what it returns; raises what the pool or ``work`` raise."""
        deadline = time.monotonic() + request.timeout
        lease = await self.pool.acquire(self._key(request), lambda: self._start(request),
                                        owner=self.owner, timeout=request.timeout,
                                        on_wait=self.on_wait)
        self._lease = lease
        done = False
        try:
            if lease.owner != self.owner:
                lease.owner = None
                lease.state.clear()
                await self._setup(lease, request)
                lease.owner = self.owner
            result = await work(lease, max(0.05, deadline - time.monotonic()))
            done = True
            return result
        finally:
            self._lease = None
            if done:
                self.pool.release(lease)
            else:
                await self.pool.discard_now(lease)

    async def close(self) -> None:
        """Stop the private pool, if the seat has one (a pooled process
        outlives the game: the pool reuses or reaps it).  Never raises."""
        lease = self._lease
        if lease is not None:
            self._lease = None
            await self.pool.discard_now(lease)
        if self._own_pool:
            try:
                await self.pool.close()
            except Exception:  # noqa: BLE001 - closing must not fail the game
                pass


class UciXiangqiSeat(PooledSeat):
    """An external UCI/UCCI or xboard engine.  Its resignation (or an xboard
    claim of its own loss) is ``resign``; an xboard engine that claims
    anything else instead of moving is asked once more, then has failed."""

    options: dict[str, str | int | bool] = {}
    """Options set when a process starts."""

    def __init__(self, spec: EngineSpec, name: str, pool: EnginePool | None = None,
                 owner: str = "") -> None:
        super().__init__(name, pool, owner)
        self.spec = spec

    def _key(self, request: Any) -> tuple[str, ...]:
        return (self.spec.protocol, *self.spec.argv)

    async def _start(self, request: Any) -> Any:
        from qisai.engines.clients import start_xiangqi_engine

        return await start_xiangqi_engine(list(self.spec.argv), self.spec.protocol,
                                          name=self.name, options=self.options or None)

    async def _setup(self, lease: PooledEngine, request: Any) -> None:
        await lease.client.new_game()

    async def move(self, request: XiangqiRequest) -> str:
        """Return the engine's best move (see :meth:`Seat.move`)."""
        return await self.leased(request, lambda lease, left: self._best(lease, request, left))

    async def evaluate(self, request: XiangqiRequest, seconds: float) -> tuple[int | None,
                                                                                int | None]:
        """Return the engine's own score of the position for the side to move
        as ``(centipawns, mate in)`` after a search of ``seconds`` in a pooled
        process (never in the server); ``(None, None)`` if it gave none."""
        from qisai.engines.results import Limit

        async def search(lease: PooledEngine, left: float) -> tuple[int | None, int | None]:
            result = await lease.client.play(request.board, Limit(movetime=seconds),
                                             timeout=left)
            info = result.last_info
            if info is None or info.score is None:
                return None, None
            return info.score.cp, info.score.mate

        return await self.leased(request, search)

    async def _best(self, lease: PooledEngine, request: XiangqiRequest, left: float) -> str:
        from qisai.engines.results import Limit
        from qisai.xiangqi.pieces import Color as XiangqiColor

        engine = lease.client
        deadline = time.monotonic() + left
        for _ in range(2):
            result = await engine.play(request.board, Limit(movetime=request.think),
                                       timeout=max(0.05, deadline - time.monotonic()))
            own_loss = "0-1" if request.board.turn is XiangqiColor.RED else "1-0"
            if result.resign or (result.move is None and result.claim == own_loss):
                return "resign"
            if result.move is not None:
                return str(result.move.iccs())
            if result.claim is None:
                break
        raise EngineMoveError(f"engine {self.name} gave no move ({result.text or 'none'})",
                              result.text or "(none)")


def builtin_command(game: str) -> tuple[str, ...]:
    """Return the command line of qisai's own engine for ``game``
    (``xiangqi``: UCI/UCCI; ``go``: GTP): ``python -m qisai engine GAME``
    with this interpreter."""
    return (sys.executable, "-m", "qisai", "engine", game)


class BuiltinXiangqiSeat(UciXiangqiSeat):
    """qisai's own Xiangqi engine, ``qisai engine xiangqi`` over UCI, in a
    pooled process (a 4 MiB hash: 65,536 entries, as when it searched in a
    thread of the server)."""

    options = {"Hash": 4}

    def __init__(self, pool: EnginePool | None = None, owner: str = "") -> None:
        super().__init__(EngineSpec("uci", builtin_command("xiangqi")), BUILTIN, pool, owner)


def playout_of(board: GoBoard) -> Any:
    """Return the search's :class:`~qisai.engines.builtin.go_search.Playout`
    for ``board`` (stones, side to move, the simple-ko point)."""
    from qisai.engines.builtin.go_playout import Playout

    pos = Playout(board.size)
    for color in (Color.BLACK, Color.WHITE):
        for row, col in board.stones(color):
            pos.cells[pos.index(row, col)] = int(color)
    pos.to_move = int(board.to_move)
    ko = board.ko_point
    pos.ko = pos.index(*ko) if ko is not None else 0
    return pos


def _lead(board: GoBoard, rules: GoRules, dead: frozenset[Point]) -> Any:
    from qisai.go.scoring import score

    return score(board, dead, rules.core, komi=rules.komi).margin


def builtin_go_move(board: GoBoard, rules: GoRules, seconds: float,
                    seed: int | None = None) -> str:
    """Return the built-in engine's move for the side to move on ``board``
    (a GTP vertex or ``pass``), thinking about ``seconds``.

    After the opponent's pass it passes too when the count (with qisai's
    dead-stone proposal, :func:`qisai.go.deadstones.estimate_dead`) is in
    its favour: two passes end the game (4(1)).  It passes when the search
    has no move left worth playing.  Only the moves the referee's board
    allows are searched (superko included).
    """
    from qisai.engines.builtin.go_playout import PASS
    from qisai.engines.builtin.go_search import MctsSearcher
    from qisai.go.deadstones import estimate_dead

    sign = 1 if board.to_move is Color.BLACK else -1
    last = board.last_move()
    if last is not None and last.is_pass and sign * _lead(board, rules, estimate_dead(board)) > 0:
        return "pass"
    pos = playout_of(board)
    legal = {pos.index(r, c) for (r, c) in board.legal_points()}
    outcome = MctsSearcher(seed).search(pos, float(rules.komi), allowed=legal, seconds=seconds)
    point = pos.point(outcome.move) if outcome.move != PASS else None
    return "pass" if point is None else gtp_name(point, board.size)


def _history_key(m: GoMove) -> tuple[Any, ...]:
    return (int(m.color), m.point, m.setup, m.position)


class GtpGoSeat(PooledSeat):
    """A GTP engine: a pooled process, set up from the rule profile (rules
    where it takes them, size, komi, handicap, time system) when it comes
    from another game, and kept in step with the referee's board: the moves
    it has not seen are played to it before each ``genmove``; when its board
    differs (a void move, a server restart) it is cleared and the game
    replayed."""

    command_timeout = 30.0
    """Seconds any command other than ``genmove`` may take."""
    builtin = False
    """qisai's own engine: told its time a move (``qisai-seconds``) rather
    than the clock, as it thought when it searched in the server."""

    def __init__(self, spec: EngineSpec, name: str, pool: EnginePool | None = None,
                 owner: str = "") -> None:
        super().__init__(name, pool, owner)
        self.spec = spec
        self._opinion: tuple[tuple[int, int], frozenset[Point]] | None = None

    def _key(self, request: Any) -> tuple[str, ...]:
        from qisai.engines.gtp import with_rule_flags

        # GNU Go takes its rules at start: its processes differ by rules.
        return ("gtp", *with_rule_flags(list(self.spec.argv), request.rules.core))

    async def _start(self, request: Any) -> Any:
        from qisai.engines.gtp import GtpEngine

        return await GtpEngine.start(list(self.spec.argv), name=self.name,
                                     rules=request.rules.core)

    async def _setup(self, lease: PooledEngine, request: Any) -> None:
        from qisai.engines.gtp import KgsTimeSystem

        engine = lease.client
        rules = request.rules
        await engine.set_rules(rules.core)
        await engine.boardsize(rules.board_size)
        await engine.clear_board()
        await engine.komi(float(rules.komi))
        lease.state["fed"] = []
        if self.builtin:
            return
        control = rules.time_control
        try:
            if control is None:
                if "kgs-time_settings" in engine.commands:
                    await engine.kgs_time_settings(KgsTimeSystem.NONE)
                return
            own = control.of(request.side)
            main = sum(stage.seconds for stage in own.stages)
            b = own.byoyomi
            if b is None:
                await engine.kgs_time_settings(KgsTimeSystem.ABSOLUTE, main)
            elif b.kind is ByoyomiKind.CANADIAN:
                await engine.kgs_time_settings(KgsTimeSystem.CANADIAN, main,
                                               b.period_seconds, b.moves)
            else:
                await engine.kgs_time_settings(KgsTimeSystem.BYOYOMI, main,
                                               b.period_seconds, b.periods)
        except GtpCommandError:
            pass  # the time system is advice: the referee keeps the real clock

    async def _replay(self, lease: PooledEngine, history: list[GoMove], size: int) -> None:
        await lease.client.clear_board()
        lease.state["fed"] = []
        for m in history:
            await self._feed(lease, m, size)

    async def _feed(self, lease: PooledEngine, m: GoMove, size: int) -> None:
        engine = lease.client
        if m.setup:
            # Handicap stones (the only set-up a referee game has).
            black = [(i // size, i % size) for i, v in enumerate(m.position)
                     if v == int(Color.BLACK)]
            await engine.set_free_handicap(black)
        else:
            await engine.play(m.color, m.point)
        lease.state["fed"].append(_history_key(m))

    async def sync_board(self, lease: PooledEngine, board: GoBoard) -> Any:
        """Bring the leased engine's board to ``board`` (the moves it lacks,
        or a replay when its line differs) and return its GTP client."""
        history = board.history
        fed: list[tuple[Any, ...]] = lease.state.setdefault("fed", [])
        keys = [_history_key(m) for m in history]
        if keys[:len(fed)] != fed:
            await self._replay(lease, history, board.size)
            return lease.client
        try:
            for m in history[len(fed):]:
                await self._feed(lease, m, board.size)
        except GtpCommandError:
            # The engine refuses a move the referee accepted (another ko
            # rule, a missed move): rebuild its board from the referee's.
            await self._replay(lease, history, board.size)
        return lease.client

    async def move(self, request: GoRequest) -> str:
        """Return the engine's ``genmove`` answer: a vertex, ``pass`` or
        ``resign`` (see :meth:`Seat.move`)."""
        return await self.leased(request, lambda lease, left: self._genmove(lease, request,
                                                                             left))

    async def _genmove(self, lease: PooledEngine, request: GoRequest, left: float) -> str:
        board = request.board
        engine = await self.sync_board(lease, board)
        color = board.to_move
        if self.builtin:
            await engine.command("qisai-seconds", f"{request.think:g}",
                                 timeout=self.command_timeout)
        elif request.time_left is not None and "time_left" in engine.commands:
            seconds, stones = request.time_left
            try:
                await engine.time_left(color, seconds, stones)
            except GtpCommandError:
                pass  # advice only, as above
        reply = await engine.genmove(color, timeout=left)
        if reply.resign:
            return "resign"
        # The engine played its move on its own board: remember it, so the
        # next sync sees whether the referee recorded the same.
        lease.state["fed"].append((int(color), reply.point, False, ()))
        return "pass" if reply.point is None else gtp_name(reply.point, board.size)

    async def dead_stones(self, request: GoRequest) -> frozenset[Point]:
        """Return the engine's ``final_status_list dead`` for the board; an
        engine without the command gets qisai's estimate
        (:func:`~qisai.go.deadstones.estimate_dead`)."""
        board = request.board
        key = (len(board.history), board.zobrist)
        if self._opinion is not None and self._opinion[0] == key:
            return self._opinion[1]
        dead = await self.leased(request, lambda lease, left: self._dead(lease, board))
        self._opinion = (key, dead)
        return dead

    async def _dead(self, lease: PooledEngine, board: GoBoard) -> frozenset[Point]:
        from qisai.go.deadstones import estimate_dead

        engine = await self.sync_board(lease, board)
        if "final_status_list" in engine.commands:
            return frozenset(await engine.final_status_list("dead"))
        return await asyncio.to_thread(estimate_dead, board)


class BuiltinGoSeat(GtpGoSeat):
    """qisai's own Go engine, ``qisai engine go`` over GTP, in a pooled
    process: it moves by Monte-Carlo tree search for the seconds the hub
    allows (``qisai-seconds``), and its dead stones are its
    ``final_status_list dead``, :func:`qisai.go.deadstones.estimate_dead` of
    its board (Benson's unconditional life, seki, then playouts), computed
    in its process."""

    builtin = True

    def __init__(self, pool: EnginePool | None = None, owner: str = "") -> None:
        super().__init__(EngineSpec("gtp", builtin_command("go")), BUILTIN, pool, owner)
