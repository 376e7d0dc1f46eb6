"""A bounded pool of engine processes shared by many games.

The arena never searches in its own interpreter: every engine, qisai's own
included, is a process spoken to over its protocol (UCI/UCCI, xboard, GTP).
:class:`EnginePool` bounds how many such processes run at once
(``max_processes``); a game that needs its engine *leases* a process for one
command (a move, the dead stones) and gives it back:

* a process that served the same kind of engine (the same command line, the
  pool's *key*) and is idle is reused, the one that last served the same
  game first (its board and hash are warm); its :attr:`PooledEngine.owner`
  says which game it served, so the caller knows whether to set it up anew;
* below the bound a new process is started; at the bound an idle process of
  another kind is stopped to make room;
* otherwise the caller waits in a first-come queue, at most ``timeout``
  seconds (then :class:`EngineBusyError`); ``on_wait`` tells it it waits;
* a process is given back healthy (:meth:`EnginePool.release`) or, when a
  command failed, was cut short or the process died, stopped
  (:meth:`EnginePool.discard`): the next lease starts a fresh one in its
  place;
* idle processes are stopped after ``idle_timeout`` seconds
  (:meth:`EnginePool.reap`).

Everything runs on one event loop; nothing here blocks.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from qisai.engines.errors import EngineTimeoutError
from qisai.engines.process import SPAWN_NICE

__all__ = ["EngineBusyError", "EnginePool", "PooledEngine"]


class EngineBusyError(EngineTimeoutError):
    """No engine process became free within the time the caller could wait."""


@dataclass(eq=False)
class PooledEngine:
    """One engine process of the pool (a protocol client) and what the pool
    knows of it."""

    key: Hashable
    client: Any
    """The protocol client (:class:`~qisai.engines.uci.UciEngine`,
    :class:`~qisai.engines.gtp.GtpEngine`, ...): ``pid``, ``alive``,
    ``quit()``."""
    owner: str | None = None
    """The game it served last (``None``: fresh)."""
    state: dict[str, Any] = field(default_factory=dict)
    """What its user keeps about the process's protocol state (a GTP board's
    moves), valid while :attr:`owner` is the same."""
    idle_since: float = 0.0
    uses: int = 0

    @property
    def pid(self) -> int:
        """The process id."""
        return int(self.client.pid)

    @property
    def alive(self) -> bool:
        """Whether the process still runs."""
        return bool(self.client.alive)


class EnginePool:
    """At most ``max_processes`` engine processes, leased one command at a
    time (see the module's documentation)."""

    def __init__(self, max_processes: int, *, idle_timeout: float = 120.0,
                 max_wait: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 nice: int = 0) -> None:
        if max_processes < 1:
            raise ValueError(f"engine pool: max_processes {max_processes} must be at least 1")
        self.max_processes = max_processes
        self.idle_timeout = idle_timeout
        """Seconds an idle process is kept before it is stopped."""
        self.max_wait = max_wait
        """The longest a lease waits for a process, whatever the caller allows."""
        self.clock = clock
        self.nice = nice
        """Steps of niceness the pool's processes get over the pool's own
        thread (0: none): in a web server the engines search with the CPU
        its event loop leaves, so one player's engine game cannot slow the
        moves of all (issue 14.2); they think for the same time, on fewer
        nodes when the machine is busy."""
        self._count = 0  # processes running or starting (busy + idle + starting)
        self._idle: list[PooledEngine] = []
        self._busy: set[PooledEngine] = set()
        self._waiters: collections.deque[asyncio.Future[PooledEngine | None]] = (
            collections.deque())
        self._closing: set[asyncio.Task[None]] = set()
        self.started = 0
        """Processes started so far (a replaced one counts again)."""
        self.closed = False

    # ---------------------------------------------------------- accounting
    @property
    def size(self) -> int:
        """Processes running or starting now (never above the bound)."""
        return self._count

    @property
    def busy(self) -> int:
        """Processes leased now."""
        return len(self._busy)

    @property
    def idle(self) -> int:
        """Processes waiting for a lease."""
        return len(self._idle)

    @property
    def waiting(self) -> int:
        """Leases waiting for a process."""
        return sum(1 for w in self._waiters if not w.done())

    def pids(self) -> list[int]:
        """Return the process ids of the pool's processes (busy and idle)."""
        return [e.pid for e in (*self._busy, *self._idle)]

    # -------------------------------------------------------------- leases
    async def acquire(self, key: Hashable, start: Callable[[], Awaitable[Any]], *,
                      owner: str | None = None, timeout: float | None = None,
                      on_wait: Callable[[bool], None] | None = None) -> PooledEngine:
        """Lease a process of kind ``key`` for ``owner`` (a game id).

        ``start`` starts a new process of that kind (returns its client;
        what it raises, e.g. :class:`~qisai.engines.errors.EngineStartError`,
        is raised here).  Waits at most ``timeout`` seconds (and never more
        than :attr:`max_wait`) when every process is busy, then raises
        :class:`EngineBusyError`; ``on_wait(True)`` is called when the wait
        begins, ``on_wait(False)`` when it ends with a process.  Give the
        process back with :meth:`release` or :meth:`discard`.
        """
        if self.closed:
            raise EngineBusyError("the engine pool is shut down")
        self.reap()
        lease = self._take_idle(key, owner) if not self._waiters else None
        if lease is not None:
            return lease
        if not self._waiters and self._count < self.max_processes:
            self._count += 1
            return await self._start(key, start)
        if not self._waiters and self._idle:
            # At the bound, but a process of another kind idles: it makes
            # room (its place, still counted, passes to the new one).
            self._stop(self._idle.pop(0), kill=True)
            return await self._start(key, start)
        wait = self.max_wait if timeout is None else max(0.0, min(timeout, self.max_wait))
        waiter: asyncio.Future[PooledEngine | None] = (
            asyncio.get_running_loop().create_future())
        waiter.key = key  # type: ignore[attr-defined]
        self._waiters.append(waiter)
        if on_wait is not None:
            on_wait(True)
        try:
            got = await asyncio.wait_for(asyncio.shield(waiter), wait)
        except EngineBusyError:  # the pool shut down meanwhile
            if on_wait is not None:
                on_wait(False)
            raise
        except (TimeoutError, asyncio.CancelledError) as exc:
            if on_wait is not None:
                on_wait(False)
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)
            if waiter.done() and not waiter.cancelled():
                # Handed a process (or a slot) just as the wait ended: pass it on.
                handed = waiter.result()
                if handed is None:
                    self._count -= 1
                    self._hand_on()
                else:
                    self.release(handed)
            else:
                waiter.cancel()
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise EngineBusyError(f"no engine process free within {wait:g} s "
                                  f"(all {self.max_processes} busy)") from None
        if on_wait is not None:
            on_wait(False)
        if got is not None:
            if got.alive:
                return self._lend(got)
            # It died between its release and now: start its replacement.
            self._forget(got)
            self._stop(got)
            self._count += 1
        return await self._start(key, start)

    def _take_idle(self, key: Hashable, owner: str | None) -> PooledEngine | None:
        best = None
        for e in self._idle:
            if e.key != key:
                continue
            if not e.alive:
                continue
            if best is None or (e.owner == owner and best.owner != owner):
                best = e
        # Dead idle processes free their places.
        for e in [e for e in self._idle if not e.alive]:
            self._forget(e)
            self._stop(e)
        if best is None:
            return None
        self._idle.remove(best)
        return self._lend(best)

    def _lend(self, engine: PooledEngine) -> PooledEngine:
        engine.uses += 1
        self._busy.add(engine)
        return engine

    async def _start(self, key: Hashable, start: Callable[[], Awaitable[Any]]) -> PooledEngine:
        """Start a process in a place already counted (once the processes
        being stopped have gone, so that no more run than the bound)."""
        try:
            if self._closing:
                await asyncio.wait(list(self._closing), timeout=2.0)
            token = SPAWN_NICE.set(self.nice)
            try:
                client = await start()
            finally:
                SPAWN_NICE.reset(token)
        except BaseException:
            self._count -= 1
            self._hand_on()
            raise
        self.started += 1
        engine = PooledEngine(key, client)
        if self.closed:
            self._busy.add(engine)
            self.discard(engine)
            raise EngineBusyError("the engine pool is shut down")
        return self._lend(engine)

    def release(self, engine: PooledEngine) -> None:
        """Give back a leased process in good order (its protocol state is
        known): the first waiter gets it (or its place), else it idles."""
        self._busy.discard(engine)
        if self.closed or not engine.alive:
            self._forget(engine)
            self._stop(engine)
            self._hand_on()
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if waiter.done():
                continue
            if getattr(waiter, "key", None) == engine.key:
                waiter.set_result(engine)
            else:
                # The waiter needs another kind: this process makes room.
                self._stop(engine, kill=True)
                waiter.set_result(None)
            return
        engine.idle_since = self.clock()
        self._idle.append(engine)

    def discard(self, engine: PooledEngine) -> asyncio.Task[None] | None:
        """Stop a leased process whose state is unknown (a command failed or
        was cut short, or it died); its place goes to the next lease.
        Returns the task that stops it."""
        self._busy.discard(engine)
        self._forget(engine)
        task = self._stop(engine, kill=True)
        self._hand_on()
        return task

    async def discard_now(self, engine: PooledEngine) -> None:
        """:meth:`discard` and wait until the process has stopped."""
        task = self.discard(engine)
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    def _forget(self, engine: PooledEngine) -> None:
        if engine in self._idle:
            self._idle.remove(engine)
        self._count -= 1

    def _hand_on(self) -> None:
        """A place came free: give it to the first waiter (who starts its
        own process)."""
        while self._waiters and self._count < self.max_processes:
            waiter = self._waiters.popleft()
            if waiter.done():
                continue
            self._count += 1
            waiter.set_result(None)
            return

    def _stop(self, engine: PooledEngine, *, kill: bool = False) -> asyncio.Task[None] | None:
        """Stop ``engine`` in the background (the place is already freed;
        a new process starts once it has gone); ``kill``: at once, without
        asking it to quit (it holds no work worth a goodbye)."""
        async def stop() -> None:
            client = engine.client
            if kill:
                process = getattr(client, "_process", None)
                if process is not None:
                    process.kill()
            with contextlib.suppress(Exception):
                await client.quit()

        try:
            task = asyncio.get_running_loop().create_task(stop())
        except RuntimeError:  # pragma: no cover - no loop: nothing to await with
            return None
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return task

    async def settle(self) -> None:
        """Wait until every process being stopped has stopped."""
        while self._closing:
            await asyncio.gather(*list(self._closing), return_exceptions=True)

    def reap(self) -> int:
        """Stop the processes idle longer than :attr:`idle_timeout` (and
        the dead ones); return how many."""
        now = self.clock()
        old = [e for e in self._idle if not e.alive or now - e.idle_since > self.idle_timeout]
        for e in old:
            self._idle.remove(e)
            self._count -= 1
            self._stop(e, kill=True)
        if old:
            self._hand_on()
        return len(old)

    async def close(self) -> None:
        """Stop every process (shutdown): idle ones now, leased ones as they
        come back; waiters get :class:`EngineBusyError`."""
        self.closed = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(EngineBusyError("the engine pool is shut down"))
        self._waiters.clear()
        for e in list(self._idle):
            self._idle.remove(e)
            self._count -= 1
            self._stop(e)
        for e in list(self._busy):
            self.discard(e)
        await self.settle()
