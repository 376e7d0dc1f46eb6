"""The relay between the server processes of one arena (issue 15 item 1):
every stored change of a game goes out on Redis, and each process brings
its own copy of the game up to date and passes the update to its sockets.

A message carries the events the sender stored (``f``: how many events the
game had before them, ``ev``: the events as the log stores them) and the
update text its sockets got (``t``).  A receiver that has the game loaded
applies the events to its copy (the replay the log's load does, so both
copies agree) and sends the same text to its sockets, in the log's order:
a message that arrives ahead of one it follows waits :attr:`Relay.GAP_WAIT`
seconds for it, after which the copy is reloaded from the database (the
one truth) and every socket gets the full state.  A message already covered
(the copy reloaded meanwhile) is dropped.

The clock leases (item 2) are taken and renewed here too; see
:meth:`Relay.lease_loop`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import anyio
from redis.exceptions import RedisError

from qisai.cluster.bus import Bus
from qisai.cluster.metrics import Metrics
from qisai.referee.events import Event, EventType
from qisai.store import Database
from qisai.store.models import GameStatus
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.play.storage import event_counts
from qisai.web.play.threads import game_limiter
from qisai.web.state import spawn

__all__ = ["Relay"]

log = logging.getLogger("qisai.web")

MAX_EVENTS = 64
"""Events one message may carry (more: the receivers reload instead)."""


class RelayHost(Protocol):
    """What the relay needs of its hub (:class:`~qisai.web.cluster.cluster_hub.ClusterHub`)."""

    games: dict[str, LiveGame]
    db: Database
    metrics: Metrics
    now: Callable[[], float]

    async def get(self, game_id: str) -> LiveGame: ...
    def forget(self, game_id: str) -> None: ...
    async def refresh(self, live: LiveGame, *, force: bool = False,
                      announce: bool = True) -> LiveGame: ...
    def engine_busy(self, game_id: str) -> bool: ...
    async def send_local(self, live: LiveGame, text: str) -> None: ...
    def count_relayed(self) -> None: ...
    def engine_turn(self, live: LiveGame) -> None: ...


class Relay:
    """Publishes this process's changes and applies the other processes'."""

    OVERDUE = 1.0
    """Seconds past a flag's time after which any process holding the game
    rules it, lease or not (30.2: a dead holder's flags are not late)."""
    GAP_WAIT = 0.25
    """Seconds a message ahead of the log waits for the one before it."""

    def __init__(self, hub: RelayHost, url: str) -> None:
        self.hub = hub
        self.bus = Bus(url, self.on_message, self.resync)
        self.held: set[str] = set()
        """Games whose clock lease this process holds (it ticks them)."""
        self.clocked: set[str] | None = None
        """The cluster's running clocks as last read (``None``: unknown)."""
        self._ahead: dict[str, dict[int, dict[str, Any]]] = {}
        self._gap_tasks: dict[str, asyncio.Task[None]] = {}
        self._lease_task: asyncio.Task[None] | None = None
        self._sync_task: asyncio.Task[None] | None = None
        self.health: dict[str, str] = {}
        """Each background loop's state for ``/readyz``: ``ok`` or
        ``failing: ERROR`` (it goes on trying)."""

    async def start(self) -> None:
        """Connect, subscribe and start the lease and sync loops."""
        await self.bus.start()
        loop = asyncio.get_running_loop()
        self._lease_task = loop.create_task(self.lease_loop())
        self._sync_task = loop.create_task(self.sync_loop())

    async def stop(self) -> None:
        """Release this process's leases (another takes them at once) and
        disconnect."""
        tasks = [t for t in (self._lease_task, self._sync_task, *self._gap_tasks.values())
                 if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for game_id in list(self.held):
            with contextlib.suppress(RedisError, OSError):
                await self.bus.release(game_id)
        await self.bus.stop()

    # --------------------------------------------------------- sending
    def announce(self, live: LiveGame) -> None:
        """Tell the other processes that the database holds ``live.event_count``
        events of ``live`` (this process found itself behind: they may be
        too, when the process that stored them died before publishing)."""
        self.bus.publish({"g": live.id, "f": live.event_count, "ev": [], "t": "",
                          "sync": live.event_count})

    def publish(self, live: LiveGame, first: int, events: list[Event], text: str) -> None:
        """Tell the other processes that ``live`` stored ``events`` (its
        events ``first + 1`` onwards) and its sockets got ``text``."""
        game = live.game
        clock: bool | None = None
        if game.is_over:
            clock = False
        elif game.clock is not None and game.clock.running is not None:
            clock = True
        if len(events) > MAX_EVENTS:  # the receivers reload from the database
            first, events = live.event_count, []
        self.bus.publish({"g": live.id, "f": first, "ev": [e.to_dict() for e in events],
                          "t": text, "clock": clock, "ts": time.time()})

    # ------------------------------------------------------- receiving
    async def on_message(self, msg: dict[str, Any]) -> None:
        """Apply another process's message to this process's copy of the
        game, if it has one, and pass its update to the game's sockets."""
        game_id, first, events, text = msg.get("g"), msg.get("f"), msg.get("ev"), msg.get("t")
        if (not isinstance(game_id, str) or not isinstance(first, int)
                or not isinstance(events, list) or not isinstance(text, str)):
            return
        sent = msg.get("ts")
        if isinstance(sent, float):
            self.hub.metrics.relay_lag.observe(max(0.0, time.time() - sent))
        live = self.hub.games.get(game_id)
        if live is None:
            return  # not loaded here: nobody here follows it
        sync = msg.get("sync")
        if isinstance(sync, int):
            async with live.lock:
                if live.event_count < sync:
                    await self._reload(live, announce=False)
            return
        async with live.lock:
            await self._take(live, first, events, text)

    async def _take(self, live: LiveGame, first: int, events: list[Any], text: str) -> None:
        count = live.event_count
        if not events:
            if first == count:  # a note (an engine waiting) about the present
                await self.hub.send_local(live, text)
            return
        if first > count:  # one before it is still on its way
            self._ahead.setdefault(live.id, {})[first] = {"ev": events, "t": text}
            if live.id not in self._gap_tasks:
                self._gap_tasks[live.id] = spawn(
                    self._gap(live))
            return
        if first + len(events) <= count:
            return  # covered already
        if not self._apply(live, events[count - first:]):
            await self._reload(live)
            return
        await self.hub.send_local(live, text)
        self.hub.count_relayed()
        ahead = self._ahead.get(live.id)
        while ahead and live.event_count in ahead:
            nxt = ahead.pop(live.event_count)
            if not self._apply(live, nxt["ev"]):
                await self._reload(live)
                return
            await self.hub.send_local(live, nxt["t"])
            self.hub.count_relayed()
        if ahead is not None and not ahead:
            self._ahead.pop(live.id, None)

    def _apply(self, live: LiveGame, events: list[Any]) -> bool:
        """Replay ``events`` on ``live``; returns ``False`` when the copy
        must be reloaded instead (a start, where the seats' players may have
        changed, or an event the copy refuses)."""
        try:
            for data in events:
                event = Event.from_dict(data)
                if event.type is EventType.START:
                    return False
                live.game.apply(event)
                live.event_count += 1
        except Exception as exc:  # a copy that disagrees is reloaded, never trusted
            # Expected now and then: a clock tick of this copy, not stored
            # (nothing fell), stamped later than the relayed event.
            log.info("relay: game %s refused a relayed event (%s); reloading", live.id, exc)
            return False
        if live.game.is_over:
            live.status = GameStatus.FINISHED.value
        return True

    async def _reload(self, live: LiveGame, *, announce: bool = True) -> None:
        """Reload ``live`` from the database and send every socket its full
        state (call with the lock held).  A copy that cannot be reloaded now
        (the database is away) stays as it is: the sync loop reloads it
        when the database is back."""
        self._ahead.pop(live.id, None)
        try:
            await self.hub.refresh(live, force=True, announce=announce)
        except Exception as exc:
            log.warning("relay: cannot reload game %s: %s", live.id, exc)

    async def _gap(self, live: LiveGame) -> None:
        try:
            await asyncio.sleep(self.GAP_WAIT)
            async with live.lock:
                if self._ahead.get(live.id):
                    await self._reload(live)
        finally:
            self._gap_tasks.pop(live.id, None)

    async def resync(self) -> None:
        """Redis is back: bring the loaded games that are behind the database
        up to date, their sockets told (what they missed while nothing could
        be relayed); see :meth:`sync_once`."""
        await self.sync_once()

    SYNC_EVERY = 1.0
    """Seconds between two comparisons of the loaded games with the database."""

    async def sync_once(self) -> int:
        """Compare every loaded game with the database in one query and
        reload those behind it, telling their sockets (issue 30.1: a move
        whose process died before publishing it, a relay message lost while
        Redis was away); finished games nobody follows leave memory (30.3).
        Returns the number of games reloaded.  Raises what the database
        raises."""
        games = self.hub.games
        ids = list(games)
        if not ids:
            return 0
        counts = await anyio.to_thread.run_sync(event_counts, self.hub.db, ids,
                                                limiter=game_limiter())
        reloaded = 0
        for game_id in ids:
            live = games.get(game_id)
            if live is None:
                continue
            row = counts.get(game_id)
            if row is None:  # deleted: nothing to follow
                if not live.subscribers:
                    self.hub.forget(game_id)
                continue
            if row[0] > live.event_count or row[1] != live.status:
                async with live.lock:
                    if row[0] > live.event_count or row[1] != live.status:
                        await self.hub.refresh(live, announce=False)
                        reloaded += 1
            elif (live.game.is_over and not live.subscribers and game_id not in self.held
                    and not self.hub.engine_busy(game_id)):
                self.hub.forget(game_id)
        return reloaded

    async def sync_loop(self) -> None:
        """Run :meth:`sync_once` every :attr:`SYNC_EVERY` seconds until
        cancelled; a failure is logged and noted in :attr:`health`."""
        while True:
            await asyncio.sleep(self.SYNC_EVERY)
            try:
                await self.sync_once()
                self._ok("sync")
            except Exception as exc:
                self._failed("sync", exc)

    def loops(self) -> dict[str, str]:
        """Return each background loop's state for ``/readyz``: ``ok``,
        ``failing: ERROR`` (it goes on trying) or ``stopped`` (it died)."""
        out = dict(self.health)
        for name, task in (("leases", self._lease_task), ("sync", self._sync_task)):
            if task is not None and task.done():
                out[name] = "stopped"
        if self.bus.started and not self.bus.alive():
            out["bus"] = "stopped"
        return out

    def _ok(self, loop: str) -> None:
        if self.health.get(loop) != "ok":
            if loop in self.health:
                log.warning("%s loop: working again", loop)
            self.health[loop] = "ok"

    def _failed(self, loop: str, exc: BaseException) -> None:
        # Said once per outage in the log (not every round), always in /readyz.
        if self.health.get(loop, "ok") == "ok":
            log.warning("%s loop failed (%s: %s); it goes on trying", loop,
                        type(exc).__name__, exc)
        self.health[loop] = f"failing: {type(exc).__name__}"

    # ---------------------------------------------------------- leases
    async def lease_loop(self) -> None:
        """Hold the clock leases: renew this process's, take those nobody
        holds (loading the game, so that its ticker rules it), give up those
        of finished games.  Runs until cancelled."""
        period = self.bus.lease_ms / 3000
        while True:
            try:
                await self._lease_round()
                self._ok("leases")
            except Exception as exc:  # Redis, the database, anything: never stop (30.2)
                self.clocked = None  # tick every loaded game meanwhile
                self._failed("leases", exc)
            await asyncio.sleep(period)

    async def _lease_round(self) -> None:
        clocked = await self.bus.clocked()
        for game_id in list(self.held):
            live = self.hub.games.get(game_id)
            if live is None or live.game.is_over or game_id not in clocked:
                self.held.discard(game_id)
                await self.bus.release(game_id)
                if live is not None and live.game.is_over:
                    await self.bus.unclock(game_id)
            elif not await self.bus.renew(game_id):
                self.held.discard(game_id)
        for game_id in clocked - self.held:
            if not await self.bus.acquire(game_id):
                continue
            try:
                live = await self.hub.get(game_id)
            except ActionError:  # deleted meanwhile
                await self.bus.unclock(game_id)
                await self.bus.release(game_id)
                continue
            if live.game.is_over:
                await self.bus.unclock(game_id)
                await self.bus.release(game_id)
                continue
            self.held.add(game_id)
            # The copy may be behind: its holder may have died between
            # storing a change and publishing it (30.1).
            async with live.lock:
                await self.hub.refresh(live)
            if self.clocked is not None and game_id in self.clocked:
                self.hub.metrics.lease_takeovers.inc()
                # Taken over (another held it a round ago and let it
                # expire: dead): its engine, if due, moves here now.
                self.hub.engine_turn(live)
        self.clocked = clocked

    def tick_candidates(self) -> list[LiveGame]:
        """The loaded games this process ticks: those it holds the lease of,
        and those the cluster does not know to be ticking (all of them while
        Redis cannot be read: the database still rules each flag once)."""
        games = self.hub.games
        clocked = self.clocked
        if clocked is None or not self.bus.up:
            return list(games.values())
        now = self.hub.now()
        out = []
        for game_id, live in games.items():
            if game_id in self.held or game_id not in clocked:
                out.append(live)
                continue
            # Its holder should have ruled the flag by now: it may be dead,
            # its lease not yet expired.  Rule it here (the log's
            # conditional append keeps it once) rather than seconds late.
            clock = live.game.clock
            deadline = None if clock is None or live.game.is_over else clock.deadline()
            if deadline is not None and now - deadline > self.OVERDUE:
                out.append(live)
        return out
