"""Engine matches on many machines (issue 15 item 4): ``qisai match ...
--queue redis://...`` hands each game of a match, round robin or gauntlet
to the ``qisai worker`` processes through a Redis queue (arq), as fishtest
hands Stockfish's games to its workers.

The runner stays the one that keeps the books: it makes the games' list
(openings, colours, pairings) exactly as :func:`~qisai.competition.match.run_match`
does, collects the workers' :class:`~qisai.competition.match.GameRecord`
(each game refereed on its worker by the same code as a local game:
verdicts, faults, adjudication), writes the PGN/SGF, and computes Elo, LOS
and SPRT.  A worker that dies mid-game has its game played again by
another (arq retries a job whose worker stopped answering for it).

Jobs travel pickled (arq's default): the queue's Redis is for the
cluster's own machines only.  Each worker runs the engines' commands as the
runner wrote them, so the engines must be installed at the same paths on
every worker (``cmd=builtin`` is qisai's own engine: it must be installed
there too).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arq import create_pool
from arq.connections import RedisSettings

from qisai.competition.match import (
    GameRecord,
    MatchConfig,
    MatchReport,
    _Job,
    _jobs,
    _play_job,
    _Seat,
    take_record,
)

__all__ = ["MATCH_JOB", "MATCH_QUEUE", "match_game", "run_match_queued"]

MATCH_JOB = "match_game"
"""The arq function name of one match game."""
MATCH_QUEUE = "qisai:match"
"""The queue of match games (apart from the engine moves of the arena,
whose jobs are short and retried sooner)."""


async def match_game(ctx: dict[str, Any], config: MatchConfig, job: _Job) -> GameRecord:
    """The worker's side: play game ``job`` of ``config`` and return its
    record (engine faults are in the record, never raised)."""
    seat = _Seat(config)
    try:
        return await _play_job(config, config.profile(), seat, job)
    finally:
        await seat.close()


async def run_match_queued(config: MatchConfig, redis_url: str,
                           on_game: Callable[[GameRecord, MatchReport], None] | None = None,
                           game_timeout: float = 24 * 3600.0) -> MatchReport:
    """Play the match on the workers and return its report, as
    :func:`~qisai.competition.match.run_match` does locally.

    At most ``config.concurrency`` games are queued at once (so that an
    SPRT stop leaves little work behind).  Raises :class:`TimeoutError` if a
    game's record does not come back within ``game_timeout`` seconds, and
    Redis's errors if the queue cannot be reached.
    """
    jobs = _jobs(config)
    report = MatchReport(config)
    for path in (config.pgnout, config.sgfout):
        if path is not None:
            Path(path).write_text("", encoding="utf-8")
    redis = await create_pool(RedisSettings.from_dsn(redis_url),
                              default_queue_name=MATCH_QUEUE)
    window = max(1, config.concurrency)
    pending: set[asyncio.Task[Any]] = set()
    queue = list(jobs)
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def one(job: _Job) -> GameRecord:
        queued = await redis.enqueue_job(MATCH_JOB, config, job, _queue_name=MATCH_QUEUE)
        assert queued is not None
        record: GameRecord = await queued.result(timeout=game_timeout, poll_delay=0.1)
        return record

    try:
        stop = False
        while (queue and not stop) or pending:
            while queue and not stop and len(pending) < window:
                pending.add(loop.create_task(one(queue.pop(0))))
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if take_record(config, report, task.result(), on_game):
                    stop = True
    finally:
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await redis.aclose()
    report.wall = loop.time() - started
    report.games.sort(key=lambda r: r.number)
    return report
