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

__all__ = ["GAME_THREADS", "LOOKUP_THREADS", "game_limiter", "lookup_limiter"]

GAME_THREADS = 4
"""Threads for the games' loads and appends (SQLite writes one at a time;
more would only queue on its lock)."""

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


def lookup_limiter() -> anyio.CapacityLimiter:
    """Return the running loop's limiter for the sockets' session look-ups."""
    return _limiter("lookups", LOOKUP_THREADS)
