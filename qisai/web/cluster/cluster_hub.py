"""The hub of a server process among several (issue 15): the live games of
:class:`~qisai.web.play.hub.Hub`, with what a cluster adds around them.

* metrics (moves stored, their latency, games and sockets) for ``/metrics``;
* with a :class:`~qisai.web.cluster.relay.Relay` (``QISAI_REDIS_URL``): every
  stored change published for the other processes, which pass it to their
  own sockets; the clocks ticked under leases;
* with :class:`~qisai.web.cluster.remote_engines.RemoteEngines`: engine seats whose
  work runs on ``qisai worker`` machines.

Without them it is the one-process hub as before (plus the metrics).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

import anyio

from qisai.cluster.metrics import Metrics
from qisai.referee.events import Event
from qisai.web.play.fanout import send_safely
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame, Send
from qisai.web.play.storage import stored_event_count
from qisai.web.play.threads import game_limiter
from qisai.web.seats.opponents import BUILTIN, Seat

if TYPE_CHECKING:  # Redis and arq come with the ``cluster`` extra
    from qisai.web.cluster.relay import Relay
    from qisai.web.cluster.remote_engines import RemoteEngines

__all__ = ["ClusterHub"]

log = logging.getLogger("qisai.web")


class ClusterHub(Hub):
    """A :class:`Hub` that counts, and relays when it has a relay."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.relay: Relay | None = None
        self.remote: RemoteEngines | None = None
        self._queue_depth = 0
        self.metrics = Metrics(live_games=lambda: sum(not g.game.is_over
                                                      for g in self.games.values()),
                               loaded_games=lambda: len(self.games), sockets=self.socket_count,
                               queue_depth=lambda: self._queue_depth)
        self._stored: dict[str, tuple[int, list[Event]]] = {}
        self._lag_watch: asyncio.Task[None] | None = None
        self.health: dict[str, str] = {}
        """The hub's own background loops for ``/readyz`` (``ok`` or
        ``failing: ERROR``); the relay keeps its own."""

    def start_ticker(self, period: float = 0.5) -> None:
        """:meth:`Hub.start_ticker`, and the watch of the event loop's lag."""
        super().start_ticker(period)
        if self._lag_watch is None:
            self._lag_watch = asyncio.get_running_loop().create_task(self._watch_lag())

    async def stop_ticker(self) -> None:
        """:meth:`Hub.stop_ticker`, and the lag watch's."""
        if self._lag_watch is not None:
            self._lag_watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag_watch
            self._lag_watch = None
        await super().stop_ticker()

    async def _watch_lag(self, every: float = 0.1) -> None:
        # How late the loop runs a timer is how long anything ready waited:
        # the server's share of a move's round trip beyond its own work
        # (issue 29.4: find where the tail comes from).
        while True:
            start = time.perf_counter()
            await asyncio.sleep(every)
            self.metrics.loop_lag.observe(max(0.0, time.perf_counter() - start - every))

    def socket_count(self) -> int:
        """Return the game sockets open on this process."""
        return sum(len(live.subscribers) for live in self.games.values())

    async def refresh_queue_depth(self) -> None:
        """Read the engine queue's depth for the next scrape (0 without one)."""
        if self.remote is not None:
            try:
                self._queue_depth = await self.remote.depth()
            except Exception:  # a scrape never fails for the queue
                self._queue_depth = 0

    async def _reload(self, live: LiveGame) -> LiveGame:
        """:meth:`Hub._reload`, and every socket told when the copy was
        behind (see :meth:`refresh`); call with ``live.lock`` held."""
        return await self.refresh(live)

    async def refresh(self, live: LiveGame, *, force: bool = False,
                      announce: bool = True) -> LiveGame:
        """Reload ``live`` from the database, the one truth (issue 30.1).  If
        the copy was behind (or ``force``), every socket this process holds
        on the game gets the full state, and -- with ``announce`` -- the
        other processes are told to look too (a process killed between
        storing and publishing left them all behind).  Call with
        ``live.lock`` held; returns ``live``.  Raises what the load raises."""
        before = (live.event_count, live.status)
        await super()._reload(live)
        behind = (live.event_count, live.status) != before
        if behind:
            self.metrics.resyncs.inc()
        if behind or force:
            await self.tell_state(live)
        if behind and announce and self.relay is not None:
            self.relay.announce(live)
        return live

    async def tell_state(self, live: LiveGame) -> None:
        """Send every socket of ``live`` on this process its full state (each
        its own side's view)."""
        for key, send in list(live.subscribers.items()):
            viewer = key >> 20
            text = json.dumps({"type": "state", "state": live.snapshot(viewer or None)},
                              ensure_ascii=False)
            await send_safely(live, key, send, text)

    async def subscribe(self, game_id: str, viewer: int | None, send: Send
                        ) -> tuple[LiveGame, int]:
        """:meth:`Hub.subscribe`; among several processes the copy is first
        compared with the database (a reconnect after a process died must
        not be shown its old copy) and reloaded if behind."""
        live, key = await super().subscribe(game_id, viewer, send)
        if self.relay is not None:
            try:
                stored = await anyio.to_thread.run_sync(stored_event_count, self.db, live.id,
                                                        limiter=game_limiter())
                behind = stored > live.event_count
            except Exception:  # the database is away: the sync loop catches up later
                log.warning("game %s: cannot compare with the database", game_id)
                behind = False
            if behind:
                async with live.lock:
                    await self.refresh(live)
        return live, key

    def engine_busy(self, game_id: str) -> bool:
        """Return whether an engine task of ``game_id`` runs in this process."""
        task = self._engine_running.get(game_id)
        return task is not None and not task.done()

    def count_relayed(self) -> None:
        """Count one update of another process passed to this one's sockets."""
        self.metrics.relayed.inc()

    async def _caught_up(self, game_id: str, refusal: ActionError) -> bool:
        """Among several processes this process's copy may not yet hold a
        change another process stored a moment ago (the relay is on its
        way): a refusal other than a bad, forbidden or too-fast action
        (400, 403, 429) is checked against the database's event count, and
        a copy found behind is reloaded (then :meth:`Hub.act` judges the
        action again).  Returns whether it was."""
        if self.relay is None or refusal.status in (400, 403, 429):
            return False
        live = await self.get(game_id)
        async with live.lock:
            stored = await anyio.to_thread.run_sync(stored_event_count, self.db,
                                                    live.id, limiter=game_limiter())
            if stored <= live.event_count:  # not behind: the refusal stands
                return False
            await self._reload(live)
        return True

    def _acted(self, action: dict[str, Any], ack: dict[str, Any], seconds: float) -> None:
        # a stored move or pass is timed for /metrics (a repeat is not)
        if action.get("type") in ("move", "pass") and not ack.get("duplicate"):
            self.metrics.observe_move(seconds)

    def _stored_now(self, live: LiveGame, count: int) -> None:
        # the events to publish with the next update, kept from the first
        # one not yet published
        if self.relay is None:
            return
        before = live.event_count - count
        first, events = self._stored.get(live.id, (before, []))
        if first + len(events) != before:  # a reload in between: start afresh
            first, events = before, []
        events.extend(live.game.events[len(live.game.events) - count:])
        self._stored[live.id] = (first, events)

    async def _broadcast_notes(self, live: LiveGame, notes: list[dict[str, Any]]) -> None:
        if not live.subscribers and self.relay is None:
            return
        state = live.snapshot(None, moves=False)
        del state["you"]
        text = json.dumps({"type": "update", "notices": notes, "state": state},
                          ensure_ascii=False)
        if self.relay is not None:
            first, events = self._stored.pop(live.id, (live.event_count, []))
            self.relay.publish(live, first, events, text)
        await self.send_local(live, text)

    async def tick_all(self) -> None:
        """:meth:`Hub.tick_all`, its failures noted for ``/readyz`` (the
        ticker goes on and logs them)."""
        try:
            await super().tick_all()
        except Exception as exc:
            self.health["ticker"] = f"failing: {type(exc).__name__}"
            raise
        self.health["ticker"] = "ok"

    def tick_candidates(self) -> list[LiveGame]:
        """The games this process ticks (see :meth:`Relay.tick_candidates`)."""
        if self.relay is None:
            return super().tick_candidates()
        return self.relay.tick_candidates()

    def _seat(self, live: LiveGame) -> Seat:
        if self.remote is None or live.id in self._seats:
            return super()._seat(live)
        name = live.engine or BUILTIN
        if name != BUILTIN and name not in self.engines:
            raise RuntimeError(f"engine {name!r} is not configured on this server (--engine)")
        from qisai.web.cluster.remote_engines import RemoteSeat

        seat = RemoteSeat(self.remote, live.kind, name)
        seat.on_wait = lambda waiting: self._engine_waiting(live, waiting)  # a lost worker (30.4)
        self._seats[live.id] = seat
        return seat
