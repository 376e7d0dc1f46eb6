"""Quick-pairing pools: the time of one pairing pass and of a status
question with the pools full (issue 22 item 1).

Fills the pools to their bounds (``Pools.MAX_TOTAL`` entries spread over
every pool, ratings spread over ``--spread`` points, so few are paired at
once), then times ``Pools.pair`` as the ranges widen step by step (the
test clock moves, nothing sleeps) and ``Pools.waiting`` (what every
waiting page asks each second).  In-process, no server.  Prints p50/p99
in milliseconds.

    nice python bench/pools.py --repeat 30

Measured 2026-12-02 on the shared 2-core machine (other helpers' tests
running), ``nice``, 30 passes of 2000 entries in 24 pools:

=====================================  ==============  ==================
ratings                                pair pass       status question
=====================================  ==============  ==================
1500 ± 1000 (most paired each pass)    p50 64, p99 118 p50 0.002, p99 0.09
1500 ± 100000 (few can be paired)      p50 23, p99 47  p50 0.002, p99 0.11
=====================================  ==============  ==================

(milliseconds; before candidates were found by bisection and the counts
kept with the entries: 222 / 355 ms a pass and 0.68 ms a question.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.pools import Pools


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def fill(pools: Pools, rng: random.Random, spread: float) -> None:
    ids = list(CONTROLS)
    uid = len(pools) + 1_000_000 * rng.randrange(1000)
    while len(pools) < Pools.MAX_TOTAL:
        uid += 1
        pool = ids[uid % len(ids)]
        try:
            pools.join(uid, pool, 1500 + rng.uniform(-spread, spread), rated=uid % 7 != 0)
        except Exception:  # noqa: BLE001 - a full pool: the next one
            continue


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--spread", type=float, default=1000.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    clock = Clock()
    pools = Pools(clock)
    pair_ms, ask_ms, paired = [], [], 0
    for _ in range(args.repeat):
        fill(pools, rng, args.spread)
        clock.now += Pools.STEP_SECONDS
        for e in list(pools._entries.values()):  # noqa: SLF001 - keep every page alive
            e.seen = clock.now
        t = time.perf_counter()
        paired += 2 * len(pools.pair())
        pair_ms.append((time.perf_counter() - t) * 1000)
        some = rng.sample(list(pools._entries), min(200, len(pools)))  # noqa: SLF001
        t = time.perf_counter()
        for uid in some:
            pools.waiting(uid)
        ask_ms.append((time.perf_counter() - t) * 1000 / max(1, len(some)))

    def p(xs: list[float], q: float) -> float:
        return statistics.quantiles(xs, n=100)[q - 1] if len(xs) > 1 else xs[0]

    print(f"entries {Pools.MAX_TOTAL} in {len(CONTROLS)} pools, {args.repeat} passes, "
          f"{paired} players paired")
    print(f"pair pass    p50 {p(pair_ms, 50):.2f} ms  p99 {p(pair_ms, 99):.2f} ms")
    print(f"status ask   p50 {p(ask_ms, 50):.3f} ms  p99 {p(ask_ms, 99):.3f} ms")


if __name__ == "__main__":
    main()
