"""How late the event loop runs while routes' blocking work runs in worker
threads (issue 29.4: where the event day's move tail came from).

The arena's loop carries every move; the routes' blocking work runs in
worker threads, and they all take turns at the interpreter lock.  This
runs, in one process on uvloop as the server does, a loop that wakes
every 10 ms and then does 0.5 ms of work (a move), while ``--clients``
clients each keep ``--each`` jobs of ``--job`` ms of CPU (a list of
games, a page) in the worker threads, for each thread count given
(anyio's default limit was 40; ``Settings.http_threads`` is 4).  Prints
how late the loop woke (p50, p99) and how many ticks it managed.

    python bench/loop_share.py 40 8 4 2

Measured 2026-12-04 on the 2-core machine (load 15-17), 20 clients x 8
jobs of 2 ms: loop lag p99 250-290 ms with 40 threads, 75-90 ms with 8,
29-69 ms with 4, 17-33 ms with 2 (two passes each).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import anyio
import anyio.to_thread
import uvloop


def cpu(ms: float) -> int:
    """Spin ``ms`` milliseconds of this thread's CPU in Python code."""
    end = time.thread_time() + ms / 1000
    x = 0
    while time.thread_time() < end:
        for i in range(200):
            x += i * i
    return x


async def one_run(threads: int, clients: int, each: int, job: float, seconds: float
                  ) -> tuple[float, float, int]:
    anyio.to_thread.current_default_thread_limiter().total_tokens = threads
    lags: list[float] = []
    stop = time.perf_counter() + seconds

    async def ticker() -> None:
        while time.perf_counter() < stop:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - t - 0.01)
            cpu(0.5)  # a move's work on the loop

    async def client() -> None:
        while time.perf_counter() < stop:
            await asyncio.gather(*[anyio.to_thread.run_sync(cpu, job) for _ in range(each)])

    await asyncio.gather(ticker(), *[client() for _ in range(clients)])
    lags.sort()
    return statistics.median(lags) * 1000, lags[int(.99 * len(lags))] * 1000, len(lags)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("threads", type=int, nargs="+", help="worker thread counts to try")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--each", type=int, default=8, help="jobs each client keeps going")
    ap.add_argument("--job", type=float, default=2.0, help="CPU ms of a job")
    ap.add_argument("--seconds", type=float, default=8.0, help="each run's length")
    args = ap.parse_args()
    if not all(1 <= n <= 200 for n in args.threads) or not 0 < args.seconds <= 120:
        raise SystemExit("threads 1..200, --seconds up to 120")
    for n in args.threads:
        p50, p99, ticks = uvloop.run(one_run(n, args.clients, args.each, args.job, args.seconds))
        print(f"threads {n:3d}: loop lag p50 {p50:.1f} ms  p99 {p99:.1f} ms  ticks {ticks}",
              flush=True)


if __name__ == "__main__":
    main()
