"""The second engine of a game between two engines (人机大战 events whose
round robin pairs two engine entrants).

The hub drives one engine per game: the engine holding the open seat.  In
a game between two engines the other seat is held by an *engine account*
(a user row without password, named after the engine) and the game's
settings say which engine plays for it (``driven``: ``{"side", "engine",
"account"}``).  :class:`EngineDriver` watches the loaded games and, when
that side is to move, asks the engine (a seat leased from the same bounded
engine pool as every engine game) and plays its answer through
:meth:`Hub.act` as that account, so that the referee rules on it as on any
move.  A failing engine loses by the arbiter's ruling that the hub makes
for its own engine (:func:`~qisai.web.seats.opponents.fault_verdict`: did
not come, illegal move, cannot move).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any

from qisai.referee.verdict import Side
from qisai.store import repo
from qisai.store.models import User
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.play.ticker import Ticker
from qisai.web.seats.lineup import make_seat
from qisai.web.seats.opponents import Seat, fault_verdict
from qisai.web.state import spawn

__all__ = ["EngineDriver", "driver_of"]

log = logging.getLogger("qisai.web")


class EngineDriver:
    """Plays the driven engine seats of one hub's games."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._busy: set[str] = set()
        self._seats: dict[str, Seat] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._ticker = Ticker(self.tick, "engine driver")

    @staticmethod
    def driven(live: LiveGame) -> tuple[Side, str, int] | None:
        """Return (side, engine, account) of the driven seat of ``live``, if any."""
        d = live.settings.driven
        return None if d is None else (d.side, d.engine, d.account)

    async def tick(self) -> None:
        """Start a move of every driven engine that is to move."""
        for live in list(self.hub.games.values()):
            found = self.driven(live)
            if found is None:
                continue
            side, engine, account = found
            game = live.game
            if game.is_over:
                seat = self._seats.pop(live.id, None)
                if seat is not None:
                    await seat.close()
                continue
            if (live.id in self._busy or game.phase.value != "playing"
                    or game.to_move is not side):
                continue
            self._busy.add(live.id)
            task = spawn(
                self._move(live, side, engine, account))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _move(self, live: LiveGame, side: Side, engine: str, account: int) -> None:
        try:
            async with live.lock:
                ply = len(live.game.moves) + 1
                request = self.hub._request(live, side)
            try:
                seat = self._seats.get(live.id)
                if seat is None:
                    seat = self._seats[live.id] = make_seat(
                        engine, live.kind, self.hub.engines, self.hub.levels, self.hub.pool,
                        f"{live.id}:driven")
                answer = await seat.move(request)
            except Exception as exc:  # any failure of the engine is ruled, never raised
                await self._fault(live, side, exc)
                return
            user = await asyncio.to_thread(self._account, account)
            if answer == "resign":
                action: dict[str, Any] = {"type": "resign"}
            elif answer == "pass" and live.kind == "go":
                action = {"type": "pass", "ply": ply}
            else:
                action = {"type": "move", "ply": ply, "move": answer}
            game = live.game
            if game.is_over or game.phase.value != "playing" or len(game.moves) + 1 != ply:
                return  # paused or moved on while it thought: the next tick asks again
            try:
                await self.hub.act(live.id, user, action)
            except ActionError as exc:
                game = live.game
                # Only a refusal of the move itself is the engine's fault
                # (4.1.6; Go 12(1)); a pause or the end meanwhile is not.
                if (exc.status == 400 and not game.is_over and game.phase.value == "playing"
                        and len(game.moves) + 1 == ply):
                    from qisai.engines.errors import EngineMoveError

                    await self._fault(live, side, EngineMoveError(
                        f"illegal move {answer}: {exc.message}", answer))
        finally:
            self._busy.discard(live.id)

    def _account(self, user_id: int) -> User:
        with self.hub.db.session() as s:
            u = repo.get_user(s, user_id)
            s.expunge(u)
            return u

    async def _fault(self, live: LiveGame, side: Side, exc: BaseException) -> None:
        log.warning("driven engine failed in game %s: %s", live.id, exc)
        if live.game.is_over:
            return
        ruling = fault_verdict(live.game, side, exc, self.hub.now())
        result = "0-1" if side is Side.FIRST else "1-0"
        await self.hub.rule(live.id, result, ruling.clause, ruling.note)

    def start(self, period: float = 0.1) -> None:
        """Start watching (once per loop)."""
        self._ticker.start(period)

    async def stop(self) -> None:
        """Stop watching and close the engines' seats."""
        await self._ticker.stop()
        for task in list(self._tasks):
            task.cancel()
        for seat in list(self._seats.values()):
            with contextlib.suppress(Exception):
                await seat.close()
        self._seats.clear()


_DRIVERS: weakref.WeakKeyDictionary[Hub, EngineDriver] = weakref.WeakKeyDictionary()


def driver_of(hub: Hub) -> EngineDriver:
    """Return the :class:`EngineDriver` of ``hub`` (made on first use)."""
    found = _DRIVERS.get(hub)
    if found is None:
        found = _DRIVERS[hub] = EngineDriver(hub)
    return found
