"""A periodic background task on the running event loop (the consultation
boards' ballot tick, the engine driver of engine-vs-engine games).

One task per loop: a test client may run each request in a new loop, so a
task left on a loop that is gone is replaced, and :meth:`Ticker.stop` only
cancels a task of the loop it runs on.  A tick that raises is logged and the
ticking goes on (one bad game never stops the others).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

__all__ = ["Ticker"]

log = logging.getLogger("qisai.web")


class Ticker:
    """Calls ``tick`` every ``period`` seconds once started; ``what`` names
    it in the log."""

    def __init__(self, tick: Callable[[], Awaitable[None]], what: str) -> None:
        self._tick = tick
        self._what = what
        self._task: asyncio.Task[None] | None = None

    async def _forever(self, period: float) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self._tick()
            except Exception:  # keep ticking; the error is logged
                log.exception("%s tick failed", self._what)

    def start(self, period: float) -> None:
        """Start ticking on the running loop (once per loop; needs a loop)."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._forever(period))

    async def stop(self) -> None:
        """Stop ticking (a task of this loop; one of a loop gone is dropped)."""
        task, self._task = self._task, None
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
