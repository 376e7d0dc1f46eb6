"""Load benchmark of the arena as a cluster (issue 15): the bots of
``bench/arena_load.py`` against 1 and then 2 ``qisai serve`` processes on
one PostgreSQL and one Redis, on loopback.

With 2 processes the two players of every game sit on different processes,
so every move crosses them: stored by the process of the mover, published on
Redis, relayed by the other process to the opponent's socket.  Prints for
each run: moves/s, p50/p99 round trip (send to ack), the servers' CPU per
move (and Redis's), the delivery latency to the opponent's socket (p50/p99:
a move sent to process A, seen on a socket of process B; with 1 process the
same-process baseline) and the projected capacity per core.

Needs PostgreSQL (``--pg-url`` or ``QISAI_TEST_POSTGRES_URL``) and Debian's
``redis-server`` (a private one is started on a free port).  Bounded: at
most ``--duration`` seconds of play a run.

    python bench/arena_cluster.py --games 100 --plies 40 --think 0.5
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from arena_load import LAUNCH, cpu_seconds, free_port, guest, percentile
from websockets.asyncio.client import connect


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.delivery: list[float] = []
        self.errors: list[str] = []
        self.finished = 0
        self.sent: dict[tuple[str, int], float] = {}


async def bot(ws_url: str, gid: str, token: str, stats: Stats, plies: int, think: float,
              stop_at: float, rng: random.Random) -> None:
    async with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"},
                       max_size=2**22) as ws:
        state: dict[str, Any] = {}
        pending: dict[str, float] = {}
        n = 0
        while True:
            msg = json.loads(await ws.recv())
            kind = msg["type"]
            if kind in ("state", "update"):
                you = state.get("you")
                state = msg["state"]
                state.setdefault("you", you)
                if kind == "update":
                    # The opponent's move reaching this socket (maybe via
                    # the other process): the delivery latency.
                    if state["to_move"] == state["you"]:
                        sent = stats.sent.pop((gid, state["ply"]), None)
                        if sent is not None:
                            stats.delivery.append(time.perf_counter() - sent)
            elif kind == "ack":
                t0 = pending.pop(msg["id"], None)
                if t0 is not None and msg["id"] != "end":
                    stats.rtts.append(time.perf_counter() - t0)
            elif kind == "error":
                stats.errors.append(msg["message"])
                pending.pop(msg.get("id") or "", None)
                await ws.send(json.dumps({"type": "sync"}))
                continue
            if not state:
                continue
            if state.get("result"):
                stats.finished += 1
                return
            if pending or state["to_move"] != state["you"] or state["phase"] != "playing":
                continue
            if state["ply"] >= plies or time.monotonic() >= stop_at:
                pending["end"] = time.perf_counter()
                await ws.send(json.dumps({"type": "resign", "id": "end"}))
                continue
            legal = state["position"]["legal"]
            if not legal:
                continue
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
            frm = rng.choice(sorted(legal))
            move = frm + rng.choice(legal[frm])
            n += 1
            mid = f"m{n}"
            now = time.perf_counter()
            pending[mid] = now
            stats.sent[(gid, state["ply"] + 1)] = now
            await ws.send(json.dumps({"type": "move", "ply": state["ply"] + 1, "move": move,
                                      "id": mid}))


def start_servers(n: int, data: Path, db_url: str, redis_url: str
                  ) -> list[tuple[subprocess.Popen[bytes], str]]:
    out = []
    for _ in range(n):
        port = free_port()
        env = dict(os.environ, QISAI_DATA_DIR=str(data), QISAI_DATABASE_URL=db_url,
                   QISAI_REDIS_URL=redis_url, QISAI_RATE_SIGNUP="100000",
                   QISAI_RATE_MOVES="1000")
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve", "--port", str(port),
                                 "--log-level", "warning"], env=env)
        out.append((proc, f"http://127.0.0.1:{port}"))
    for proc, base in out:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("a server did not start")
            time.sleep(0.1)
    return out


async def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> Stats:
    stats = Stats()
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=50)
    games = []
    async with httpx.AsyncClient(base_url=bases[0], limits=limits, timeout=30) as client:
        tokens = []
        for _ in range(2 * args.games):  # one by one: each guest's cookies of its own
            tokens.append(await guest(client))
            client.cookies.clear()
        for i in range(args.games):
            a, b = tokens[2 * i], tokens[2 * i + 1]
            r = await client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                                      "time": {"minutes": 60}},
                                  headers={"Authorization": f"Bearer {a}"})
            r.raise_for_status()
            gid = r.json()["id"]
            j = await client.post(f"/api/games/{gid}/join",
                                  headers={"Authorization": f"Bearer {b}"})
            j.raise_for_status()
            games.append((i, gid, a, b))
    cpu0 = [cpu_seconds(p) for p in pids]
    stop_at = time.monotonic() + args.duration
    t0 = time.perf_counter()
    bots = []
    k = len(bases)
    for i, gid, a, b in games:
        # With two processes the players of a game are on different ones.
        for j, tok in enumerate((a, b)):
            ws = bases[(i + j) % k].replace("http", "ws")
            bots.append(bot(f"{ws}/ws/games/{gid}", gid, tok, stats, args.plies, args.think,
                            stop_at, random.Random(rng.random())))
    try:
        await asyncio.wait_for(asyncio.gather(*bots), timeout=args.duration + 30)
    except TimeoutError:
        stats.errors.append("some games did not finish in time")
    stats.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
    cpu1 = [cpu_seconds(p) for p in pids]
    stats.cpu = [  # type: ignore[attr-defined]
        (b - a) if a is not None and b is not None else None for a, b in zip(cpu0, cpu1, strict=True)]
    return stats


def report(n: int, args: argparse.Namespace, stats: Stats) -> float | None:
    """Print the run's figures; return its delivery p99 (ms), if any."""
    rtts = stats.rtts
    elapsed = getattr(stats, "elapsed", 0.0)
    cpu: list[float | None] = getattr(stats, "cpu", [])
    print(f"--- {n} server process{'es' if n > 1 else ''}: {args.games} games, "
          f"think {args.think} s, up to {args.plies} plies")
    print(f"moves: {len(rtts)} in {elapsed:.1f} s = "
          f"{len(rtts) / elapsed if elapsed else 0:.1f} moves/s")
    if rtts:
        ms = [r * 1000 for r in rtts]
        print(f"round trip ms: p50 {statistics.median(ms):.1f}  p99 {percentile(ms, .99):.1f}  "
              f"max {max(ms):.1f}")
    if stats.delivery:
        ms = [d * 1000 for d in stats.delivery]
        where = "cross-process" if n > 1 else "same-process"
        print(f"{where} delivery to the opponent's socket ms: p50 {statistics.median(ms):.1f}  "
              f"p99 {percentile(ms, .99):.1f}  ({len(ms)} moves)")
    servers = cpu[:n]
    if rtts and all(c is not None for c in servers):
        used = sum(c for c in servers if c is not None)
        print(f"servers' CPU: {used:.1f} s = {1000 * used / len(rtts):.2f} ms per move "
              f"(projected about {len(rtts) / used:.0f} moves/s per core)")
    if rtts and len(cpu) > n and cpu[n] is not None:
        print(f"redis-server CPU: {cpu[n]:.2f} s = {1000 * cpu[n] / len(rtts):.3f} ms per move")
    print(f"games finished: {stats.finished // 2}/{args.games}; errors: {len(stats.errors)}")
    for e in sorted(set(stats.errors))[:5]:
        print("  error:", e)
    return percentile([d * 1000 for d in stats.delivery], .99) if stats.delivery else None


async def relay_probe(redis_url: str, count: int) -> list[float]:
    """The Redis hop alone: ``count`` messages from one process's bus to
    another's (both here), each timed from :meth:`Bus.publish` to its
    arrival; returns the latencies in seconds."""
    from qisai.cluster.bus import Bus

    got: dict[int, float] = {}
    arrived = asyncio.Event()

    async def hear(msg: dict[str, Any]) -> None:
        got[int(msg["n"])] = time.perf_counter()
        if len(got) == count:
            arrived.set()

    async def nothing(*_: Any) -> None:
        return None

    a, b = Bus(redis_url, nothing, nothing), Bus(redis_url, hear, nothing)
    await a.start()
    await b.start()
    sent: dict[int, float] = {}
    try:
        for n in range(count):
            sent[n] = time.perf_counter()
            a.publish({"g": "probe", "n": n, "t": "x" * 600})  # about an update's size
            await asyncio.sleep(0.002)
        await asyncio.wait_for(arrived.wait(), 30)
    except TimeoutError:
        pass
    finally:
        await a.stop()
        await b.stop()
    return [got[n] - sent[n] for n in got]


def main() -> None:
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    ap.add_argument("--plies", type=int, default=40, help="plies per game before resigning")
    ap.add_argument("--think", type=float, default=0.5, help="mean bot thinking time, s")
    ap.add_argument("--duration", type=float, default=60.0, help="most seconds of play a run")
    ap.add_argument("--processes", default="1,2", help="server processes per run (1,2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg-url", default=os.environ.get("QISAI_TEST_POSTGRES_URL"))
    args = ap.parse_args()
    if not 1 <= args.games <= 1000 or args.plies < 1 or not 0 < args.duration <= 600:
        raise SystemExit("--games 1..1000, --plies >= 1, --duration 0..600")
    runs = [int(x) for x in args.processes.split(",")]
    if not all(1 <= n <= 4 for n in runs):
        raise SystemExit("--processes: 1..4 each")
    if not args.pg_url:
        raise SystemExit("needs PostgreSQL: --pg-url or QISAI_TEST_POSTGRES_URL")
    redis_bin = shutil.which("redis-server")
    if redis_bin is None:
        raise SystemExit("needs redis-server (Debian's redis-server package)")
    from sqlalchemy import create_engine, text

    from qisai.store import Database
    from qisai.web.settings import load_secret_key

    p99: dict[int, float] = {}
    for n in runs:
        schema = "qisai_bench_" + secrets.token_hex(4)
        admin = create_engine(args.pg_url)
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        sep = "&" if "?" in args.pg_url else "?"
        db_url = f"{args.pg_url}{sep}options=-csearch_path%3D{schema}"
        Database(db_url).upgrade()
        rport = free_port()
        redis = subprocess.Popen([redis_bin, "--port", str(rport), "--bind", "127.0.0.1",
                                  "--save", "", "--appendonly", "no"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers: list[tuple[subprocess.Popen[bytes], str]] = []
        try:
            with tempfile.TemporaryDirectory() as tmp:
                data = Path(tmp) / "data"
                data.mkdir()
                load_secret_key(data)
                time.sleep(0.3)
                servers = start_servers(n, data, db_url, f"redis://127.0.0.1:{rport}/0")
                pids = [p.pid for p, _ in servers] + [redis.pid]
                stats = asyncio.run(run(args, [b for _, b in servers], pids))
                delivered = report(n, args, stats)
                if delivered is not None:
                    p99[n] = delivered
                if n > 1:
                    hops = [h * 1000 for h in asyncio.run(relay_probe(
                        f"redis://127.0.0.1:{rport}/0", 1000))]
                    if hops:
                        print(f"Redis hop alone (publish to arrival, {len(hops)} messages) ms: "
                              f"p50 {statistics.median(hops):.2f}  "
                              f"p99 {percentile(hops, .99):.2f}")
        finally:
            for proc, _ in servers:
                proc.send_signal(signal.SIGTERM)
            for proc, _ in servers:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
            redis.kill()
            redis.wait(timeout=10)
            with admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()

    if 1 in p99 and any(n > 1 for n in p99):
        n = max(p99)
        print(f"delivery p99: cross-process ({n} processes) {p99[n]:.1f} ms / same-process "
              f"{p99[1]:.1f} ms = {p99[n] / p99[1]:.2f}x (goal: within 2x, issue 30)")


if __name__ == "__main__":
    main()
