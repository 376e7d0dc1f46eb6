"""An event day on one server (issue 29): a big Swiss played on the arena
while spectators watch, arbiters work, the papers are printed and a few
clients hammer the API.

Starts ``qisai serve`` on loopback with a fresh SQLite data folder (or uses
``--url``), then:

* makes an organiser, a chief arbiter and ``--players`` guest players (500 by
  default), creates a ``--event-rounds``-round 积分编排制 event with a clock,
  enters everyone and starts it;
* plays ``--rounds`` rounds: the round is paired (its server games are
  created and started by the arena), every player's bot plays its board over
  the game's WebSocket (a random legal move after ``--think`` seconds, on the
  event's clock), one side resigns after ``--plies`` plies;
* ``--spectators`` sockets watch the boards, spread over them (500);
* while the round is played: the event page (anonymous and as a player) and
  its JSON are read every ``--page-every`` seconds, every paper of the event
  is printed (PDF), the chief arbiter enters results of over-the-board
  corrections on finished boards (with a reason), and ``--bursty`` clients
  each send 30 requests at once every few seconds (issue 29.1);
* between rounds the chief arbiter pairs the next round (timed).

The bots play in a process of their own (``--split``, the default), so that
the round trip measured is the bots' own: the spectators, pages, papers,
corrections and bursty clients share the other process's event loop, whose
lag (also printed, for each process: how late a 50 ms timer wakes) used to
be counted in every round trip (``--no-split``: all in one, as before).
The side show can be switched off part by part (``--no-pages``,
``--no-papers``, ``--no-corrections``, ``--bursty 0``, ``--spectators 0``)
to tell which part the tail comes from.

Prints the move round trip (p50/p99/max), the page times and sizes
(p50/p99/max), each paper's time, the pairing times, what the bursty
clients got and every honest client's error.  Targets on 2 cores (issue
29): move p99 < 100 ms; event page p99 < 200 ms and < 300 KB; every paper
< 1.5 s; 0 honest errors.  Bounded: every phase has a deadline.

    nice python bench/event_day.py --players 500 --rounds 2

Loopback only.

Measured 2026-12-04 on the 2-core machine, 500 players, 2 rounds (1,000
boards, 10,000 moves), 500 spectators, 20 bursty clients, 0 honest errors:

* first session (load 1.3-3.8): move round trip p50 35 ms, p99 1,989 ms;
  the server used 96-113 s of CPU in 126-130 s; papers were drawn in the
  server's threads (29 % of its CPU in a profile, holding the interpreter
  against the event loop) and every finished board re-read the whole event;
* second session, papers drawn in worker processes, the saved event kept
  for the next result, bounded event pages (load 0.2-3.1): move round trip
  p50 14.9 ms, p99 325 ms; the server used 77.5 s of CPU in 115 s; event
  page p99 728 ms (a player), 2,234 ms (anonymous); papers p99 0.5-1.0 s,
  the 记录纸 (now with the 7.1 move grid, a page per game) 3.1 s.

* third session (issue 29.4, the move tail): a profile of the server
  (py-spy, round 1) found the event loop busy mostly with HTTP requests,
  whose blocking work ran on up to 40 worker threads taking turns with the
  loop at the interpreter lock (``bench/loop_share.py``: loop lag p99
  250-290 ms with 40 threads, 29-90 ms with 4-8), and the first event
  page compiling 25 templates on the loop (1.9 s).  Now 4 route threads
  (``QISAI_HTTP_THREADS``), templates compiled at start-up, the game list
  read as columns (2.1-2.6 -> 1.0 ms of CPU).  One round (``--rounds 1``),
  not niced, back to back on a machine at load 11-21 where the server got
  only 28-51 s of CPU in 100-295 s (last session: 77.5 s in 115 s), so
  these do not test the target (the later runs also had a lighter load):

  ====================  =======  ========  =========  ===========  ======
  run (load)            p50 ms   p99 ms    max ms     CPU s / s    errors
  ====================  =======  ========  =========  ===========  ======
  before (17-18)        645      4,419     7,419      28.6 / 230   0
  before (18-21)        943      6,352     12,599     33.8 / 295   163
  after (18-21)         621      4,275     8,628      46.8 / 290   8
  after (13-18)         232      1,218     1,893      31.3 / 135   0
  before (17-18)        501      3,588     4,705      51.4 / 280   6
  after (11-18)         209      1,099     1,317      27.6 / 100   0
  ====================  =======  ========  =========  ===========  ======

* third session, everything merged (also the event pages' revision
  column and the 记录纸 frame drawn once), ``--rounds 2``, the session's
  start (21c3edb) and the merged code back to back, after first, on a
  quiet machine (load 0.3-3.0):

  ==========================  ==================  ==================
  figure                      before (21c3edb)    after (4f5266f)
  ==========================  ==================  ==================
  move round trip p50 / p99   16.8 / 315 ms       9.2 / 255 ms
  event JSON p50 / p99        71 / 472 ms         31 / 300 ms
  page, player p50 / p99      64 / 813 ms         39 / 827 ms
  page, anonymous p50 / p99   58 / 2,200 ms       35 / 2,225 ms
  记录纸 p50 / p99            2,600 / 3,447 ms    725 / 1,524 ms
  other papers p99            687-990 ms          605-1,048 ms
  server CPU                  79.2 s in 116 s     75.8 s in 115 s
  ==========================  ==================  ==================

  The server's own move latency p99 <= 250 ms and its loop lag p99 <= 35
  ms (after).  A page's p99 is the first view after a board's result,
  which rebuilds the event (the snapshot is kept only while the event is
  unchanged, and during a round it changes with every result).

* fourth session (issue 29.4, where the move tail comes from), 300
  players, one round (150 boards, 3,000 moves), niced, on a machine at
  load 10-16 where the server got 7-23 s of CPU in 55-105 s: the figures
  tell the parts apart, not the target.  Round trip and each process's
  loop lag (the bench's: p99; the server's: the bucket of its p99):

  ==========================  =====  ======  ========  ========  ======  ======
  run (load)                  p50    p99     server    server    bots'   other
                              ms     ms      move p99  loop p99  lag     lag
  ==========================  =====  ======  ========  ========  ======  ======
  one process (12-10)         247    3,057   2,500     1,000     677 (one)
  split, all on (10-11)       74     2,311   500       1,000     390     1,065
  ``--no-papers`` (11-13)     87     3,322   250       2,500     547     1,761
  no pages, corrections (13)  36     5,647   5,000     1,000     213     788
  ``--bursty 0`` (13-11)      12     1,434   2,500     1,000     209     130
  ``--spectators 0`` (11-14)  58     1,703   250       1,000     183     1,304
  all off (14-11)             7      352     100       250       89      71
  ==========================  =====  ======  ========  ========  ======  ======

  The bench's own loop (one process) added p50 54 ms, p99 677 ms to the
  round trip.  The bursty clients (20 x 30 requests at once, 5,400
  answers, most a 429) cost half the server's CPU (18.4 -> 9.2 s) and most
  of the p50.  A profile of the server (py-spy, 50 s of a round) found the
  loop busy 55 % of the time; of that, HTTP requests 37 %, moves 29 % (the
  SQLite append 13 %, the update's state 6 %), the sockets' frames and
  their full state on connecting 17 % (its legal moves, listed again for
  every socket: now once per position), uvicorn's own work the rest.
  Counted in the server: 2-4 % of the moves (62-115 of
  3,150) found SQLite's write lock taken by a thread's commit and went to
  a worker thread, where they waited p50 64-480 ms, p90 0.4-2.5 s for one
  of the four game threads, all taken by finishing boards (wall 35-460 ms
  each for 9-13 ms of CPU, most of it the event's result entry waiting
  its turn): those moves were the p99.  Now a loop append waits up to
  5 ms for the lock (``storage.LOOP_WAIT_MS``) instead of going to a
  thread: back to back (load 13-16), moves sent to a thread 97 and 88 ->
  2 of 3,150; the server's move latency p99 <= 1,000 and <= 2,500 ms ->
  <= 250 and <= 100 ms.  The round trips of those runs (p99 2.3 and 3.2 s
  -> 5.4 and 2.0 s) measured the machine's load, not the change (a third
  run, at load 14-15 while other tests ran, lost 119 bots' sockets in the
  opening handshake, as one before the change lost 4): the lead's quiet
  runs judge it.

The targets p99 < 100 ms for moves and < 200 ms for pages are still missed
(issue 29).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arena_load import (  # noqa: E402
    bot,
    cpu_seconds,
    free_port,
    guest,
    percentile,
    server_figures,
    start_server,
)

PAPERS = ("pairings", "standings", "crosstable", "slips", "ratings")


class Day:
    """What the day measured."""

    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.sent: list[float] = []  # when each measured move was sent (perf_counter)
        self.pages: dict[str, list[tuple[float, int]]] = {}
        self.papers: dict[str, list[float]] = {}
        self.pairing: list[float] = []
        self.corrections: list[float] = []
        self.bursts: Counter[int] = Counter()
        self.burst_errors: Counter[str] = Counter()
        self.errors: list[str] = []
        self.spectator_messages = 0
        self.finished = 0
        self.lag: dict[str, list[float]] = {}  # the bench's own loop lag, by process
        self.slow_views: list[tuple[float, str, float]] = []  # (sent, page, seconds)
        self.round_starts: list[float] = []  # when each round's pairing was asked

    def page(self, name: str, seconds: float, size: int, sent: float) -> None:
        self.pages.setdefault(name, []).append((seconds, size))
        if seconds > 0.2:  # when the slow views were asked (see the report)
            self.slow_views.append((sent, name, seconds))


async def loop_lag(into: list[float], stop: asyncio.Event, period: float = 0.05) -> None:
    """Probe this process's own event loop: how late a ``period`` sleep
    wakes (its lag is part of every round trip measured in this process)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        t0 = loop.time()
        await asyncio.sleep(period)
        into.append(max(0.0, loop.time() - t0 - period))


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    v = [x * 1000 for x in values]
    return (f"p50 {statistics.median(v):.1f}  p99 {percentile(v, .99):.1f}  "
            f"max {max(v):.1f} ms (n={len(v)})")


async def timed_get(client: httpx.AsyncClient, url: str, day: Day, name: str,
                    headers: dict[str, str] | None = None) -> httpx.Response | None:
    t0 = time.perf_counter()
    try:
        r = await client.get(url, headers=headers)
    except httpx.HTTPError as exc:
        day.errors.append(f"{name}: {type(exc).__name__}")
        return None
    took = time.perf_counter() - t0
    if r.status_code != 200:
        day.errors.append(f"{name}: HTTP {r.status_code}")
        return r
    if name.startswith("paper:"):
        day.papers.setdefault(name[6:], []).append(took)
    else:
        day.page(name, took, len(r.content), t0)
    return r


# ------------------------------------------------------------------ players
async def player(client: httpx.AsyncClient, base: str, token: str, uid: int, day: Day,
                 plies: int, think: float, deadline: float, rng: random.Random) -> None:
    """Find the player's board of the round and play it to the end.  The
    look-ups share one client (a connection pool of 50): a client each, with
    its own TLS context, made the bench's own start of a round slow, which is
    not what it measures."""
    h = {"Authorization": f"Bearer {token}"}
    game_id = None
    while game_id is None and time.monotonic() < deadline:
        r = await client.get("/api/games", params={"user_id": uid, "status": "active",
                                                   "limit": 1}, headers=h)
        if r.status_code == 200 and r.json():
            game_id = r.json()[0]["id"]
        else:
            await asyncio.sleep(0.5)
    if game_id is None:  # a bye (odd field) or no game made
        return
    before = day.finished
    # The arena's load bench's bot plays it: a random legal move after the
    # think, resigning at ``plies`` (or at the deadline).
    await bot(base.replace("http", "ws") + f"/ws/games/{game_id}", token, day, plies, think,
              deadline, rng)
    if day.finished == before:
        day.errors.append(f"game {game_id}: not over by the round's deadline")


async def play_bots(base: str, sessions: list[tuple[str, int, str]], seeds: list[float],
                    day: Day, plies: int, think: float, round_deadline: float) -> None:
    """Every player's bot plays its board of the round (see :func:`player`)."""
    deadline = time.monotonic() + round_deadline
    lookups = httpx.AsyncClient(base_url=base, timeout=60,
                                limits=httpx.Limits(max_connections=50))
    bots = [asyncio.wait_for(player(lookups, base, tok, uid, day, plies, think, deadline,
                                    random.Random(seed)), round_deadline + 30)
            for (tok, uid, _name), seed in zip(sessions, seeds, strict=True)]
    for outcome in await asyncio.gather(*bots, return_exceptions=True):
        if isinstance(outcome, BaseException):
            day.errors.append(f"player: {type(outcome).__name__} {str(outcome)[:60]}")
    await lookups.aclose()


def bots_process(base: str, sessions: list[tuple[str, int, str]], seeds: list[float],
                 plies: int, think: float, round_deadline: float) -> dict[str, Any]:
    """The bots' own process (``--split``): play the round's boards and
    return what they measured (``rtts``, ``sent``, ``errors``, ``finished``
    and this process's loop ``lag``), so that the round trip is not
    inflated by the spectators, pages, papers and bursty clients sharing
    the bench's event loop."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)

    async def run() -> Day:
        day = Day()
        stop = asyncio.Event()
        probe = asyncio.create_task(loop_lag(day.lag.setdefault("bots' process", []), stop))
        await play_bots(base, sessions, seeds, day, plies, think, round_deadline)
        stop.set()
        await probe
        return day

    day = asyncio.run(run())
    return {"rtts": day.rtts, "sent": day.sent, "errors": day.errors,
            "finished": day.finished, "lag": day.lag["bots' process"]}


def ready() -> bool:
    """A no-op run in the bots' process before play, so that its start-up
    is not in the round."""
    return True


async def spectator(url: str, day: Day, stop: asyncio.Event) -> None:
    try:
        async with connect(url, max_size=2**22) as ws:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                day.spectator_messages += 1
    except Exception as exc:  # noqa: BLE001 - counted, the day goes on
        if not stop.is_set():
            day.errors.append(f"spectator: {type(exc).__name__}")


# ------------------------------------------------------------ the side show
async def watchers(base: str, tid: int, player_token: str, staff_token: str, day: Day,
                   every: float, stop: asyncio.Event, pages: bool = True,
                   papers: bool = True) -> None:
    """Read the event's pages (``pages``) and print its papers (``papers``)
    while the round runs (the score slips are the staff's)."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as anon, \
            httpx.AsyncClient(base_url=base, timeout=60,
                              headers={"Authorization": f"Bearer {player_token}"}) as me, \
            httpx.AsyncClient(base_url=base, timeout=60,
                              headers={"Authorization": f"Bearer {staff_token}"}) as staff:
        while not stop.is_set():
            if pages:
                await timed_get(anon, f"/tournaments/{tid}", day, "event page (anonymous)")
                await timed_get(me, f"/tournaments/{tid}", day, "event page (a player)")
                await timed_get(anon, f"/api/tournaments/{tid}", day, "event JSON")
            for kind in PAPERS if papers else ():
                if stop.is_set():
                    break
                await timed_get(staff if kind == "slips" else anon,
                                f"/tournaments/{tid}/papers/{kind}.pdf", day, f"paper:{kind}")
            try:
                await asyncio.wait_for(stop.wait(), every)
            except TimeoutError:
                pass


async def bursty(base: str, token: str, day: Day, stop: asyncio.Event, rng: random.Random
                 ) -> None:
    """Thirty requests at once every few seconds from one account."""
    h = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=40)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits, headers=h) as c:
        while not stop.is_set():
            calls = [c.post("/api/games", json={"kind": "xiangqi", "color": "first"})
                     if i % 2 else c.get("/api/games", params={"limit": 50}) for i in range(30)]
            for r in await asyncio.gather(*calls, return_exceptions=True):
                code = r.status_code if isinstance(r, httpx.Response) else 0
                day.bursts[code] += 1
                if code >= 500 or code == 0:
                    day.burst_errors[str(r.text[:100] if isinstance(r, httpx.Response)
                                         else type(r).__name__)] += 1
            try:
                await asyncio.wait_for(stop.wait(), 1.0 + 2.0 * rng.random())
            except TimeoutError:
                pass


async def arbiter_corrections(base: str, tid: int, round_no: int, token: str, day: Day,
                              stop: asyncio.Event) -> None:
    """The chief arbiter corrects finished boards of the round (with a
    reason, as 17.5's announced result may be corrected), a few a minute."""
    h = {"Authorization": f"Bearer {token}"}
    done: set[int] = set()
    async with httpx.AsyncClient(base_url=base, timeout=60, headers=h) as c:
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), 5.0)
            except TimeoutError:
                pass
            r = await c.get(f"/api/tournaments/{tid}/rounds/{round_no}",
                            params={"limit": 100})
            if r.status_code != 200:
                r = await c.get(f"/api/tournaments/{tid}")
            if r.status_code != 200:
                day.errors.append(f"arbiter view: HTTP {r.status_code}")
                continue
            for board, result in _finished_boards(r.json(), round_no):
                if board in done:
                    continue
                done.add(board)
                t0 = time.perf_counter()
                rr = await c.put(f"/api/tournaments/{tid}/rounds/{round_no}/boards/{board}",
                                 json={"result": result,
                                       "reason": "bench: result re-entered from the score "
                                                 "sheet (记录纸)"})
                if rr.status_code != 200:
                    day.errors.append(f"correction: HTTP {rr.status_code} {rr.text[:80]}")
                else:
                    day.corrections.append(time.perf_counter() - t0)
                break


def _finished_boards(view: dict[str, Any], round_no: int) -> list[tuple[int, str]]:
    """The ``(board, result)`` of the finished boards of ``round_no`` in an
    event view (either the round's own page or the whole event)."""
    boards = view.get("boards")
    if boards is None:
        rounds = view.get("rounds") or []
        rnd = next((r for r in rounds if r.get("number") == round_no), None)
        boards = (rnd or {}).get("pairings") or (rnd or {}).get("boards") or []
    out = []
    for b in boards:
        result = b.get("result")
        if result in ("1-0", "0-1", "1/2-1/2", "="):
            out.append((int(b["board"]), "=" if result == "1/2-1/2" else result))
    return out


# ---------------------------------------------------------------- the day
async def day_async(args: argparse.Namespace, base: str, data: Path | None,
                    proc: subprocess.Popen[bytes] | None, pool: ProcessPoolExecutor | None
                    ) -> tuple[Day, float | None, float]:
    day = Day()
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        r = await client.post("/api/auth/register",
                              json={"username": "director", "password": "bench-director-29"})
        r.raise_for_status()
        org = r.json()
        r = await client.post("/api/auth/register",
                              json={"username": "chiefarbiter", "password": "bench-arbiter-29"})
        r.raise_for_status()
        chief = r.json()
        client.cookies.clear()
        if data is None:
            raise SystemExit("--url: make 'director' an organiser by hand first")
        from qisai.store import Database, repo
        from qisai.store.models import Role

        db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
        with db.session() as s:
            repo.set_role(s, org["user"]["id"], Role.ORGANISER)
        db.dispose()
        oh = {"Authorization": f"Bearer {org['token']}"}
        ch = {"Authorization": f"Bearer {chief['token']}"}
        t0 = time.perf_counter()
        (await client.get("/api/auth/csrf")).raise_for_status()
        sessions = await asyncio.gather(*[_guest_session(client) for _ in range(args.players)])
        bursty_tokens = [await guest(client) for _ in range(args.bursty)]
        print(f"[setup] {args.players} players and {args.bursty} bursty guests in "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
        r = await client.post("/api/tournaments", headers=oh, json={
            "name": "event day", "system": "swiss", "rounds": args.event_rounds,
            "time": {"minutes": 30, "increment": 10}})
        r.raise_for_status()
        tid = r.json()["id"]
        r = await client.post(f"/api/tournaments/{tid}/staff", headers=oh,
                              json={"username": "chiefarbiter", "role": "chief_arbiter"})
        r.raise_for_status()
        t0 = time.perf_counter()
        entry_times = []
        for i, (_tok, _uid, name) in enumerate(sessions):
            t1 = time.perf_counter()
            r = await client.post(f"/api/tournaments/{tid}/entries", headers=oh,
                                  json={"username": name, "rating": 1200 + (i * 7919) % 1400})
            r.raise_for_status()
            entry_times.append(time.perf_counter() - t1)
        print(f"[setup] {args.players} entries in {time.perf_counter() - t0:.1f} s; "
              f"one entry {ms(entry_times)}", flush=True)
        r = await client.post(f"/api/tournaments/{tid}/start", headers=oh)
        r.raise_for_status()
    if pool is not None:  # the bots' process started before play
        await asyncio.get_running_loop().run_in_executor(pool, ready)
    cpu0 = cpu_seconds(proc.pid) if proc is not None else None
    t_play = time.perf_counter()
    for round_no in range(1, args.rounds + 1):
        async with httpx.AsyncClient(base_url=base, timeout=120) as client:
            t0 = time.perf_counter()
            r = await client.post(f"/api/tournaments/{tid}/rounds", headers=ch)
            took = time.perf_counter() - t0
            if r.status_code != 200:
                day.errors.append(f"pair round {round_no}: HTTP {r.status_code} {r.text[:120]}")
                break
            day.pairing.append(took)
            day.round_starts.append(t0)
            print(f"[round {round_no}] paired and its games started in {took:.2f} s", flush=True)
        stop = asyncio.Event()
        lag_name = "bench's other process" if pool is not None else "bench's one process"
        side = [asyncio.create_task(loop_lag(day.lag.setdefault(lag_name, []), stop))]
        if args.pages or args.papers:
            side.append(asyncio.create_task(watchers(
                base, tid, sessions[0][0], chief["token"], day, args.page_every, stop,
                args.pages, args.papers)))
        if args.corrections:
            side.append(asyncio.create_task(arbiter_corrections(
                base, tid, round_no, chief["token"], day, stop)))
        side += [asyncio.create_task(bursty(base, t, day, stop, random.Random(i)))
                 for i, t in enumerate(bursty_tokens)]
        seeds = [rng.random() for _ in sessions]
        bots: asyncio.Future[Any]
        if pool is None:
            bots = asyncio.ensure_future(play_bots(base, sessions, seeds, day, args.plies,
                                                   args.think, args.round_deadline))
        else:
            bots = asyncio.get_running_loop().run_in_executor(
                pool, bots_process, base, sessions, seeds, args.plies, args.think,
                args.round_deadline)
        await asyncio.sleep(3.0)  # the players found their boards: now the crowd comes
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            r = await client.get("/api/games", params={"status": "active", "limit": 200})
            games = [g["id"] for g in r.json()] if r.status_code == 200 else []
        ws_base = base.replace("http", "ws")
        crowd = [asyncio.create_task(spectator(f"{ws_base}/ws/games/{games[i % len(games)]}",
                                               day, stop))
                 for i in range(args.spectators if games else 0)]
        try:
            played = await asyncio.wait_for(bots, args.round_deadline + 60)
        except Exception as exc:  # noqa: BLE001 - counted, the day goes on
            day.errors.append(f"bots: {type(exc).__name__} {str(exc)[:60]}")
            played = None
        if isinstance(played, dict):
            day.rtts += played["rtts"]
            day.sent += played["sent"]
            day.errors += played["errors"]
            day.finished += played["finished"]
            day.lag.setdefault("bots' process", []).extend(played["lag"])
        stop.set()
        await asyncio.gather(*side, *crowd, return_exceptions=True)
        print(f"[round {round_no}] over: {day.finished // 2} boards finished so far", flush=True)
    elapsed = time.perf_counter() - t_play
    cpu1 = cpu_seconds(proc.pid) if proc is not None else None
    used = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    return day, used, elapsed


async def _guest_session(client: httpx.AsyncClient) -> tuple[str, int, str]:
    """A new guest session.  Set-up is not what the bench measures: a
    refusal for the moment (429, 503) or a connection the server closed
    while idle is tried again after a pause, a few times."""
    for attempt in range(8):
        try:
            form = await client.get("/api/auth/csrf")
            if form.status_code == 200:
                r = await client.post("/api/auth/guest",
                                      headers={"X-CSRF-Token": form.json()["csrf"]})
                if r.status_code not in (429, 503) or attempt == 7:
                    r.raise_for_status()
                    body = r.json()
                    return body["token"], body["user"]["id"], body["user"]["username"]
            elif form.status_code not in (429, 503):
                form.raise_for_status()
        except httpx.TransportError:
            if attempt == 7:
                raise
        await asyncio.sleep(0.5 + attempt)
    raise RuntimeError("no guest session after 8 tries")


def main() -> None:
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--event-rounds", type=int, default=11, help="the event's rounds (11)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds played in the bench (2)")
    ap.add_argument("--plies", type=int, default=20, help="plies before a side resigns")
    ap.add_argument("--think", type=float, default=2.0, help="bots' mean think, s")
    ap.add_argument("--spectators", type=int, default=500)
    ap.add_argument("--bursty", type=int, default=20, help="clients sending 30 at once")
    ap.add_argument("--page-every", type=float, default=2.0, help="s between page rounds")
    ap.add_argument("--round-deadline", type=float, default=240.0, help="most s a round")
    ap.add_argument("--pages", action=argparse.BooleanOptionalAction, default=True,
                    help="read the event's pages while playing (on)")
    ap.add_argument("--papers", action=argparse.BooleanOptionalAction, default=True,
                    help="print the event's papers while playing (on)")
    ap.add_argument("--corrections", action=argparse.BooleanOptionalAction, default=True,
                    help="the chief arbiter corrects finished boards (on)")
    ap.add_argument("--split", action=argparse.BooleanOptionalAction, default=True,
                    help="the bots in a process of their own (on); --no-split: every "
                         "client role in one process, as before")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 2 <= args.players <= 2000 or not 1 <= args.rounds <= args.event_rounds:
        raise SystemExit("--players 2..2000, --rounds 1..--event-rounds")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        port = free_port()
        proc = start_server(data, port)
        pool = (ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
                if args.split else None)
        try:
            day, used, elapsed = asyncio.run(day_async(args, f"http://127.0.0.1:{port}",
                                                       data, proc, pool))
            server = server_figures(f"http://127.0.0.1:{port}")
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    off = [name for name in ("pages", "papers", "corrections") if not getattr(args, name)]
    print(f"event day: {args.players} players, {args.rounds} rounds played, "
          f"{args.spectators} spectators, {args.bursty} bursty clients, {elapsed:.0f} s; "
          f"bots {'in a process of their own' if args.split else 'with every other client'}"
          + (f"; off: {', '.join(off)}" if off else ""))
    print(f"moves: {len(day.rtts)}; round trip {ms(day.rtts)}")
    for line in server:
        print(line)
    for name, lags in sorted(day.lag.items()):
        print(f"client loop lag, {name}: {ms(lags)}")
    if day.sent:
        # When the slow moves were sent: a tail that comes in bursts (a
        # round's start, a stall of the loop) or one spread over the day.
        t0 = min(day.sent)
        slow = Counter(int((t - t0) // 10) * 10 for t, r in zip(day.sent, day.rtts, strict=True)
                       if r > 0.1)
        print("moves over 100 ms by 10 s of play: "
              + (", ".join(f"{k} s: {n}" for k, n in sorted(slow.items())) or "none"))
    for name, rows in sorted(day.pages.items()):
        print(f"{name}: {ms([t for t, _ in rows])}; size max {max(b for _, b in rows) / 1024:.0f} KiB")
    if day.slow_views and day.round_starts:
        # A slow view asked as its round starts (250 games created, 1,000
        # sockets sent their state) is the start's burst, not the page's own.
        def since(t: float) -> str:
            k = max(i for i, r in enumerate(day.round_starts) if r <= t) if t >= day.round_starts[0] else 0
            return f"round {k + 1} + {t - day.round_starts[k]:.1f} s"
        print("views over 200 ms: " + "; ".join(f"{name} {took * 1000:.0f} ms at {since(sent)}"
                                                for sent, name, took in sorted(day.slow_views)))
    for kind, times in sorted(day.papers.items()):
        print(f"paper {kind}: {ms(times)}")
    print(f"pairing (POST rounds): {ms(day.pairing)}")
    print(f"corrections: {ms(day.corrections)}")
    print(f"bursty clients' answers: {dict(sorted(day.bursts.items()))}")
    for e, n in day.burst_errors.most_common(4):
        print(f"  {n} x {e}")
    print(f"spectator messages: {day.spectator_messages}; boards finished: {day.finished // 2}")
    if used is not None and day.rtts:
        print(f"server CPU while playing: {used:.1f} s in {elapsed:.0f} s")
    print(f"honest errors: {len(day.errors)}")
    for e, n in Counter(day.errors).most_common(8):
        print(f"  {n} x {e}")


if __name__ == "__main__":
    main()
