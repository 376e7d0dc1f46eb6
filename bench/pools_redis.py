"""Quick-pairing pools kept in Redis (issues 15 and 22): the time of one
pairing pass, of a join and of a status question with the pools full, as
``bench/pools.py`` measures the in-memory pools.

Starts a private ``redis-server`` on a free loopback port (no persistence;
or uses ``--redis-url``, whose ``{qisai:pools}`` keys it deletes), fills
the pools to ``Pools.MAX_TOTAL`` entries spread over every pool (ratings
spread over ``--spread`` points), then, ``--repeat`` times: refills, moves
the test clock one range step, keeps every page alive, and times a pairing
pass by two "processes" at once (two clients pairing the same entries: each
pair is taken by one of them) and 200 status questions.  Bounded; prints
p50/p99 in milliseconds.

    nice python bench/pools_redis.py --repeat 20

Measured 2026-12-02 on the shared 2-core machine (load average 4 to 4.6,
other helpers' tests running), ``nice``, 20 passes of 2000 entries in 24
pools, Redis 7.0 on loopback:

=====================================  ===============  ============  ============
ratings                                pair pass, two   join          status ask
                                       clients at once
=====================================  ===============  ============  ============
1500 ± 1000 (most paired each pass)    p50 108, p99 136 p50 0.70      p50 0.21
1500 ± 100000 (few can be paired)      p50 47, p99 307  p50 0.59      p50 0.26
=====================================  ===============  ============  ============

(milliseconds; ``bench/pools.py``, the in-memory pools, at the same time:
pair pass p50 9 / 2.8 ms, status question 0.001 ms.  A pass reads every
entry and pairs in Python; Redis itself is held only by the short Lua
scripts.  Expiry reads the seen times from a sorted set: before, from a
hash, a join cost 0.9 to 1.25 ms.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator

from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.pools import PoolError, Pools
from qisai.web.lobby.shared import ENTRIES, SEEN, RedisPools


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """Run a ``redis-server`` of our own; yield its URL."""
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", folder],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            import redis

            deadline = time.monotonic() + 20
            while True:
                try:
                    if redis.Redis(port=port, socket_timeout=0.5).ping():
                        break
                except redis.RedisError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("redis-server did not start") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.kill()
            proc.wait(timeout=10)


async def fill(pools: RedisPools, rng: random.Random, spread: float, uid: int) -> int:
    ids = list(CONTROLS)
    while await pools.size() < Pools.MAX_TOTAL:
        uid += 1
        try:
            await pools.join(uid, ids[uid % len(ids)], 1500 + rng.uniform(-spread, spread),
                             rated=uid % 7 != 0)
        except PoolError:  # a full pool: the next one
            continue
    return uid


async def run(url: str, repeat: int, spread: float, seed: int) -> None:
    rng = random.Random(seed)
    clock = Clock()
    a, b = RedisPools(url, clock), RedisPools(url, clock)
    try:
        keys = await a.redis.keys("{qisai:pools}:*")
        if keys:
            await a.redis.delete(*keys)
        pair_ms, ask_ms, join_ms, paired, uid = [], [], [], 0, 0
        for _ in range(repeat):
            before = uid
            t = time.perf_counter()
            uid = await fill(a, rng, spread, uid)
            join_ms.append((time.perf_counter() - t) * 1000 / max(1, uid - before))
            clock.now += Pools.STEP_SECONDS
            users = await a.redis.hkeys(ENTRIES)
            await a.redis.zadd(SEEN, dict.fromkeys(users, clock.now))
            t = time.perf_counter()
            one, two = await asyncio.gather(a.pair(), b.pair())
            pair_ms.append((time.perf_counter() - t) * 1000)
            paired += 2 * (len(one) + len(two))
            left = await a.redis.hkeys(ENTRIES)
            some = rng.sample(left, min(200, len(left)))
            t = time.perf_counter()
            for u in some:
                await a.waiting(int(u))
            ask_ms.append((time.perf_counter() - t) * 1000 / max(1, len(some)))
        keys = await a.redis.keys("{qisai:pools}:*")
        if keys:
            await a.redis.delete(*keys)
    finally:
        await a.close()
        await b.close()

    def p(xs: list[float], q: int) -> float:
        return statistics.quantiles(xs, n=100)[q - 1] if len(xs) > 1 else xs[0]

    print(f"entries {Pools.MAX_TOTAL} in {len(CONTROLS)} pools (Redis), {repeat} passes, "
          f"{paired} players paired")
    print(f"pair pass (2 clients at once)  p50 {p(pair_ms, 50):.2f} ms  "
          f"p99 {p(pair_ms, 99):.2f} ms")
    print(f"join                           p50 {p(join_ms, 50):.3f} ms  "
          f"p99 {p(join_ms, 99):.3f} ms")
    print(f"status ask                     p50 {p(ask_ms, 50):.3f} ms  "
          f"p99 {p(ask_ms, 99):.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--spread", type=float, default=1000.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--redis-url", help="a Redis to use instead of a private one")
    args = ap.parse_args()
    if not 2 <= args.repeat <= 200:
        raise SystemExit("--repeat 2..200")
    if args.redis_url:
        asyncio.run(run(args.redis_url, args.repeat, args.spread, args.seed))
        return
    with private_redis() as url:
        asyncio.run(run(url, args.repeat, args.spread, args.seed))


if __name__ == "__main__":
    main()
