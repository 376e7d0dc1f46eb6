"""Engine moves on worker machines (issue 15 item 3): the server enqueues
"move wanted" on Redis and awaits the answer; ``qisai worker`` processes
take the jobs and run the engine in their own pool of processes.

The queue is arq's (see the README's note on the choice): an asyncio
library, so the server awaits a job's result on its own loop without a
thread, and a job whose worker dies is run again by another once its
in-progress mark expires (arq's ``job_timeout`` plus ten seconds).  A job
is wanted only as long as its game can wait (``_expires``), and the server
stops waiting when the engine's clock allows no more: the engine then has
failed and loses on time (4.1.4, 22.1; Go 3) through the hub's ruling, so a
game never waits forever.

Jobs travel pickled (arq's default), as requests with the referee's board
copies: the Redis of a cluster must be reachable by its own servers and
workers only.  A worker plays only the engines it is configured with
(``qisai worker --engine NAME=SPEC``; ``builtin`` always): a job names the
engine, never a command.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from typing import Any

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from arq.constants import (
    default_queue_name,
    in_progress_key_prefix,
    job_key_prefix,
    result_key_prefix,
)
from arq.jobs import deserialize_result

from qisai.engines.errors import EngineMoveError, EngineProtocolError, EngineStartError
from qisai.engines.pool import EnginePool
from qisai.go.coords import Point
from qisai.web.seats.opponents import (
    BUILTIN,
    BuiltinGoSeat,
    BuiltinXiangqiSeat,
    GoRequest,
    GtpGoSeat,
    PooledSeat,
    Seat,
    UciXiangqiSeat,
    XiangqiRequest,
    parse_spec,
)

__all__ = ["JOB", "RemoteEngines", "RemoteSeat", "WorkerLost", "engine_job", "make_seat"]

log = logging.getLogger("qisai.cluster")


class WorkerLost(Exception):
    """The worker running a job stopped beating (killed, its machine gone)."""

JOB = "engine_job"
"""The arq function name of an engine job."""
POLL = 0.02
"""Seconds between looks for a job's result (arq polls Redis)."""
ALIVE = "qisai:job-alive:"
"""Prefix of the key a worker renews while it runs a job (its heartbeat)."""
BEAT = 0.4
"""Seconds between two heartbeats of a running job."""
ALIVE_MS = 1500
"""A heartbeat's life: a job unheard of this long has lost its worker."""
START_GRACE = 1.5
"""Seconds a job marked in progress may go without its first heartbeat."""
_ERRORS: dict[str, type[Exception]] = {
    "EngineStartError": EngineStartError, "EngineMoveError": EngineMoveError,
    "EngineProtocolError": EngineProtocolError}


def make_seat(kind: str, name: str, engines: dict[str, str], pool: EnginePool,
              owner: str) -> PooledSeat:
    """Return the seat of engine ``name`` (``builtin`` or one of ``engines``,
    name -> spec) for a ``kind`` game.  Raises :class:`RuntimeError` for an
    engine not configured here, :class:`ValueError` for a bad spec."""
    if name == BUILTIN:
        return BuiltinGoSeat(pool, owner) if kind == "go" else BuiltinXiangqiSeat(pool, owner)
    raw = engines.get(name)
    if raw is None:
        raise RuntimeError(f"engine {name!r} is not configured on this worker (--engine)")
    spec = parse_spec(raw)
    if spec.kind != kind:
        raise RuntimeError(f"engine {name!r} plays {spec.kind}, not {kind}")
    return (GtpGoSeat(spec, name, pool, owner) if spec.protocol == "gtp"
            else UciXiangqiSeat(spec, name, pool, owner))


async def engine_job(ctx: dict[str, Any], what: str, kind: str, name: str,
                     request: GoRequest | XiangqiRequest, seconds: float | None = None
                     ) -> dict[str, Any]:
    """The worker's side of one job: ``what`` is ``move``, ``dead`` (Go's dead
    stones) or ``evaluate`` (a Xiangqi score for ``seconds``).  Returns
    ``{"ok": answer}`` or ``{"error": class name, "message": ...}`` (an
    engine's failure is the server's to rule on, never the worker's crash)."""
    seat: PooledSeat | None = None
    beat = asyncio.get_running_loop().create_task(_heartbeat(ctx))
    try:
        seat = make_seat(kind, name, ctx.get("engines", {}), ctx["pool"], f"job-{ctx['job_id']}")
        if what == "move":
            answer: Any = await seat.move(request)
        elif what == "dead":
            assert isinstance(request, GoRequest)
            answer = sorted(await seat.dead_stones(request))
        elif what == "evaluate" and isinstance(seat, UciXiangqiSeat):
            assert isinstance(request, XiangqiRequest)
            answer = await seat.evaluate(request, float(seconds or 0.1))
        else:
            raise RuntimeError(f"unknown engine job {what!r}")
        return {"ok": answer}
    except Exception as exc:  # returned to the server, which rules on it
        return {"error": type(exc).__name__, "message": str(exc)[:500]}
    finally:
        beat.cancel()
        if seat is not None:
            await seat.close()


async def _heartbeat(ctx: dict[str, Any]) -> None:
    """Say every :data:`BEAT` seconds that this worker still runs the job
    (``ALIVE + job id``, holding the worker's process id, expiring after
    :data:`ALIVE_MS`): a server sees a worker killed mid-think within two
    seconds instead of arq's in-progress mark (the move timeout plus ten)."""
    redis = ctx.get("redis")
    if redis is None:
        return
    key = ALIVE + str(ctx["job_id"])
    while True:
        try:
            await redis.set(key, str(os.getpid()), px=ALIVE_MS)
        except Exception as exc:  # Redis away: the server will judge the worker lost
            log.warning("engine job heartbeat: %s", exc)
        await asyncio.sleep(BEAT)


class RemoteEngines:
    """The server's side of the queue at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.redis: ArqRedis | None = None

    async def start(self) -> None:
        """Connect (raises :class:`OSError` or Redis's errors if it cannot)."""
        self.redis = await create_pool(RedisSettings.from_dsn(self.url))

    async def stop(self) -> None:
        """Disconnect."""
        if self.redis is not None:
            await self.redis.aclose()
            self.redis = None

    async def depth(self) -> int:
        """Return the number of jobs waiting or running."""
        if self.redis is None:
            return 0
        from arq.constants import default_queue_name

        return int(await self.redis.zcard(default_queue_name))

    async def ask(self, what: str, kind: str, name: str, request: GoRequest | XiangqiRequest,
                  seconds: float | None = None,
                  on_wait: Callable[[bool], None] | None = None) -> Any:
        """Enqueue a job and return its answer within ``request.timeout``
        seconds.  A worker lost mid-job (no heartbeat) is seen within two
        seconds: the job goes to another worker at once, ``on_wait(True)``
        says the engine waits meanwhile (``on_wait(False)`` once a worker
        has it), and the time lost does not count against the timeout
        (issue 30.4).  Raises :class:`TimeoutError` if no answer comes in
        time (the engine cannot move: it loses on time) and the engine's
        own failure as the engines' error it was."""
        if self.redis is None:
            raise RuntimeError("the engine queue is not connected")
        deadline = time.monotonic() + request.timeout
        waiting = False
        told: list[bool] = []

        def taken(flag: bool) -> None:  # a worker has the job again: the page says so once
            if on_wait is not None and not told:
                told.append(flag)
                on_wait(flag)
        for _ in range(10):  # ten lost workers in a row: something else is wrong
            job = await self.redis.enqueue_job(JOB, what, kind, name, request, seconds,
                                               _expires=max(1.0, request.timeout))
            if job is None:  # pragma: no cover - arq: a job id already taken
                raise RuntimeError("the engine job could not be queued")
            try:
                result = await self._wait(job.job_id, deadline, taken if waiting else None)
            except WorkerLost as lost:
                lost_for = float(lost.args[0])
                log.warning("engine job %s: its worker is lost (%.1f s without a heartbeat); "
                            "asking another", job.job_id, lost_for)
                await self._drop(job.job_id)
                deadline += lost_for  # not charged to the wait (30.4)
                if on_wait is not None and not waiting:
                    on_wait(True)
                waiting = True
                continue
            break
        else:
            raise RuntimeError("the engine's workers kept dying")
        if waiting:
            taken(False)
        if not isinstance(result, dict):
            raise EngineProtocolError(f"a worker answered {type(result).__name__}")
        if "error" in result:
            cls = _ERRORS.get(str(result["error"]))
            message = f"{result['error']}: {result.get('message', '')}"
            if cls is EngineMoveError:
                raise EngineMoveError(message, str(result.get("message", "")))
            if cls is not None:
                raise cls(message)
            raise RuntimeError(f"worker: {message}")
        return result["ok"]

    async def _wait(self, job_id: str, deadline: float,
                    on_taken: Callable[[bool], None] | None) -> Any:
        """Return the result of ``job_id``; raises :class:`WorkerLost` (with
        the seconds lost) when its worker stops beating, :class:`TimeoutError`
        past ``deadline``.  ``on_taken(False)`` is called once a worker
        takes the job (the engine no longer waits)."""
        assert self.redis is not None
        started_unheard: float | None = None
        last_alive: float | None = None
        next_look = 0.0
        timeout = max(0.0, deadline - time.monotonic())
        while True:
            now = time.monotonic()
            if now > deadline:
                raise TimeoutError(f"no worker answered within {timeout:.1f} s")
            look = now >= next_look
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.get(result_key_prefix + job_id)
                if look:
                    pipe.exists(in_progress_key_prefix + job_id)
                    pipe.exists(ALIVE + job_id)
                got = await pipe.execute()
            if got[0]:
                info = deserialize_result(got[0])
                if info.success:
                    return info.result
                raise RuntimeError(f"worker: the engine job failed: {info.result!r}")
            if look:
                next_look = now + BEAT / 2
                started, alive = bool(got[1]), bool(got[2])
                if alive:
                    if last_alive is None and on_taken is not None:
                        on_taken(False)
                    last_alive = now
                elif started:
                    if last_alive is not None:  # it beat, then stopped: lost
                        raise WorkerLost(now - last_alive)
                    started_unheard = started_unheard or now
                    if now - started_unheard > START_GRACE:
                        raise WorkerLost(now - started_unheard)
            await asyncio.sleep(POLL)

    async def _drop(self, job_id: str) -> None:
        """Forget a lost worker's job, so that arq does not run it again
        once its in-progress mark expires (its answer is wanted no more)."""
        assert self.redis is not None
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zrem(default_queue_name, job_id)
                pipe.delete(job_key_prefix + job_id)
                await pipe.execute()
        except Exception as exc:  # it may run once more; its answer is ignored
            log.warning("engine job %s: cannot drop it: %s", job_id, exc)


class RemoteSeat(Seat):
    """A game's engine seat whose work runs on the workers."""

    def __init__(self, engines: RemoteEngines, kind: str, name: str) -> None:
        self.engines = engines
        self.kind = kind
        self.name = name
        self.on_wait: Callable[[bool], None] | None = None
        """Told ``True`` when the engine waits for another worker (its own
        was lost), ``False`` when one has its job (the hub sets it)."""

    async def move(self, request: Any) -> str:
        """Return the engine's move (see :meth:`Seat.move`)."""
        return str(await self.engines.ask("move", self.kind, self.name, request,
                                          on_wait=self.on_wait))

    async def dead_stones(self, request: GoRequest) -> frozenset[Point]:
        """Return the engine's dead stones (Go 4(4))."""
        points = await self.engines.ask("dead", self.kind, self.name, request,
                                        on_wait=self.on_wait)
        return frozenset((int(p[0]), int(p[1])) for p in points)

    async def evaluate(self, request: XiangqiRequest, seconds: float
                       ) -> tuple[int | None, int | None]:
        """Return the engine's score for the side to move (23.1's draw offer)."""
        cp, mate = await self.engines.ask("evaluate", self.kind, self.name, request, seconds)
        return cp, mate

    async def close(self) -> None:
        """Nothing to stop here: the processes are the workers'."""
