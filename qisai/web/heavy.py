"""Heavy work off the event loop, a few at once (issue 29).

Drawing a paper of a 2,000-entry event or importing its file takes seconds
of CPU.  Run on the event loop it would stall every socket; run without a
bound, three at once take the two cores from everyone else.  A
:class:`HeavyWork` runs such a job in a worker thread and lets at most
``limit`` run at once in the process; the next one is answered at once
with 503 and ``Retry-After`` (the client tries again; nobody waits in a
queue holding a connection).

Below every domain (it imports none): the app makes one
(``Settings.heavy_jobs``, ``QISAI_HEAVY_JOBS``) and the routes take it with
:data:`HeavyDep`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool

__all__ = ["BUSY", "HeavyDep", "HeavyWork", "heavy_of"]

T = TypeVar("T")

BUSY = 503
"""The status of a heavy request refused because ``limit`` jobs run."""


class HeavyWork:
    """At most ``limit`` heavy jobs at once, each in a worker thread.

    ``retry_after`` is the ``Retry-After`` (seconds) of a refusal.  Raises
    :class:`ValueError` for a limit below 1."""

    def __init__(self, limit: int = 2, retry_after: int = 5) -> None:
        if limit < 1:
            raise ValueError(f"heavy jobs: the limit must be at least 1, not {limit}")
        self.limit = limit
        self.retry_after = retry_after
        self._slots = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self._running = 0

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


def heavy_of(request: Request) -> HeavyWork:
    """The app's :class:`HeavyWork` (``app.state.heavy``)."""
    heavy = getattr(request.app.state, "heavy", None)
    if not isinstance(heavy, HeavyWork):
        raise RuntimeError("the app has no heavy-work limiter (app.state.heavy)")
    return heavy


HeavyDep = Annotated[HeavyWork, Depends(heavy_of)]
"""A route's :class:`HeavyWork`."""
