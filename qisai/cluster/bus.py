"""The Redis of a server process: the channel every stored change of a game
is published on, and the clock leases.

Publishing never blocks the caller: :meth:`Bus.publish` puts the message in
a bounded queue that one task sends in order (so a process's own messages
reach Redis in the order its games changed).  Receiving is one pub/sub
subscription per process; each message goes to ``on_message`` unless this
process sent it.  When Redis goes away both tasks keep retrying; the
database stays the one truth meanwhile (moves are still stored), and when
the subscription is back ``on_reconnect`` lets the caller resynchronise
its sockets from the database.

Leases: the process that ticks a game's clock holds ``qisai:lease:GAME``
(its ``origin`` as value, an expiry of :attr:`Bus.lease_ms`) and renews it;
when it dies the key expires and another process takes it.  The set
``qisai:clocked`` names the games whose clocks run, so that a process can
take over a game it has never loaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from redis import asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["CHANNEL", "CLOCKED", "Bus"]

log = logging.getLogger("qisai.cluster")

CHANNEL = "qisai:games"
"""The pub/sub channel of every game's changes."""
CLOCKED = "qisai:clocked"
"""The set of games whose clocks run (lease candidates)."""
LEASE = "qisai:lease:"
"""Prefix of a game's clock lease."""
MAX_QUEUE = 10_000
"""Messages waiting to be published at most; past that the oldest are
dropped (Redis is down: the sockets resynchronise when it is back)."""

# Renew (or release) a lease only if this process still holds it: a GET
# then PEXPIRE from the client could extend a lease another process took
# in between.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""

OnMessage = Callable[[dict[str, Any]], Awaitable[None]]
OnReconnect = Callable[[], Awaitable[None]]


class Bus:
    """One process's link to the cluster's Redis at ``url``.

    ``on_message`` receives every other process's message (a JSON object);
    ``on_reconnect`` runs each time the subscription comes back after a
    loss.  :meth:`start` and :meth:`stop` run and end the two tasks.
    """

    lease_ms = 3000
    """A clock lease's life; it is renewed three times as often."""

    def alive(self) -> bool:
        """Return whether the publishing and listening tasks still run."""
        return bool(self._tasks) and not any(t.done() for t in self._tasks)

    @property
    def started(self) -> bool:
        """Whether the publishing and listening tasks were started."""
        return bool(self._tasks)

    def __init__(self, url: str, on_message: OnMessage, on_reconnect: OnReconnect) -> None:
        self.url = url
        self.origin = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process's name on the bus (its messages carry it)."""
        self.client = aioredis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0,
                                              health_check_interval=5)
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.up = False
        """Whether the subscription is live now."""
        self._out: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()

    # ------------------------------------------------------------ running
    async def start(self) -> None:
        """Start publishing and receiving; waits (at most two seconds) for
        the subscription, so that a process started is a process that hears."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._publisher()), loop.create_task(self._listener())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), 2.0)

    async def stop(self) -> None:
        """Stop both tasks and close the connections."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        with contextlib.suppress(RedisError, OSError):
            await self.client.aclose()

    async def ping(self) -> bool:
        """Return whether Redis answers now."""
        try:
            return bool(await self.client.ping())
        except (RedisError, OSError):
            return False

    # ---------------------------------------------------------- messages
    def publish(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (a JSON object) for every other process; never
        blocks.  ``message["clock"]``, when present, adds (``True``) or
        removes (``False``) the game ``message["g"]`` from the clocked set."""
        if self._out.qsize() >= MAX_QUEUE:
            with contextlib.suppress(asyncio.QueueEmpty):
                self._out.get_nowait()
        self._out.put_nowait({**message, "o": self.origin})

    async def _publisher(self) -> None:
        announced: set[str] = set()  # games this process has put in the clocked set
        while True:
            # Whatever queued up meanwhile goes in one round trip, in order.
            batch = [await self._out.get()]
            while len(batch) < 256 and not self._out.empty():
                batch.append(self._out.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for message in batch:
                        clock, game = message.get("clock"), message["g"]
                        if clock is True and game not in announced:
                            pipe.sadd(CLOCKED, game)
                            announced.add(game)
                        elif clock is False:
                            pipe.srem(CLOCKED, game)
                            announced.discard(game)
                        pipe.publish(CHANNEL, json.dumps(message, ensure_ascii=False))
                    await pipe.execute()
            except Exception as exc:  # Redis away, or anything else: never stop (30.2)
                announced.clear()  # Redis may have lost them: say them again
                # Dropped: the change is in the database, and the others
                # resynchronise their sockets when they hear Redis again.
                log.warning("cannot publish on Redis: %s", exc)
                await asyncio.sleep(0.2)

    async def _listener(self) -> None:
        lost = False
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.up = True
                self._subscribed.set()
                if lost:
                    lost = False
                    try:
                        await self.on_reconnect()
                    except Exception:  # the caller's own loops catch up later
                        log.exception("resynchronising after Redis came back failed")
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    try:
                        data = json.loads(msg["data"])
                    except ValueError:
                        continue
                    if isinstance(data, dict) and data.get("o") != self.origin:
                        try:
                            await self.on_message(data)
                        except Exception:  # one bad message never stops the relay
                            log.exception("relaying a message failed")
            except Exception as exc:  # Redis away, or anything else: never stop (30.2)
                if self.up:
                    log.warning("lost Redis: %s; retrying", exc)
                self.up = False
                lost = True
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(RedisError, OSError, RuntimeError):
                    await pubsub.aclose()

    # ------------------------------------------------------------ leases
    async def clocked(self) -> set[str]:
        """Return the games whose clocks run (raises :class:`RedisError`)."""
        return {m.decode() if isinstance(m, bytes) else str(m)
                for m in await self.client.smembers(CLOCKED)}

    async def unclock(self, game_id: str) -> None:
        """Strike ``game_id`` from the clocked set (its game is over)."""
        await self.client.srem(CLOCKED, game_id)

    async def acquire(self, game_id: str) -> bool:
        """Take the clock lease of ``game_id`` if nobody holds it; returns
        whether this process holds it now.  Raises :class:`RedisError`."""
        return bool(await self.client.set(LEASE + game_id, self.origin, nx=True,
                                          px=self.lease_ms))

    async def renew(self, game_id: str) -> bool:
        """Extend this process's lease of ``game_id``; returns ``False`` if it
        had lost it.  Raises :class:`RedisError`."""
        done = await self.client.eval(_RENEW, 1, LEASE + game_id, self.origin,
                                      str(self.lease_ms))
        return bool(done)

    async def release(self, game_id: str) -> None:
        """Give up this process's lease of ``game_id`` (if it holds it)."""
        await self.client.eval(_RELEASE, 1, LEASE + game_id, self.origin)
