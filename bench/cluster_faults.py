"""Fault benchmark of the arena as a cluster (issue 30): 3 ``qisai serve``
processes on a PostgreSQL and a Redis of the bench's own (loopback), 60
games with clocks (both players on different processes, a spectator on
the third), and in turn:

* ``kill -9`` of a server, 10 times at random moments (a fresh one takes
  its place); before each, a move is stored the way a server stores it
  and never published -- what a process killed between its commit and its
  publish leaves behind (the hub's own append, in this process);
* PostgreSQL stopped for 5 s (``pg_ctl stop -m immediate``: a crash);
* Redis stopped for 10 s;
* the engine worker thinking for a human-vs-engine game killed (-9).

Printed: acknowledged moves lost (an ack whose ply the database does not
hold with that move), games frozen (a socket behind the database for more
than 3 s once the failed part is back), the time to recover (every socket
level with the database after a part is back; p50/p99 over the sockets and
faults), flags ruled late (the stored flag more than 1.5 s after the flag
time, or after the database came back if it fell while it was away, 4.1.4),
limits exceeded (log-in tries per address beyond 10 a minute, engine games
beyond 2 a player, tried across the 3 processes), and the engine's move
after its worker was killed.

The PostgreSQL is its own (``initdb`` in a temporary folder), never a
shared one.  Bounded: about 4 minutes of play.

    PYTHONPATH=$PWD python bench/cluster_faults.py --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from arena_load import percentile
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.cluster.conftest import PrivatePostgres, RedisServer, Server  # noqa: E402
from tests.cluster.test_cluster_worker import WORKER  # noqa: E402

GRACE = 3.0
"""Seconds a socket may be behind the database once a part is back."""
LATE = 1.5
"""Seconds past its time a flag may be ruled (the ticker runs every 0.5 s)."""
LEASE_GAP = 4.0
"""Seconds a dead process's clocks go unticked: its lease's 3 s, then a
lease round of another process."""


@dataclass
class Follower:
    """One socket following a game (a player or a spectator)."""

    gid: str
    token: str | None
    you: str | None
    home: int
    ply: int = 0
    server: int = 0
    connected: bool = False
    behind_since: float | None = None
    acked: dict[int, str] = field(default_factory=dict)


@dataclass
class World:
    servers: list[Server]
    data: Path
    db_url: str
    redis_url: str
    followers: list[Follower] = field(default_factory=list)
    windows: list[list[Any]] = field(default_factory=list)
    """(fault, start, end) of each fault, wall clock."""
    stop: bool = False
    db_moves: dict[str, int] = field(default_factory=dict)
    frozen: dict[str, str] = field(default_factory=dict)
    """Game -> what was seen of its frozen socket."""
    unpublished: int = 0
    recover: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def base(self, i: int) -> Server:
        return self.servers[i % len(self.servers)]

    def in_window(self, t: float) -> float | None:
        """The end of the fault window ``t`` falls in, if any."""
        for _name, start, end in self.windows:
            if start <= t <= end:
                return end
        return None


async def follow(world: World, f: Follower, rng: random.Random, think: float,
                 abandon_at: float | None) -> None:
    """Follow (and, for a player, play) one game until the bench stops:
    reconnect to another process when the socket drops, and send an
    unacknowledged move again (the same ply: a resend)."""
    pending: tuple[int, str] | None = None
    n = 0
    server = f.home
    while not world.stop:
        srv = world.base(server)
        f.server = server
        headers = {"Authorization": f"Bearer {f.token}"} if f.token else {}
        try:
            async with connect(f"{srv.ws}/ws/games/{f.gid}", additional_headers=headers,
                               open_timeout=2, max_size=2**22) as ws:
                f.connected = True
                if pending is not None:
                    await ws.send(json.dumps({"type": "move", "ply": pending[0],
                                              "move": pending[1], "id": "again"}))
                state: dict[str, Any] = {}
                while not world.stop:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        raw = None
                    if raw is not None:
                        msg = json.loads(raw)
                        kind = msg["type"]
                        if kind in ("state", "update"):
                            state = {**state, **msg["state"]}
                            f.ply = max(f.ply, int(state["ply"])) if kind == "update" \
                                else int(state["ply"])
                        elif kind == "ack" and pending is not None and msg.get("ply") == pending[0]:
                            f.acked[pending[0]] = pending[1]
                            pending = None
                        elif kind == "error":
                            if pending is not None and msg.get("status") == 503:
                                await asyncio.sleep(0.5)  # not stored: the database is away
                                await ws.send(json.dumps({"type": "move", "ply": pending[0],
                                                          "move": pending[1], "id": "again"}))
                            else:
                                pending = None
                                await ws.send(json.dumps({"type": "sync"}))
                    if f.you is None or not state or pending is not None:
                        continue
                    if state.get("result") or state.get("phase") != "playing":
                        continue
                    if state.get("to_move") != f.you or state.get("you", f.you) != f.you:
                        continue
                    if abandon_at is not None and time.time() > abandon_at:
                        continue  # this player has left: his flag falls
                    legal = (state.get("position") or {}).get("legal") or {}
                    if not legal:
                        continue
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    frm = rng.choice(sorted(legal))
                    pending = (int(state["ply"]) + 1, frm + rng.choice(legal[frm]))
                    n += 1
                    await ws.send(json.dumps({"type": "move", "ply": pending[0],
                                              "move": pending[1], "id": f"m{n}"}))
                    state["to_move"] = None  # wait for the update or the ack
        except Exception:
            pass
        f.connected = False
        if world.stop:
            return
        server += 1  # another process
        await asyncio.sleep(0.2)


def monitor(world: World, period: float = 0.25) -> None:
    """Compare every socket with the database (in a thread): a socket
    behind for more than :data:`GRACE` seconds outside the faults (and
    their grace) freezes its game."""
    from sqlalchemy import create_engine, text

    engine = create_engine(world.db_url, pool_pre_ping=True)
    while not world.stop:
        try:
            with engine.connect() as conn:
                rows = conn.execute(text("SELECT id, move_count FROM games")).all()
            world.db_moves = {r[0]: int(r[1]) for r in rows}
        except Exception:
            time.sleep(period)
            continue
        now = time.time()
        end = world.in_window(now)
        last_end = max((e for _n, _s, e in world.windows if e <= now), default=0.0)
        for f in world.followers:
            stored = world.db_moves.get(f.gid, 0)
            if f.ply >= stored:
                if f.behind_since is not None and f.behind_since <= last_end + GRACE:
                    # Behind because of a fault: how long after the part was back.
                    world.recover.append(max(0.0, now - last_end))
                f.behind_since = None
                continue
            if f.behind_since is None:
                f.behind_since = now
            since = max(f.behind_since, last_end)
            if end is None and now - since > GRACE and f.gid not in world.frozen:
                fault = max((w for w in world.windows if w[2] <= now), key=lambda w: w[2],
                            default=["none"])[0]
                world.frozen[f.gid] = (f"{f.you or 'spectator'} on process {f.server % 3}, "
                                       f"{'connected' if f.connected else 'reconnecting'}, "
                                       f"ply {f.ply} < {stored}, after {fault}")
        time.sleep(period)
    engine.dispose()


def store_unpublished(world: World, rng: random.Random) -> None:
    """Store one move of a game in play through the hub's own code, never
    publishing it (a server killed between its commit and its publish)."""
    from qisai.store import Database
    from qisai.store.models import User
    from qisai.web.play.hub import ActionError, Hub

    async def run() -> None:
        db = Database(world.db_url)
        hub = Hub(db)
        try:
            for gid in rng.sample(sorted({f.gid for f in world.followers}), 5):
                live = await hub.get(gid)
                if live.game.is_over or live.game.phase.value != "playing":
                    continue
                side = live.game.to_move
                uid = live.first_user_id if side.name == "FIRST" else live.second_user_id
                legal = live.snapshot(None)["position"]["legal"]
                if uid is None or not legal:
                    continue
                with db.session() as s:
                    user = s.get(User, uid)
                    assert user is not None
                    s.expunge(user)
                frm = rng.choice(sorted(legal))
                try:
                    await hub.act(gid, user, {"type": "move", "ply": len(live.game.moves) + 1,
                                              "move": frm + rng.choice(legal[frm])})
                except ActionError:  # its player moved meanwhile: another game
                    continue
                world.unpublished += 1
                return
        finally:
            await hub.stop_engines()
            db.dispose()

    try:
        asyncio.run(run())
    except Exception as exc:  # a game that moved on meanwhile: fine, another kill follows
        world.errors.append(f"unpublished store: {type(exc).__name__}: {exc}")


def flags_late(world: World) -> tuple[int, int, int]:
    """Return (flags, flags ruled late, those of them that fell while the
    process ticking them was dead and were ruled once its lease expired)
    from the log: each time forfeit's stored tick against the flag time
    replayed from the events before it."""
    from qisai.store import Database, repo
    from qisai.web.play.storage import build_game

    db = Database(world.db_url)
    flags = late = in_lease = 0
    try:
        with db.session() as s:
            for gid in sorted({f.gid for f in world.followers}):
                row = repo.get_game(s, gid)
                if not row.result or row.result.get("reason") != "time_forfeit":
                    continue
                events = repo.load_events(s, gid)
                ticks = [e for e in events if e.kind == "tick"]
                if not ticks:
                    continue
                flags += 1
                before = [e.data for e in events if e.seq < ticks[-1].seq]
                game = build_game(row, before, time.time)
                assert game.clock is not None
                fell = game.clock.deadline()
                if fell is None:
                    continue
                ruled = ticks[-1].at_ms / 1000
                allowed = world.in_window(fell) or fell
                if ruled > allowed + LATE:
                    late += 1
                    # Fell while the process ticking it was dead: another
                    # takes its lease once it expires (3 s, then a round).
                    if any(w[0].startswith("kill") and w[1] <= fell <= w[1] + LEASE_GAP
                           and ruled <= w[1] + LEASE_GAP + LATE for w in world.windows):
                        in_lease += 1
    finally:
        db.dispose()
    return flags, late, in_lease


def limits_exceeded(world: World, tag: str) -> int:
    """Log-in tries per address (10 a minute) and engine games a player
    (2) tried across the processes; returns how many passed the limits."""
    from concurrent.futures import ThreadPoolExecutor

    base = world.servers[0].base
    name = f"lim{tag}"
    r = httpx.post(f"{base}/api/auth/register",
                   json={"username": name, "password": "correct horse battery"}, timeout=20)
    r.raise_for_status()
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    allowed = sum(httpx.post(f"{world.base(i).base}/api/auth/login",
                             json={"username": name, "password": f"no {i}"},
                             timeout=20).status_code == 401 for i in range(15))

    def create(i: int) -> int:
        return httpx.post(f"{world.base(i).base}/api/games", json={
            "kind": "xiangqi", "opponent": "engine", "color": "first"},
            headers=headers, timeout=30).status_code

    with ThreadPoolExecutor(6) as pool:
        made = list(pool.map(create, range(6))).count(201)
    return max(0, allowed - 10) + max(0, made - 2)


async def setup_games(world: World, n: int, rng: random.Random) -> list[tuple[str, int, int]]:
    """Create ``n`` games (clocks on), the players on two processes;
    returns (game id, Red's process, Black's process)."""
    out = []
    async with httpx.AsyncClient(timeout=30) as client:
        for i in range(n):
            a, b = i % 3, (i + 1) % 3
            tokens = []
            for srv in (a, b):
                base = world.base(srv).base
                form = await client.get(f"{base}/api/auth/csrf")
                r = await client.post(f"{base}/api/auth/guest",
                                      headers={"X-CSRF-Token": form.json()["csrf"]})
                r.raise_for_status()
                tokens.append(r.json()["token"])
            minutes = 0.75 if i % 6 == 0 else 10  # one game in six flags
            r = await client.post(f"{world.base(a).base}/api/games", json={
                "kind": "xiangqi", "color": "first", "time": {"minutes": minutes}},
                headers={"Authorization": f"Bearer {tokens[0]}"})
            r.raise_for_status()
            gid = r.json()["id"]
            r = await client.post(f"{world.base(b).base}/api/games/{gid}/join",
                                  headers={"Authorization": f"Bearer {tokens[1]}"})
            r.raise_for_status()
            world.followers += [Follower(gid, tokens[0], "first", a),
                                Follower(gid, tokens[1], "second", b),
                                Follower(gid, None, None, (i + 2) % 3)]
            out.append((gid, a, b))
    return out


def start_worker(url: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WORKER, "--redis-url", url, "--processes",
                             "1", "--matches", "0"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


async def engine_fault(world: World, workers: list[subprocess.Popen[bytes]]) -> float | None:
    """Play a move against the engine, kill (-9) the worker thinking on it
    and return the seconds from the kill to the engine's move stored."""
    import redis

    base = world.servers[0]
    async with httpx.AsyncClient(timeout=30) as client:
        r = await client.post(f"{base.base}/api/auth/register",
                              json={"username": "human", "password": "correct horse battery"})
        r.raise_for_status()
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        r = await client.post(f"{base.base}/api/games", json={
            "kind": "xiangqi", "opponent": "engine", "color": "first",
            "time": {"minutes": 10}}, headers=headers)
        r.raise_for_status()
        gid = r.json()["id"]
    async with connect(f"{base.ws}/ws/games/{gid}", additional_headers=headers) as ws:
        await ws.recv()
        await ws.send(json.dumps({"type": "move", "ply": 1, "move": "h2e2", "id": "m"}))
        rds = redis.Redis.from_url(world.redis_url)
        deadline = time.monotonic() + 30
        pid = None
        while pid is None and time.monotonic() < deadline:
            keys = rds.keys("qisai:job-alive:*")
            if keys:
                pid = int(rds.get(keys[0]) or 0)
            await asyncio.sleep(0.05)
        if not pid:
            world.errors.append("no worker took the engine's move")
            return None
        for w in workers:
            with contextlib.suppress(ProcessLookupError):
                if w.pid == pid or os.getpgid(pid) == w.pid:
                    os.killpg(w.pid, signal.SIGKILL)
        killed = time.monotonic()
        start = time.time()
        world.windows.append(["worker", start, start])
        while time.monotonic() - killed < 60:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] == "update" and msg["state"]["ply"] >= 2:
                return time.monotonic() - killed
    return None


async def main_async(args: argparse.Namespace, world: World) -> dict[str, Any]:
    try:
        return await faults(args, world)
    finally:
        world.stop = True  # the followers and the monitor end


async def faults(args: argparse.Namespace, world: World) -> dict[str, Any]:
    rng = random.Random(args.seed)
    games = await setup_games(world, args.games, rng)
    flagged = {gid for gid, *_ in games[::6]}
    t0 = time.time()
    tasks = []
    for f in world.followers:
        abandon = t0 + 5 if f.gid in flagged and f.you == "second" else None
        tasks.append(asyncio.ensure_future(follow(world, f, random.Random(rng.random()),
                                                  args.think, abandon)))
    loop = asyncio.get_running_loop()
    watcher = loop.run_in_executor(None, monitor, world)
    await asyncio.sleep(5)
    # 10 kills of a server, at random moments; a fresh process replaces it.
    for k in range(args.kills):
        await asyncio.sleep(rng.uniform(2, 6))
        await loop.run_in_executor(None, store_unpublished, world, rng)
        victim = rng.randrange(3)
        start = time.time()
        world.servers[victim].kill9()
        world.windows.append([f"kill {k + 1}", start, time.time() + 1.0])
        fresh = Server(world.data, world.db_url, world.redis_url, "--engine-queue",
                       "--engine-think", "3")
        world.servers[victim] = fresh
        await loop.run_in_executor(None, fresh.wait_ready)
    await asyncio.sleep(5)
    # PostgreSQL away for 5 s.
    window = ["postgresql", time.time(), float("inf")]
    world.windows.append(window)
    args.pg.stop()
    await asyncio.sleep(5)
    await loop.run_in_executor(None, args.pg.start)
    window[2] = time.time()
    await asyncio.sleep(8)
    # Redis away for 10 s.
    window = ["redis", time.time(), float("inf")]
    world.windows.append(window)
    args.redis.stop()
    await asyncio.sleep(10)
    await loop.run_in_executor(None, args.redis.start)
    window[2] = time.time()
    await asyncio.sleep(8)
    try:
        engine_after = await engine_fault(world, args.workers)
    except Exception as exc:
        world.errors.append(f"engine fault: {type(exc).__name__}: {exc}")
        engine_after = None
    await asyncio.sleep(8)
    world.stop = True
    await asyncio.gather(*tasks, return_exceptions=True)
    await watcher
    return {"engine_after": engine_after}


def lost_moves(world: World) -> tuple[int, int]:
    """Return (acknowledged moves, those the database lacks)."""
    from qisai.store import Database, repo

    db = Database(world.db_url)
    acked = lost = 0
    try:
        with db.session() as s:
            by_game: dict[str, dict[int, str]] = {}
            for gid in {f.gid for f in world.followers}:
                by_game[gid] = {int(e.ply): str((e.data or {}).get("move"))
                                for e in repo.load_events(s, gid) if e.kind == "move"}
            for f in world.followers:
                for ply, move in f.acked.items():
                    acked += 1
                    lost += by_game[f.gid].get(ply) != move
    finally:
        db.dispose()
    return acked, lost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--think", type=float, default=1.5, help="seconds a bot thinks (mean)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("load before:", os.getloadavg())
    folder = Path(tempfile.mkdtemp(prefix="qisai-faults-"))
    pg = PrivatePostgres()
    redis_server = RedisServer(folder)
    servers: list[Server] = []
    workers: list[subprocess.Popen[bytes]] = []
    try:
        pg.start()
        from qisai.store import Database
        from qisai.web.settings import load_secret_key

        db = Database(pg.url)
        db.upgrade()
        db.dispose()
        redis_server.start()
        data = folder / "data"
        data.mkdir()
        load_secret_key(data)
        os.environ.update(QISAI_RATE_SIGNUP="100000", QISAI_RATE_MOVES="1000")
        servers = [Server(data, pg.url, redis_server.url, "--engine-queue",
                          "--engine-think", "3") for _ in range(3)]
        for s in servers:
            s.wait_ready()
        workers = [start_worker(redis_server.url) for _ in range(2)]
        world = World(servers, data, pg.url, redis_server.url)
        args.pg, args.redis, args.workers = pg, redis_server, workers
        limits = limits_exceeded(world, "a")
        began = time.monotonic()
        extra = asyncio.run(main_async(args, world))
        played = time.monotonic() - began
        limits += limits_exceeded(world, "b")
        acked, lost = lost_moves(world)
        flags, late, in_lease = flags_late(world)
        rec = world.recover or [0.0]
        print(f"{args.games} games, {len(world.followers)} sockets, {args.kills} server kills, "
              f"PostgreSQL 5 s, Redis 10 s, a worker: {played:.0f} s of play")
        print(f"acknowledged moves: {acked}, lost: {lost}")
        print(f"games frozen (a socket > {GRACE:g} s behind the database after a part "
              f"is back): {len(world.frozen)}")
        for gid, seen in sorted(world.frozen.items())[:5]:
            print(f"  frozen {gid}: {seen}")
        print(f"moves stored and never published (as by a process killed in between): "
              f"{world.unpublished}")
        print(f"time to recover: p50 {percentile(rec, .5):.2f} s, p99 {percentile(rec, .99):.2f} s "
              f"(n={len(world.recover)})")
        print(f"flags: {flags}, ruled late (> {LATE:g} s): {late} (of them {in_lease} fell "
              f"while the process ticking them was dead, ruled when its lease expired)")
        print(f"limits exceeded: {limits}")
        after = extra["engine_after"]
        print("engine move after its worker was killed: "
              + ("none" if after is None else f"{after:.1f} s"))
        if world.errors:
            print("notes:", "; ".join(world.errors[:5]))
    finally:
        for w in workers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(w.pid, signal.SIGKILL)
        for s in servers:
            s.stop()
        redis_server.stop()
        pg.remove()
        shutil.rmtree(folder, ignore_errors=True)
        print("load after:", os.getloadavg())


if __name__ == "__main__":
    main()
