"""The engine's turns in the live games of a process: the part of
:class:`~qisai.web.play.hub.Hub` that drives the seat an engine holds.

The engine of a game is driven by one task at a time (a GTP or UCI process
answers one command at a time).  The task takes steps while the engine has
something to do: a move in its turn, or its part of the dead-stone
agreement (Go 4(4)).  It thinks outside the game's lock, then applies its
answer only if the game is still where it was; a fault of the engine is
the referee's to rule on (4.1.4, 21.x: it loses as any player would).

A mixin of the hub, by subject: the hub keeps the games, their actions,
writes and ticks; this keeps the engines' side of them.  What it needs of
the hub is declared below and defined there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from qisai.engines.errors import EngineMoveError
from qisai.engines.pool import EnginePool
from qisai.referee.errors import EventError, RefereeError
from qisai.referee.events import Event, EventType, Notice
from qisai.referee.verdict import Reason, Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.store import ConflictError
from qisai.web.play.live import (
    LiveGame,
)
from qisai.web.seats.draws import accepts_draw
from qisai.web.seats.lineup import Offered, make_seat
from qisai.web.seats.opponents import (
    BUILTIN,
    GoRequest,
    Seat,
    XiangqiRequest,
    agreement_actions,
    agreement_due,
    fault_verdict,
    go_time_left,
)
from qisai.web.state import spawn

__all__ = ["EngineTurns"]

log = logging.getLogger("qisai.web")  # the hub's log, as before the split


class EngineTurns:
    """The engine seats of the hub's games (see the module)."""

    # what the hub provides (Hub.__init__ and its methods)
    now: Callable[[], float]
    engines: dict[str, str]
    levels: dict[str, Offered]
    engine_think: float
    engine_timeout: float
    draw_margin_cp: int
    pool: EnginePool
    _seats: dict[str, Seat]
    _engine_tasks: set[asyncio.Task[None]]
    _engine_running: dict[str, asyncio.Task[None]]
    _engine_wake: dict[str, int]
    _engine_thinking: dict[str, asyncio.Future[Any]]

    async def _apply(self, live: LiveGame, event: Event, actor_id: int | None
                     ) -> tuple[list[Notice], EventError | None]:
        raise NotImplementedError  # the hub's: store an event and apply it

    async def broadcast(self, live: LiveGame, notices: list[Notice]) -> None:
        raise NotImplementedError  # the hub's: tell the game's sockets

    async def _broadcast_notes(self, live: LiveGame, notes: list[dict[str, Any]]) -> None:
        raise NotImplementedError  # the hub's: tell the game's sockets of notes

    ENGINE_STEPS = 20
    """Steps one engine task may take before it yields (it never spins)."""
    ENGINE_GRACE = 2.0
    """Seconds past its flag time a silent engine gets before it has failed
    (the ticker rules the flag fall itself)."""

    def _engine_due(self, live: LiveGame) -> bool:
        game = live.game
        side = live.engine_side
        if side is None or game.is_over:
            return False
        phase = game.phase.value
        if phase == "playing":
            return game.to_move is side
        # Go 4(4): in the dead-stone phase the engine marks and confirms;
        # the agreement step says whether it has anything to do now.
        return phase == "scoring"

    def engine_turn(self, live: LiveGame) -> None:
        """Let the engine of ``live`` act if it is due (in the background);
        stop its process once the game is over."""
        running = self._engine_running.get(live.id)
        if live.game.is_over:
            # Ended while the engine thought or waited (a resignation, a
            # flag, the arbiter): its answer is not wanted and its process
            # is no longer needed (the task closes it as it stops).
            thinking = self._engine_thinking.get(live.id)
            if thinking is not None:
                thinking.cancel()  # the task then stops and closes the seat
            elif running is None and live.id in self._seats:
                task = spawn(self._close_seat(live.id))
                self._engine_tasks.add(task)
                task.add_done_callback(self._engine_tasks.discard)
            return
        if not self._engine_due(live):
            return
        if running is not None and not running.done():
            # It is busy: make it look again before it stops.
            self._engine_wake[live.id] = self._engine_wake.get(live.id, 0) + 1
            return
        task = spawn(self._engine_loop(live))
        self._engine_running[live.id] = task
        self._engine_tasks.add(task)
        task.add_done_callback(self._engine_tasks.discard)

    async def _engine_loop(self, live: LiveGame) -> None:
        try:
            for _ in range(self.ENGINE_STEPS):
                wake = self._engine_wake.get(live.id, 0)
                acted = await self._engine_step(live)
                if not acted and self._engine_wake.get(live.id, 0) == wake:
                    break
        finally:
            self._engine_running.pop(live.id, None)
            self._engine_wake.pop(live.id, None)
            if live.game.is_over:
                await self._close_seat(live.id)

    def _seat(self, live: LiveGame) -> Seat:
        """Return the engine seat of ``live`` (made on first use).  Raises
        :class:`RuntimeError` for an engine this server does not know."""
        seat = self._seats.get(live.id)
        if seat is not None:
            return seat
        seat = make_seat(live.engine or BUILTIN, live.kind, self.engines, self.levels,
                         self.pool, live.id)
        seat.on_wait = lambda waiting: self._engine_waiting(live, waiting)
        self._seats[live.id] = seat
        return seat

    ENGINE_WAITING: dict[str, Any] = {"type": "engine_waiting", "at": None, "side": None,
        "zh": "引擎忙，等待中", "en": "engine busy, waiting", "clause": None, "data": {}}
    ENGINE_READY: dict[str, Any] = {"type": "engine_ready", "at": None, "side": None,
        "zh": "引擎已就绪，思考中", "en": "engine free, thinking", "clause": None, "data": {}}

    def _engine_waiting(self, live: LiveGame, waiting: bool) -> None:
        """The engine of ``live`` starts (or stops) waiting for a free
        engine process: say so on the game's sockets (the page shows the
        notice) and in its state (``engine_status``)."""
        live.engine_status = "waiting" if waiting else None
        note = self.ENGINE_WAITING if waiting else self.ENGINE_READY
        task = spawn(self._broadcast_notes(live, [note]))
        self._engine_tasks.add(task)
        task.add_done_callback(self._engine_tasks.discard)

    def _request(self, live: LiveGame, side: Side) -> GoRequest | XiangqiRequest:
        """What the engine needs to move, copied under the game's lock."""
        game = live.game
        now = self.now()
        think = self.engine_think
        clock = game.clock_reading(side)
        if clock is not None:
            think = min(think, max(0.05, clock / 30))
        deadline = game.clock.deadline() if game.clock is not None else None
        if deadline is not None:
            timeout = max(0.0, deadline - now) + self.ENGINE_GRACE
        else:
            timeout = max(self.engine_timeout, think * 3)
        if isinstance(game, XiangqiGame):
            return XiangqiRequest(game.board.copy(), think, timeout)
        try:
            left = go_time_left(game, side, now)
        except RefereeError:  # a clock read at an instant it has passed
            left = None
        return GoRequest(game.board.copy(), game.grules, side, think, timeout, left)

    async def _engine_step(self, live: LiveGame) -> bool:
        """Let the engine take one action; return whether it acted (or the
        game moved on while it thought, so it must look again)."""
        async with live.lock:
            if not self._engine_due(live):
                return False
            side = live.engine_side
            assert side is not None
            game = live.game
            scoring = game.phase.value == "scoring"
            if scoring and not agreement_due(game, side):
                # It has confirmed, or the opponent is marking and confirms
                # first (4(4)): nothing to do until he does.
                return False
            where = (live.event_count, len(game.moves), game.phase)
            # 23.1: a draw offer is answered before the engine moves.
            offered = not scoring and game.pending_offer is side.other
            try:
                seat = self._seat(live)
            except (RuntimeError, ValueError) as exc:
                seat, failure = None, exc
            request = self._request(live, side)
        if seat is None:
            await self._engine_failed(live, side, failure)
            return False
        own: frozenset[Any] = frozenset()
        answer = ""
        accept = False
        if offered:
            asked: asyncio.Future[Any] = asyncio.ensure_future(
                accepts_draw(seat, request, side, live.kind, self.draw_margin_cp))
        elif scoring:
            assert isinstance(request, GoRequest)
            asked = asyncio.ensure_future(seat.dead_stones(request))
        else:
            asked = asyncio.ensure_future(seat.move(request))
        # Held apart from this task, so that the end of the game can stop the
        # wait (and nothing else: never a write in progress).
        self._engine_thinking[live.id] = asked
        try:
            if offered:
                accept = bool(await asked)
            elif scoring:
                own = await asked
            else:
                answer = await asked
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if asked.cancelled() and task is not None and not task.cancelling():
                return False  # the game ended while the engine thought
            raise
        except Exception as exc:  # any failure of the engine is ruled, never raised
            await self._engine_failed(live, side, exc)
            return False
        finally:
            self._engine_thinking.pop(live.id, None)
        async with live.lock:
            game = live.game
            now = (live.event_count, len(game.moves), game.phase)
            if now != where or not self._engine_due(live):
                return True  # the game moved on meanwhile: look again
            if offered:
                events = [Event(EventType.ACCEPT_DRAW if accept else EventType.DECLINE_DRAW, 0.0,
                                side)]
            elif scoring:
                events = agreement_actions(game, side, own)
            elif answer == "resign":
                events = [Event(EventType.RESIGN, 0.0, side)]
            elif answer == "pass" and live.kind == "go":
                events = [Event(EventType.PASS, 0.0, side)]
            else:
                events = [Event(EventType.MOVE, 0.0, side, move=answer)]
            notices: list[Notice] = []
            for template in events:
                event = replace(template, at=self.now())
                try:
                    new, refusal = await self._apply(live, event, None)
                except ConflictError:
                    return True  # another process wrote first; reloaded
                notices += new
                if refusal is not None:
                    if not game.is_over and not scoring and not offered:
                        # The referee refused the engine's move (casual
                        # rules reject illegal moves): it loses for it
                        # (4.1.6; Go 12(1)).
                        ruling = fault_verdict(game, side, EngineMoveError(
                            f"illegal move {answer}: {refusal}", answer), self.now())
                        ruling = replace(ruling, reason=Reason.ILLEGAL_MOVE)
                        try:
                            new, _ = await self._apply(live, ruling, None)
                        except ConflictError:
                            return True
                        notices += new
                    elif not game.is_over:
                        log.error("engine %s: %s refused in game %s: %s", live.engine,
                                  event.type.value, live.id, refusal)
                    break
            if notices:
                await self.broadcast(live, notices)
            return bool(events)

    async def _engine_failed(self, live: LiveGame, side: Side, exc: BaseException) -> None:
        """Rule the failure ``exc`` of the engine playing ``side``: the game
        is lost for it (see :func:`~qisai.web.seats.opponents.fault_verdict`),
        unless it has ended already (a flag fall while it was silent)."""
        log.warning("engine %s failed in game %s: %s: %s", live.engine, live.id,
                    type(exc).__name__, exc)
        notices: list[Notice] = []
        async with live.lock:
            game = live.game
            if not game.is_over and live.engine_side is side:
                try:
                    notices, refusal = await self._apply(
                        live, fault_verdict(game, side, exc, self.now()), None)
                except ConflictError:  # another process wrote first; it rules
                    refusal = None
                if refusal is not None and not game.is_over:  # pragma: no cover
                    log.error("engine failure ruling refused in game %s: %s", live.id, refusal)
        if notices:
            await self.broadcast(live, notices)
        await self._close_seat(live.id)

    async def _close_seat(self, game_id: str) -> None:
        seat = self._seats.get(game_id)
        if seat is None:
            return
        await seat.close()
        # Forgotten only once closed: a close cut short (shutdown) is done
        # again by stop_engines.
        if self._seats.get(game_id) is seat:
            del self._seats[game_id]

    async def stop_engines(self) -> None:
        """Cancel engine searches still waiting to move and stop external
        engine processes (shutdown)."""
        for task in list(self._engine_tasks):
            task.cancel()
        for task in list(self._engine_tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for game_id in list(self._seats):
            await self._close_seat(game_id)
        await self.pool.close()

