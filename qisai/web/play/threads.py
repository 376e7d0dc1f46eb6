"""Worker threads of their own for the game domain.

Blocking work that a move waits for (loading a game, appending its events,
asking the database whether a copy is behind, a socket's session look-up)
runs on a few threads reserved for it, never on the server's shared pool,
where a flood of HTTP requests from one client could make every game wait
for a thread (issue 14.2: no single client slows the server for the
others).  anyio's limiters belong to one event loop, so each loop gets its
own (tests run several apps, each in its own loop)."""

from __future__ import annotations

import asyncio
import weakref

import anyio

__all__ = ["ENDING_THREADS", "GAME_THREADS", "LOOKUP_THREADS", "ending_limiter", "game_limiter",
           "lookup_limiter"]

GAME_THREADS = 4
"""Threads for the games' loads and appends (SQLite writes one at a time;
more would only queue on its lock)."""

ENDING_THREADS = 2
"""Threads for a finished game's last write: with it an event's board
result is entered, which waits its turn for the event (one writer at a
time) and ranks it.  In the 500-player event-day bench such a write held
a thread 35-460 ms for 9-13 ms of CPU; on the games' own threads the
finishing boards of a round took all four, and moves waiting for a
thread waited behind them (issue 29.4)."""

LOOKUP_THREADS = 4
"""Threads for the sockets' session look-ups."""

_LIMITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, anyio.CapacityLimiter]] = \
    weakref.WeakKeyDictionary()


def _limiter(name: str, size: int) -> anyio.CapacityLimiter:
    loop = asyncio.get_running_loop()
    mine = _LIMITERS.setdefault(loop, {})
    limiter = mine.get(name)
    if limiter is None:
        limiter = mine[name] = anyio.CapacityLimiter(size)
    return limiter


def game_limiter() -> anyio.CapacityLimiter:
    """Return the running loop's limiter for the games' blocking work."""
    return _limiter("games", GAME_THREADS)


def ending_limiter() -> anyio.CapacityLimiter:
    """Return the running loop's limiter for finished games' last writes."""
    return _limiter("endings", ENDING_THREADS)


def lookup_limiter() -> anyio.CapacityLimiter:
    """Return the running loop's limiter for the sockets' session look-ups."""
    return _limiter("lookups", LOOKUP_THREADS)
