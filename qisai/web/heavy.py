"""Heavy work off the event loop, a few at once (issue 29).

Drawing a paper of a 2,000-entry event or importing its file takes seconds
of CPU.  Run on the event loop it would stall every socket; run without a
bound, three at once take the two cores from everyone else.  A
:class:`HeavyWork` runs such a job in a worker thread and lets at most
``limit`` run at once in the process; the next one is answered at once
with 503 and ``Retry-After`` (the client tries again; nobody waits in a
queue holding a connection).

A worker thread is not enough for pure CPU work: it holds the
interpreter's lock, and the event loop waits for it on every switch.  In
the 300-player event-day bench, papers drawn in threads took 29 % of the
server's CPU and the move round trip p99 was 488 ms.  So the drawing
itself (:meth:`HeavyWork.in_process`) runs in a small pool of worker
*processes* (``limit`` of them, started on first use with ``spawn``: a
fork of a threaded server is unsafe), and the thread only waits for it.

Below every domain (it imports none): the app makes one
(``Settings.heavy_jobs``, ``QISAI_HEAVY_JOBS``) and the routes take it with
:data:`HeavyDep`.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Annotated, Any, TypeVar

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool

__all__ = ["BUSY", "HeavyDep", "HeavyWork", "heavy_of"]

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY = 503
"""The status of a heavy request refused because ``limit`` jobs run."""


class HeavyWork:
    """At most ``limit`` heavy jobs at once, each in a worker thread.

    ``retry_after`` is the ``Retry-After`` (seconds) of a refusal.  With
    ``processes`` (the default) :meth:`in_process` runs its function in a
    pool of ``limit`` worker processes; without, in the calling thread
    (for a caller that cannot start processes).  Raises
    :class:`ValueError` for a limit below 1."""

    def __init__(self, limit: int = 2, retry_after: int = 5, *, processes: bool = True) -> None:
        if limit < 1:
            raise ValueError(f"heavy jobs: the limit must be at least 1, not {limit}")
        self.limit = limit
        self.retry_after = retry_after
        self.processes = processes
        self._slots = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self._running = 0
        self._pool: ProcessPoolExecutor | None = None

    @property
    def running(self) -> int:
        """Jobs running now."""
        return self._running

    def try_enter(self) -> bool:
        """Take a slot if one is free (never waits); True if taken.  The
        caller gives it back with :meth:`leave`."""
        if not self._slots.acquire(blocking=False):
            return False
        with self._lock:
            self._running += 1
        return True

    def leave(self) -> None:
        """Give back a slot taken by :meth:`try_enter`."""
        with self._lock:
            self._running -= 1
        self._slots.release()

    def refusal(self, what: str) -> HTTPException:
        """The 503 (with ``Retry-After``) for ``what`` when every slot is taken."""
        return HTTPException(BUSY, f"{what}: the server is busy with {self.limit} such "
                                   f"job(s); try again in {self.retry_after} s",
                             headers={"Retry-After": str(self.retry_after)})

    async def run(self, what: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker thread if a slot is free and return
        its value (its exceptions pass through); otherwise raise the 503 of
        :meth:`refusal` at once."""
        if not self.try_enter():
            raise self.refusal(what)
        try:
            return await run_in_threadpool(fn, *args)
        finally:
            self.leave()


    def in_process(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in one of the work's worker processes and return
        its value; its exceptions pass through.  For the CPU-bound part of
        a job: call it from the job's worker thread (it blocks that thread,
        never the loop).  ``fn`` must be a module-level function and it and
        ``args`` must pickle.  A worker process that dies is replaced on
        the next call; its job raises :class:`RuntimeError`."""
        if not self.processes:
            return fn(*args)
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.limit, mp_context=multiprocessing.get_context("spawn"))
            pool = self._pool
        try:
            return pool.submit(fn, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            log.error("a heavy-work process died during %s; the pool is started afresh",
                      getattr(fn, "__name__", fn))
            raise RuntimeError("the worker process drawing this died; try again") from None

    def close(self) -> None:
        """Stop the worker processes (at the server's shutdown); jobs
        not yet started are cancelled."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def heavy_of(request: Request) -> HeavyWork:
    """The app's :class:`HeavyWork` (``app.state.heavy``)."""
    heavy = getattr(request.app.state, "heavy", None)
    if not isinstance(heavy, HeavyWork):
        raise RuntimeError("the app has no heavy-work limiter (app.state.heavy)")
    return heavy


HeavyDep = Annotated[HeavyWork, Depends(heavy_of)]
"""A route's :class:`HeavyWork`."""
