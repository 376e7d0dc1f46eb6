"""``qisai worker``: an engine worker of a cluster (issue 15 items 3, 4).

It takes jobs from the cluster's Redis (arq queues): the engine moves of
the arena's games (``qisai serve --engine-queue``) and the games of engine
matches (``qisai match ... --queue``).  Start as many as the machines have
cores to spare; a job whose worker dies is run again by another.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import typer

from qisai.cli import say

__all__ = ["register", "worker"]


def worker(
    redis_url: str = typer.Option(
        "", "--redis-url", help="The cluster's Redis (default $QISAI_REDIS_URL)."),
    engine: list[str] = typer.Option(  # noqa: B008 - typer's idiom
        [], "--engine",
        help="An engine the arena's games may name (repeatable), as for `qisai serve`: "
             "NAME=gtp:COMMAND (Go) or NAME=[ucci:|xboard:]COMMAND (Xiangqi); builtin is "
             "always there.  Each server's --engine names must be configured here too."),
    processes: int = typer.Option(
        0, "--processes", min=0, max=1024,
        help="Engine processes at once for the arena's moves (default: the CPUs)."),
    matches: int = typer.Option(
        1, "--matches", min=0, max=256, help="Match games played at once (0: none)."),
    move_timeout: float = typer.Option(
        60.0, "--move-timeout", min=1.0, max=3600.0,
        help="Most seconds one engine move may take (a move whose worker died is given to "
             "another by the server within 2 s: the worker's heartbeat stops)."),
    game_timeout: float = typer.Option(
        6 * 3600.0, "--game-timeout", min=10.0, max=7 * 24 * 3600.0,
        help="Most seconds one match game may take (likewise for a dead worker's game)."),
    burst: bool = typer.Option(False, "--burst", help="Stop when the queues are empty."),
) -> None:
    """Run engine jobs from the cluster's Redis until stopped (Ctrl-C)."""
    import asyncio

    try:
        from arq.connections import RedisSettings
        from arq.worker import Worker, func

        from qisai.cluster.config import check_url
        from qisai.cluster.config import redis_url as env_redis_url
        from qisai.competition.queued import MATCH_JOB, MATCH_QUEUE, match_game
        from qisai.engines.pool import EnginePool
        from qisai.web.cluster.remote_engines import JOB, engine_job
        from qisai.web.play.resources import default_processes
        from qisai.web.seats.opponents import parse_spec
    except ImportError as exc:  # pragma: no cover - the cluster extra is missing
        raise say.fail(f"qisai worker 需要 cluster 附加组件（pip install 'qisai[cluster]'）：{exc}",
                       f"qisai worker needs the cluster extra (pip install "
                       f"'qisai[cluster]'): {exc}") from exc
    try:
        url = check_url(redis_url) if redis_url else env_redis_url()
    except ValueError as exc:
        raise say.fail(f"--redis-url：{exc}",
                       f"--redis-url: {exc}") from None
    if url is None:
        raise say.fail("没有 Redis：请给出 --redis-url redis://主机:端口/0 或设置 QISAI_REDIS_URL",
                       "no Redis: pass --redis-url redis://HOST:PORT/0 or set QISAI_REDIS_URL")
    engines: dict[str, str] = {}
    for spec in engine:
        name, sep, command = spec.partition("=")
        if not sep or not re.fullmatch(r"[\w.+-]+", name.strip()):
            raise say.fail(f"--engine {spec!r}：应写作 名称=命令",
                           f"--engine {spec!r}: expected NAME=COMMAND")
        try:
            parse_spec(command.strip())
        except ValueError as exc:
            raise say.fail(f"--engine {spec!r}：{exc}",
                           f"--engine {spec!r}: {exc}") from None
        engines[name.strip()] = command.strip()
    size = processes or default_processes()

    async def startup(ctx: dict[str, Any]) -> None:
        ctx["pool"] = EnginePool(size)
        ctx["engines"] = engines

    async def shutdown(ctx: dict[str, Any]) -> None:
        pool = ctx.get("pool")
        if pool is not None:
            await pool.close()

    async def run() -> None:
        settings = RedisSettings.from_dsn(url)
        # Two queues, two arq workers: arq marks a job in progress for the
        # longest timeout of its worker's functions, and a dead worker's
        # engine move must be retried in seconds, not after a game's hours.
        def moves() -> Worker:
            return Worker([func(engine_job, name=JOB, timeout=move_timeout, max_tries=3)],
                          redis_settings=settings, max_jobs=size, poll_delay=0.02,
                          keep_result=120, on_startup=startup, on_shutdown=shutdown,
                          burst=burst, handle_signals=False)

        def games() -> Worker:
            return Worker([func(match_game, name=MATCH_JOB, timeout=game_timeout,
                                max_tries=3)],
                          queue_name=MATCH_QUEUE, redis_settings=settings,
                          max_jobs=matches, poll_delay=0.1, keep_result=3600,
                          burst=burst, handle_signals=False)

        async def keep(make: Any) -> None:
            # Redis going away ends an arq worker's run: start it again once
            # Redis answers, so a worker outlives an outage (issue 30.2).
            while True:
                w = make()
                try:
                    await w.async_run()
                    return  # --burst: the queue is empty
                except Exception as exc:
                    typer.echo(f"qisai worker: lost Redis ({type(exc).__name__}: {exc}); "
                               "retrying", err=True)
                    await asyncio.sleep(1.0)
                finally:
                    with contextlib.suppress(Exception):
                        await w.close()

        main = asyncio.current_task()
        if main is not None:  # SIGTERM stops the engines too, as Ctrl-C does
            import signal

            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(keep(moves), *([keep(games)] if matches else []))

    shown = url.split("@")[-1]
    typer.echo(f"qisai worker: {shown}, {size} engine processes, {matches} match games at once",
               err=True)
    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass


def register(app: typer.Typer) -> None:
    """Add ``qisai worker`` to ``app``."""
    app.command("worker")(worker)


