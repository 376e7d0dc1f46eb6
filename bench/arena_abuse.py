"""Abuse benchmark of the arena: honest games while abusive clients attack.

Starts ``qisai serve`` on loopback with a fresh SQLite data folder, then for
``--duration`` seconds runs ``--games`` honest bot games (the bots of
``bench/arena_load.py``: guests playing random legal Xiangqi moves over
WebSockets, from 127.0.0.1) while ``--abusers`` abusive clients, each from
its own loopback address (127.0.0.10, .11, ...), do one of:

* ``frames``: open game sockets and send garbage: text that is not JSON,
  binary frames, huge frames (1 to 8 MiB);
* ``login``: log-in floods with wrong passwords (a real name and random ones);
* ``engine``: engine-game floods: new guest sessions that open games
  against the built-in engine (Xiangqi and Go) and keep them playing;
* ``seeks``: lobby spam: open seeks, as many as the server takes;
* ``register``, ``consult``, ``simul`` (issue 31, ``bench/arena_abuse_entries.py``):
  registration spam from the calendar (team invitations naming others,
  answers, entries), consultation spam (games naming other accounts), simul
  joins and leaves (and asking for one's own handicap).

Meanwhile it probes ``GET /api/rules`` every 100 ms and samples the
server's memory (VmRSS from /proc; also the engine processes it started).

Prints the honest moves' round trip p50/p99, ``/api/rules`` p50/p99, the
server's peak RSS, the honest clients' error count, and what the abusers
got (status codes); also the server's CPU time while the honest games
played, the machine's load average then, and how late the honest client's
own event loop ran (the part of a round trip that is the client's).  The
abusers run in a process of their own, so that their work (8 MiB frames,
floods) does not delay the honest bots' loop.  The honest games are opened before the abuse starts
(at most 60 s), the abuse runs ``--warmup`` seconds alone, then the honest
bots play for ``--duration`` seconds (at most 30 s more to wind down).
Loopback only.

    nice -n 5 python bench/arena_abuse.py --games 100 --abusers 20 --duration 60

Measured 2026-12-01 on the shared 2-core machine (load average 9 to 16 from
other work: even without abuse the honest p99 was 1.6 s, so figures are
rough), ``nice -n 5``, 100 honest games, 60 s (moves p50/p99, /api/rules
p50/p99 in ms, server peak RSS, honest errors):

=====================================  ===========  ===========  =======  ===
run                                    moves        /api/rules   RSS MiB  err
=====================================  ===========  ===========  =======  ===
main, 20 abusers (all kinds)           2010 / 4603  3049 / 6747  392      0
issue 14 pool, 20 abusers (all kinds)  2186 / 6304  3123 / 11779 285      0
main, 2 engine abusers (20 games)      620 / 1703   330 / 2256   128      0
issue 14 pool, 2 engine abusers        123 / 975    38 / 1347    126      0
issue 14 pool, no abusers              30 / 1608    25 / 1076    126      0
issue 14 pool, 5 log-in flooders       1541 / 4118  408 / 4712   439      0
issue 14 pool, 5 frame abusers         66 / 869     28 / 1018    517      0
=====================================  ===========  ===========  =======  ===

With the pool the engines' processes stayed within the bound (2; together
71-91 MiB) and the engine flood got 429s; what remains slow under the full
abuse is the log-in flood (Argon2 on every wrong password, by any name) and
the huge frames (memory), being fixed elsewhere.

Measured 2026-12-02, same machine and ``nice -n 5`` (the server inherits
it), after the bounded log-in hashing, frame limits and the fixes of this
round: an SQLite append on the event loop never waits for the write lock
(``qisai.web.play.storage.nowait_database``: when another connection
writes, the append goes to a worker thread, where before the whole loop
slept up to ``busy_timeout``); dependencies that block on nothing are async
(two worker-thread hops fewer per request); a socket's session look-up has
threads of its own.  Other helpers kept the machine at load 10 to 18, so
the server got 10-26 % of one core and every figure is mostly the machine's
(moves and /api/rules p50 / p99 in ms; RSS of the server in MiB; honest
errors, all of them "timed out during opening handshake" when the 200
honest sockets open at once):

=========================================================  ===========  ===========  ===  ===
run (load average)                                         moves        /api/rules   RSS  err
=========================================================  ===========  ===========  ===  ===
before, 100 games, 20 abusers, 60 s (3.5 - 6.7) [1]        710 / 1850   799 / 3484   182  0
before, 100 games, 20 abusers, 40 s (10.9 - 11.1) [1]      834 / 1999   658 / 3946   199  0
after,  100 games, 20 abusers, 40 s (10.0 - 11.9)          704 / 2267   115 / 4644   218  0
before, 60 games, 12 abusers, 40 s (14.8 - 18.2) [2]       1829 / 4165  114 / 6342   184  24
after,  the same, at the same time [2]                     1430 / 3398  199 / 5441   186  36
after,  30 games, 8 abusers, 30 s (9.8 - 10.6)             68 / 752     41 / 646     165  0
after,  30 games, 8 abusers, 40 s (13.4 - 13.9)            40 / 634     32 / 619     166  0
=========================================================  ===========  ===========  ===  ===

[1] the abusers in the honest bots' process (the bench as it was).
[2] both servers side by side, each with its bench.

The targets (moves p99 under 200 ms, RSS under 600 MiB, no honest errors)
hold for memory (at most 218 MiB; the engines' processes 72 MiB together);
the latency target could not be checked on this machine: even without
abusers the honest p99 was 1.6 s at load 9 to 16.  Run it again on two
free cores.

Measured 2026-12-02 04:40-04:55 UTC on the same 2 cores with nothing else
running (the bench's own clients share them), defaults (100 honest games, 20
abusers of all kinds, 60 s), no ``nice``; "before" is 62ae0bd, "after" adds
the engines and password hashes 10 steps nicer than the server, the games'
own worker threads and the write-ahead-log checkpoints off the event loop
(moves and /api/rules p50 / p99 in ms; peak RSS of the server in MiB; honest
errors; runs in the order made):

=======================  ==========  ===========  ===  ===
run (load average)       moves       /api/rules   RSS  err
=======================  ==========  ===========  ===  ===
after 1 (1.1 - 3.8)      21 / 132    28 / 173     235  0
after 2 (3.9 - 3.8)      17 / 106    26 / 167     217  0
after 3 (4.0 - 4.9)      15 / 96     24 / 134     197  0
before 1 (5.2 - 5.3)     13 / 87     (not kept)   -    0
before 2 (4.9 - 5.1)     12 / 118    (not kept)   -    0
after 4 (4.3 - 4.4)      15 / 99     24 / 141     -    0
before 3 (4.3 - 4.5)     16 / 107    25 / 138     -    0
=======================  ==========  ===========  ===  ===

Every run meets the targets (moves p99 under 200 ms, RSS under 600 MiB, no
honest errors; 100/100 honest games finished).  On a free machine "before"
and "after" do not differ beyond the noise: the earlier 189-222 ms p99 came
from a busier machine.  The priorities matter when the cores are contended
(the engines alone can use two cores); that is checked by
``tests/security/test_cpu_share.py``, not by this bench.

Measured 2026-12-04 17:25-17:38 UTC (issue 31: the entry abusers), branch
i31 with main merged, 100 honest games, 40 s of play after 10 s of abuse,
``nice -n 5``; the 2 cores were shared with other engineers' work (load
average at the start and end of each run in the table; the bench's own
clients and abusers run on the same cores).  Honest moves and /api/rules
p50 / p99 in ms, peak RSS of the server in MiB, honest errors:

=================================  ===========  ==========  ===========  ===  ===
abusers                            load         moves       /api/rules   RSS  err
=================================  ===========  ==========  ===========  ===  ===
none                               1.8 - 2.6    3 / 24      5 / 41       -    0
20 register                        3.3 - 4.5    14 / 91     20 / 136     -    0
20 consult                         4.9 - 4.5    19 / 174    26 / 194     -    0
20 simul                           2.9 - 3.4    12 / 126    11 / 122     187  0
20 login                           3.6 - 4.2    8 / 124     11 / 126     -    0
21, all seven kinds (3 each) [1]   5.4 - 5.4    43 / 271    42 / 420     -    0
21, all seven kinds                4.5 - 6.5    126 / 798   76 / 766     220  0
21, all seven kinds                5.5 - 7.2    87 / 461    54 / 594     -    0
21, all seven kinds                6.8 - 7.9    54 / 361    64 / 451     -    0
=================================  ===========  ==========  ===========  ===  ===

[1] before the guests of one address shared the simul limit.

Each kind alone stays under the 300 ms target with no honest error; all
seven together met it once in four runs, when the machine was least loaded
(the engine abusers' processes and the bench's own clients then compete
with the server for the two cores).  Before this round, consultation and
simul spam stopped the server outright: every request held two pooled
connections (the session look-up's and the route's own), so 20 spammers
took the whole pool and the 200 honest sockets timed out opening (0/100
games); simul spam without a limit gave p99 926 ms at load 8, registration
spam 481 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import multiprocessing
import os
import queue
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import arena_abuse_entries as entries  # noqa: E402 - registration, consultation, simul spam
import arena_load  # noqa: E402 - the honest bots live there

HONEST = "127.0.0.1"
KINDS = ("frames", "login", "engine", "seeks", *entries.ENTRY_KINDS)


# ------------------------------------------------------------------ memory
def say(text: str) -> None:
    """Progress, on standard error."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def rss_kib(pid: int) -> int:
    """Return the resident memory of ``pid`` in KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) ``pid`` has used so far, s."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def children(pid: int) -> list[int]:
    """Return the pids of the descendants of ``pid`` (from /proc)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                text = (task / "children").read_text().split()
                kids = [int(k) for k in text]
                out += kids
                todo += kids
        except (OSError, ValueError):
            continue
    return out


class Memory:
    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_server = 0
        self.peak_children = 0
        self.peak_children_count = 0
        self.server_threads = 0

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.peak_server = max(self.peak_server, rss_kib(self.pid))
            kids = children(self.pid)
            self.peak_children = max(self.peak_children, sum(rss_kib(k) for k in kids))
            self.peak_children_count = max(self.peak_children_count, len(kids))
            try:
                self.server_threads = max(self.server_threads,
                                          len(list(Path(f"/proc/{self.pid}/task").iterdir())))
            except OSError:
                pass
            try:
                await asyncio.wait_for(stop.wait(), 0.5)
            except TimeoutError:
                pass


# ------------------------------------------------------------------ probes
async def probe_rules(base: str, stop: asyncio.Event, out: list[float], errors: list[str]
                      ) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                r = await client.get("/api/rules")
                if r.status_code != 200:
                    errors.append(f"/api/rules {r.status_code}")
                else:
                    out.append(time.perf_counter() - t0)
            except httpx.HTTPError as exc:
                errors.append(f"/api/rules {type(exc).__name__}")
            await asyncio.sleep(0.1)


# ----------------------------------------------------------------- abusers
class Tally:
    def __init__(self) -> None:
        self.codes: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter)

    def add(self, kind: str, what: str) -> None:
        self.codes[kind][what] += 1


async def new_guest(client: httpx.AsyncClient, tally: Tally, kind: str) -> dict[str, str] | None:
    form = await client.get("/api/auth/csrf")  # the guest route wants the form token
    r = await client.post("/api/auth/guest", headers={"X-CSRF-Token": form.json()["csrf"]})
    tally.add(kind, f"guest {r.status_code}")
    if r.status_code != 201:
        return None
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def abuse_frames(base: str, addr: str, stop: asyncio.Event, tally: Tally,
                       game_id: str, rng: random.Random) -> None:
    ws_url = base.replace("http", "ws") + f"/ws/games/{game_id}"
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        headers = await new_guest(client, tally, "frames") or {}
    while not stop.is_set():
        try:
            async with connect(ws_url, additional_headers=headers, local_addr=(addr, 0),
                               max_size=2**24, open_timeout=10, close_timeout=2) as ws:
                tally.add("frames", "connected")
                for _ in range(200):
                    if stop.is_set():
                        break
                    pick = rng.random()
                    if pick < 0.4:
                        await ws.send("{not json" + "x" * rng.randrange(1000))
                    elif pick < 0.7:
                        await ws.send(os.urandom(rng.randrange(1, 4096)))
                    elif pick < 0.85:
                        await ws.send(json.dumps({"type": "move", "ply": rng.randrange(-5, 999),
                                                  "move": "z" * rng.randrange(1, 5000)}))
                    elif pick < 0.95:
                        await ws.send("[" * (1 << 20))  # 1 MiB of nesting
                    else:
                        await ws.send(os.urandom(8 << 20))  # 8 MiB binary
                    tally.add("frames", "sent")
                    await asyncio.sleep(0.05)
        except Exception as exc:  # noqa: BLE001 - the server may well drop us
            tally.add("frames", f"dropped {type(exc).__name__}")
            await asyncio.sleep(0.2)


async def abuse_login(base: str, addr: str, stop: asyncio.Event, tally: Tally,
                      victim: str, rng: random.Random) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        while not stop.is_set():
            name = victim if rng.random() < 0.5 else f"nobody{rng.randrange(10**9)}"
            try:
                r = await client.post("/api/auth/login",
                                      json={"username": name,
                                            "password": f"wrong{rng.randrange(10**9)}"})
                tally.add("login", str(r.status_code))
            except httpx.HTTPError as exc:
                tally.add("login", type(exc).__name__)
            await asyncio.sleep(0.01)


async def abuse_engine(base: str, addr: str, stop: asyncio.Event, tally: Tally,
                       rng: random.Random) -> None:
    """Open engine games (new guest sessions when refused) and keep them playing."""
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    games: list[tuple[str, dict[str, str]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        headers = await new_guest(client, tally, "engine")
        while not stop.is_set():
            try:
                if headers is not None and len(games) < 12:
                    kind = "go" if rng.random() < 0.5 else "xiangqi"
                    body: dict[str, Any] = {"kind": kind, "opponent": "engine",
                                            "color": "first"}
                    if kind == "go":
                        body.update(size=9, ruleset="go-casual")
                    r = await client.post("/api/games", json=body, headers=headers)
                    tally.add("engine", f"create {r.status_code}")
                    if r.status_code == 201:
                        games.append((r.json()["id"], headers))
                    elif r.status_code == 429:
                        headers = await new_guest(client, tally, "engine")
                for gid, h in list(games):
                    st = (await client.get(f"/api/games/{gid}", headers=h)).json()
                    if st.get("result") is not None:
                        games.remove((gid, h))
                        continue
                    if st["to_move"] != st["you"] or st["phase"] != "playing":
                        continue
                    if st["kind"] == "xiangqi":
                        legal = st["position"]["legal"]
                        if not legal:
                            continue
                        frm = rng.choice(sorted(legal))
                        move = frm + rng.choice(legal[frm])
                    else:
                        grid = st["position"]["grid"]
                        size = len(grid)
                        empty = [(r_, c) for r_ in range(size) for c in range(size)
                                 if grid[r_][c] == "."]
                        if not empty:
                            continue
                        r_, c = rng.choice(empty)
                        move = "ABCDEFGHJKLMNOPQRST"[c] + str(size - r_)
                    a = await client.post(f"/api/games/{gid}/actions", headers=h,
                                          json={"type": "move", "ply": st["ply"] + 1,
                                                "move": move})
                    tally.add("engine", f"move {a.status_code}")
            except (httpx.HTTPError, KeyError, ValueError) as exc:
                tally.add("engine", type(exc).__name__)
            await asyncio.sleep(0.2)


async def abuse_seeks(base: str, addr: str, stop: asyncio.Event, tally: Tally) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=addr)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        headers = await new_guest(client, tally, "seeks")
        while not stop.is_set():
            try:
                if headers is None:
                    headers = await new_guest(client, tally, "seeks")
                    await asyncio.sleep(0.5)
                    continue
                r = await client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                                      headers=headers)
                tally.add("seeks", str(r.status_code))
                if r.status_code == 429:
                    headers = await new_guest(client, tally, "seeks")
            except httpx.HTTPError as exc:
                tally.add("seeks", type(exc).__name__)
            await asyncio.sleep(0.02)


# ------------------------------------------------------------------ honest
async def _honest_guest(client: httpx.AsyncClient) -> str:
    """A guest session for an honest bot, waiting as told when the server
    answers 429 (one client's requests in flight are bounded: issue 29.1)."""
    for _ in range(50):
        try:
            return await arena_load.guest(client)
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code != 429:
                raise
            await asyncio.sleep(float(exc.response.headers.get("Retry-After", "1")) * 0.2)
    raise RuntimeError("no guest session after 50 tries")


async def honest_setup(base: str, n: int, stats: arena_load.Stats
                       ) -> list[tuple[str, str, str]]:
    """Open ``n`` honest games (two guests each, one seeks, the other joins)."""
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    # fewer at once than the server lets one client have in flight (8 a
    # session, 32 an address: issue 29.1); this client's cookie jar keeps
    # the last guest's session cookie, so it counts as one session
    limits = httpx.Limits(max_connections=6)
    games = []
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30,
                                 transport=transport) as client:
        # one form cookie for all (concurrent first fetches would each set their own)
        (await client.get("/api/auth/csrf")).raise_for_status()
        tokens = await asyncio.gather(*[_honest_guest(client) for _ in range(2 * n)])
        for i in range(n):
            a, b = tokens[2 * i], tokens[2 * i + 1]
            r = await client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                                      "time": {"minutes": 60}},
                                  headers={"Authorization": f"Bearer {a}"})
            if r.status_code != 201:
                stats.errors.append(f"create {r.status_code}: {r.text[:100]}")
                continue
            gid = r.json()["id"]
            j = await client.post(f"/api/games/{gid}/join",
                                  headers={"Authorization": f"Bearer {b}"})
            if j.status_code != 200:
                stats.errors.append(f"join {j.status_code}: {j.text[:100]}")
                continue
            games.append((gid, a, b))
    return games


async def honest_games(base: str, games: list[tuple[str, str, str]], plies: int, think: float,
                       stop_at: float, stats: arena_load.Stats, rng: random.Random) -> None:
    ws_base = base.replace("http", "ws")

    async def one(gid: str, tok: str, r: random.Random) -> None:
        try:
            await arena_load.bot(f"{ws_base}/ws/games/{gid}", tok, stats, plies, think,
                                 stop_at, r)
        except Exception as exc:  # noqa: BLE001 - any failure is an honest client's error
            stats.errors.append(f"bot {type(exc).__name__}: {exc}"[:120])

    await asyncio.gather(*[one(gid, tok, random.Random(rng.random()))
                           for gid, a, b in games for tok in (a, b)])


def abuse_process(base: str, kinds: list[str], n: int, seed: float, victim: str, target: str,
                  ctx: dict[str, Any], stop: Any, out: Any) -> None:
    """Run the ``n`` abusers in this (child) process until ``stop`` is set,
    then put their tally on ``out``.  A process of their own, so that their
    work (8 MiB frames, floods) does not delay the honest bots' own loop and
    inflate the round trips measured there."""
    async def main() -> None:
        tally = Tally()
        halt = asyncio.Event()
        rng = random.Random(seed)
        coros = []
        for i in range(n):
            addr = f"127.0.0.{10 + i}"
            kind = kinds[i % len(kinds)]
            r_ = random.Random(rng.random())
            if kind == "frames":
                coros.append(abuse_frames(base, addr, halt, tally, target, r_))
            elif kind == "login":
                coros.append(abuse_login(base, addr, halt, tally, victim, r_))
            elif kind == "engine":
                coros.append(abuse_engine(base, addr, halt, tally, r_))
            elif kind == "seeks":
                coros.append(abuse_seeks(base, addr, halt, tally))
            elif kind == "register":
                coros.append(entries.abuse_register(base, addr, halt, tally, ctx, r_))
            elif kind == "consult":
                coros.append(entries.abuse_consult(base, addr, halt, tally, ctx, r_))
            else:
                coros.append(entries.abuse_simul(base, addr, halt, tally, ctx, r_))
        tasks = [asyncio.ensure_future(c) for c in coros]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        halt.set()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=15)
        out.put({k: dict(v) for k, v in tally.codes.items()})

    asyncio.run(main())


async def loop_lag(stop: asyncio.Event, out: list[float]) -> None:
    """How late this (the honest bots') event loop wakes from a 20 ms sleep:
    the part of a measured round trip that is the client's own delay."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(0.02)
        out.append(time.perf_counter() - t0 - 0.02)


async def run(args: argparse.Namespace, base: str, pid: int, data: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)
    stats = arena_load.Stats()
    rules_ms: list[float] = []
    rules_errors: list[str] = []
    lag: list[float] = []
    tally = Tally()
    memory = Memory(pid)
    stop = asyncio.Event()
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as client:
        victim = f"victim{rng.randrange(10**6)}"
        r = await client.post("/api/auth/register",
                              json={"username": victim, "password": "correct horse battery"})
        r.raise_for_status()
        owner = {"Authorization": f"Bearer {r.json()['token']}"}
        r = await client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                              headers=owner)
        r.raise_for_status()
        target = r.json()["id"]  # the game the frame abusers attack
    ctx: dict[str, Any] = {}
    if set(args.kinds) & set(entries.ENTRY_KINDS):
        ctx = await entries.setup(base, data, HONEST)  # an organiser, events, a simul
    # The honest games are opened first (a busy server may refuse new ones:
    # those errors count too), then the abuse starts, then they play.
    try:
        games = await asyncio.wait_for(honest_setup(base, args.games, stats), 60)
    except TimeoutError:
        games = []
        stats.errors.append("honest games could not be opened within 60 s")
    say(f"{len(games)} honest games open; the abuse starts")
    background = [asyncio.ensure_future(memory.watch(stop)),
                  asyncio.ensure_future(probe_rules(base, stop, rules_ms, rules_errors)),
                  asyncio.ensure_future(loop_lag(stop, lag))]
    mp = multiprocessing.get_context("spawn")
    halt, out = mp.Event(), mp.Queue()
    abusers = mp.Process(target=abuse_process, args=(base, args.kinds, args.abusers,
                                                     rng.random(), victim, target, ctx, halt,
                                                     out))
    abusers.start()
    await asyncio.sleep(args.warmup)  # let the abuse build up first
    say("the honest games start")
    cpu0, load0 = cpu_seconds(pid), os.getloadavg()[0]
    t0 = time.perf_counter()
    stop_at = time.monotonic() + args.duration
    try:
        await asyncio.wait_for(honest_games(base, games, args.plies, args.think, stop_at,
                                            stats, rng), timeout=args.duration + 30)
    except TimeoutError:
        stats.errors.append("some honest games did not finish in time")
    elapsed = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    say("the honest games are over; stopping the abuse")
    halt.set()
    try:
        codes = await asyncio.to_thread(out.get, True, 30)
        for kind, counts in codes.items():
            tally.codes[kind].update(counts)
    except queue.Empty:
        tally.add("abusers", "no tally (the process did not stop in time)")
    await asyncio.to_thread(abusers.join, 15)
    if abusers.is_alive():
        abusers.kill()
    stop.set()
    for t in background:
        t.cancel()
    await asyncio.wait(background, timeout=15)
    say("stopped")
    return {"stats": stats, "rules_ms": rules_ms, "rules_errors": rules_errors,
            "tally": tally, "memory": memory, "elapsed": elapsed, "lag": lag, "cpu": cpu,
            "load": (load0, os.getloadavg()[0])}


def main() -> None:
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="honest games (default 100)")
    ap.add_argument("--abusers", type=int, default=20, help="abusive clients (default 20)")
    ap.add_argument("--plies", type=int, default=60, help="plies per honest game")
    ap.add_argument("--think", type=float, default=1.0, help="honest bots' mean think, s")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of honest play")
    ap.add_argument("--warmup", type=float, default=10.0,
                    help="seconds of abuse before the honest games start")
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help=f"the kinds of abuse, in turn (default {','.join(KINDS)})")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if not args.kinds or any(k not in KINDS for k in args.kinds):
        raise SystemExit(f"--kinds: a comma-separated list of {', '.join(KINDS)}")
    if not (1 <= args.games <= 500 and 0 <= args.abusers <= 200 and 0 < args.duration <= 300):
        raise SystemExit("--games 1..500, --abusers 0..200, --duration (0, 300]")
    os.environ.setdefault("QISAI_RATE_MOVES", "1000")
    with tempfile.TemporaryDirectory() as tmp:
        port = arena_load.free_port()
        proc = arena_load.start_server(Path(tmp) / "data", port)
        base = f"http://127.0.0.1:{port}"
        try:
            out = asyncio.run(run(args, base, proc.pid, Path(tmp) / "data"))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    stats: arena_load.Stats = out["stats"]
    mem: Memory = out["memory"]
    print(f"honest: {args.games} games, think {args.think} s; abusers: {args.abusers} "
          f"({', '.join(args.kinds)}), {args.duration:.0f} s of play after {args.warmup:.0f} s "
          f"of abuse")
    ms = [r * 1000 for r in stats.rtts]
    if ms:
        print(f"honest moves: {len(ms)} in {out['elapsed']:.1f} s; round trip ms: "
              f"p50 {statistics.median(ms):.1f}  p99 {arena_load.percentile(ms, .99):.1f}  "
              f"max {max(ms):.1f}")
    else:
        print("honest moves: none")
    print(f"server CPU while the honest games played: {out['cpu']:.1f} s in "
          f"{out['elapsed']:.1f} s ({100 * out['cpu'] / max(out['elapsed'], 1e-9):.0f}% of one "
          f"core); machine load average {out['load'][0]:.1f} -> {out['load'][1]:.1f} "
          f"({os.cpu_count()} cores)")
    lag = [x * 1000 for x in out["lag"]]
    if lag:
        print(f"the honest client's own loop lag ms: p50 {statistics.median(lag):.1f}  "
              f"p99 {arena_load.percentile(lag, .99):.1f}  max {max(lag):.1f}")
    rules = [r * 1000 for r in out["rules_ms"]]
    if rules:
        print(f"/api/rules ms: {len(rules)} probes, p50 {statistics.median(rules):.1f}  "
              f"p99 {arena_load.percentile(rules, .99):.1f}  max {max(rules):.1f}")
    print(f"server peak RSS: {mem.peak_server / 1024:.0f} MiB (threads up to "
          f"{mem.server_threads}); its child processes: up to {mem.peak_children_count}, "
          f"peak {mem.peak_children / 1024:.0f} MiB together")
    errors = stats.errors + out["rules_errors"]
    print(f"honest games finished: {stats.finished // 2}/{args.games}; "
          f"honest errors: {len(errors)}")
    for e, n in collections.Counter(errors).most_common(8):
        print(f"  {n} x {e}")
    for kind, codes in sorted(out["tally"].codes.items()):
        print(f"abuse {kind}: " + ", ".join(f"{k} {v}" for k, v in codes.most_common(8)))


if __name__ == "__main__":
    main()
