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

import time
from typing import Any

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings

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

__all__ = ["JOB", "RemoteEngines", "RemoteSeat", "engine_job", "make_seat"]

JOB = "engine_job"
"""The arq function name of an engine job."""
POLL = 0.02
"""Seconds between looks for a job's result (arq polls Redis)."""
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
        if seat is not None:
            await seat.close()


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
                  seconds: float | None = None) -> Any:
        """Enqueue a job and return its answer within ``request.timeout``
        seconds.  Raises :class:`TimeoutError` if none comes in time (the
        engine cannot move: it loses on time) and the engine's own failure
        as the engines' error it was."""
        if self.redis is None:
            raise RuntimeError("the engine queue is not connected")
        start = time.monotonic()
        job = await self.redis.enqueue_job(JOB, what, kind, name, request, seconds,
                                           _expires=max(1.0, request.timeout))
        if job is None:  # pragma: no cover - arq: a job id already taken
            raise RuntimeError("the engine job could not be queued")
        left = max(0.05, request.timeout - (time.monotonic() - start))
        try:
            result = await job.result(timeout=left, poll_delay=POLL)
        except TimeoutError:
            raise TimeoutError(f"no worker answered within {request.timeout:.1f} s") from None
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


class RemoteSeat(Seat):
    """A game's engine seat whose work runs on the workers."""

    def __init__(self, engines: RemoteEngines, kind: str, name: str) -> None:
        self.engines = engines
        self.kind = kind
        self.name = name
        self.on_wait: Any = None  # the hub sets it; a queue has no "waiting" of its own

    async def move(self, request: Any) -> str:
        """Return the engine's move (see :meth:`Seat.move`)."""
        return str(await self.engines.ask("move", self.kind, self.name, request))

    async def dead_stones(self, request: GoRequest) -> frozenset[Point]:
        """Return the engine's dead stones (Go 4(4))."""
        points = await self.engines.ask("dead", self.kind, self.name, request)
        return frozenset((int(p[0]), int(p[1])) for p in points)

    async def evaluate(self, request: XiangqiRequest, seconds: float
                       ) -> tuple[int | None, int | None]:
        """Return the engine's score for the side to move (23.1's draw offer)."""
        cp, mate = await self.engines.ask("evaluate", self.kind, self.name, request, seconds)
        return cp, mate

    async def close(self) -> None:
        """Nothing to stop here: the processes are the workers'."""
