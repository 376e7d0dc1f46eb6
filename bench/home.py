"""Home page benchmark (issue 22): the home page's server time with 1,000
running games and 200 events in the database, and one page socket's
message rate for 12 live boards whose games move fast.

Loopback only, bounded.  It makes a fresh data folder, fills its database
directly (``--players`` accounts, ``--games`` running games of which some
are boards of running events, ``--events`` events: upcoming with a listing,
running with a round, finished), starts ``qisai serve`` on 127.0.0.1, then:

1. 12 bot games are opened through the API by guests and played over their
   game sockets (random legal Xiangqi moves, ``--think`` seconds apart);
2. one page socket (``/ws/lobby``) watches those 12 games for
   ``--duration`` seconds: it counts its ``boards`` messages and the board
   changes in them, against the moves played;
3. meanwhile ``GET /`` is timed ``--requests`` times, one after another, as
   a visitor without a session and as a logged-in player (the calendar
   orders his own events first): p50 / p99 of the round trip on loopback
   (the server's time, as near as a client sees it).

Targets: p99 under 50 ms on 2 cores; under 20 messages a second on the
page socket for 12 live boards.

    nice -n 5 python bench/home.py --duration 20 --requests 300

Measured 2026-12-02 on the shared 2-core machine while other work ran
beside it (load average 10 to 15), ``nice -n 5``, ``--duration 15
--requests 300``; the round trips' p99 is the machine's queue more than the
server (its CPU time per page is the steadier figure):

==========  ====================  =================  ===============  ===========
database    GET / no session      GET / logged in    server CPU/page  page socket
            p50 / p99 ms          p50 / p99 ms       (anon / logged)  12 boards
==========  ====================  =================  ===============  ===========
SQLite      19.8 / 251            40.4 / 361         8.4 / 11.1 ms    3.9 msg/s
PostgreSQL  58.7 / 266            40.3 / 142         11.5 / 11.1 ms   3.9 msg/s
SQLite (*)  15.9 / 91             44.7 / 116         8.8 / 12.0 ms    3.8 msg/s
==========  ====================  =================  ===============  ===========

(*) after main's quick-pairing block joined the home page (load average 11).

The page socket sent 3.9 messages a second (708 board updates) while the 12
games made 100 moves a second: the 20 a second target holds by
construction (one message per 0.25 s at most, :mod:`qisai.web.lobby.feed`).
Of the ~8 ms of server CPU per page, the live boards and the calendar take
about 1 ms (kept 3 s, refreshed behind the requests); the rest is the
existing lists of open, live and recent games (three queries) and the
template.  The p99 target (50 ms on 2 cores) needs an idle machine to be
shown; at 8-11 ms of CPU a page it is not the server that misses it here.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from qisai.competition import Player, System, Tournament
from qisai.store import Database
from qisai.store.models import (
    Game,
    GameStatus,
    Pairing,
    Round,
    TournamentEntry,
    User,
)
from qisai.store.models import Tournament as TournamentRow

LAUNCH = ("import typer; from qisai.cli.arena import register; "
          "app = typer.Typer(); register(app); app()")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fill(url: str, players: int, games: int, events: int, rng: random.Random) -> None:
    """Fill the database: accounts, running games, events (a third upcoming
    with a listing, a third running with a round whose boards are running
    games, a third finished)."""
    db = Database(url)
    db.upgrade()
    with db.session() as s:
        users = [User(username=f"p{i:04d}", display_name=f"Player {i}", password_hash=None,
                      rating=float(rng.randint(1000, 2600))) for i in range(players)]
        s.add_all(users)
        s.flush()
        rows: list[TournamentRow] = []
        for i in range(events):
            phase = ("registration", "running", "finished")[i % 3]
            t = Tournament(f"Event {i}", System("swiss"), rounds=7, seed=i)
            for j in range(16):
                t.add_player(Player(f"E{i}-{j}", rng.randint(1200, 2400)))
            settings: dict[str, Any] = {"event": t.to_dict(), "users": {}, "log": [],
                                        "time": {"scheme": "6.2"}}
            if phase == "registration":
                day = dt.date(2027, 1, 1) + dt.timedelta(days=i)
                settings["listing"] = {"starts": day.isoformat(), "venue": f"Hall {i}",
                                       "groups": ["公开组", "女子组"], "min_rating": 1000}
            rows.append(TournamentRow(name=f"Event {i}", kind="xiangqi", format="swiss",
                                      ruleset="cxa", status=phase, organiser_id=users[i].id,
                                      settings=settings))
        s.add_all(rows)
        s.flush()
        pairings: list[int] = []
        for row in rows:
            if row.status != "running":
                continue
            entries = [TournamentEntry(tournament_id=row.id, number=n + 1, name=f"E{row.id}-{n}")
                       for n in range(8)]
            s.add_all(entries)
            rnd = Round(tournament_id=row.id, number=1, published=True)
            s.add(rnd)
            s.flush()
            board_rows = [Pairing(round_id=rnd.id, board=b + 1, first_entry_id=entries[2 * b].id,
                                  second_entry_id=entries[2 * b + 1].id) for b in range(4)]
            s.add_all(board_rows)
            s.flush()
            pairings += [p.id for p in board_rows]
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        for i in range(games):
            a, b = rng.sample(users, 2)
            s.add(Game(id=f"b{i:06d}", kind="xiangqi", ruleset="casual",
                       settings={"time": {"minutes": 10, "increment": 5}},
                       status=GameStatus.ACTIVE.value, first_user_id=a.id, second_user_id=b.id,
                       created_by_id=a.id, pairing_id=pairings[i] if i < len(pairings) else None,
                       started_at=now - dt.timedelta(seconds=i), created_at=now
                       - dt.timedelta(seconds=i), event_count=0, move_count=0))
        s.commit()
    db.dispose()


def start_server(data: Path, port: int, url: str | None, log: Any) -> subprocess.Popen[bytes]:
    env = dict(os.environ, QISAI_DATA_DIR=str(data), QISAI_RATE_SIGNUP="100000",
               QISAI_RATE_MOVES="1000")
    if url:
        env["QISAI_DATABASE_URL"] = url
    else:
        env.pop("QISAI_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve", "--port", str(port),
                             "--log-level", "warning"], env=env, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/rules", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def guest(client: httpx.AsyncClient) -> str:
    form = await client.get("/api/auth/csrf")
    form.raise_for_status()
    r = await client.post("/api/auth/guest", headers={"X-CSRF-Token": form.json()["csrf"]})
    r.raise_for_status()
    token: str = r.json()["token"]
    return token


async def bot(ws_url: str, token: str, think: float, stop_at: float, rng: random.Random,
              moves: list[float]) -> None:
    """Play random legal moves for one side until ``stop_at``."""
    async with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"},
                       max_size=2**22) as ws:
        state: dict[str, Any] = {}
        waiting = False
        while time.monotonic() < stop_at:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), stop_at - time.monotonic()))
            except TimeoutError:
                return
            if msg["type"] in ("state", "update"):
                you = state.get("you")
                state = msg["state"]
                state.setdefault("you", you)
            elif msg["type"] in ("ack", "error"):
                waiting = False
                if msg["type"] == "error":
                    await ws.send(json.dumps({"type": "sync"}))
                continue
            if (not state or state.get("result") or waiting or state["to_move"] != state["you"]
                    or state["phase"] != "playing"):
                continue
            legal = state["position"]["legal"]
            if not legal:
                return
            await asyncio.sleep(think * (0.5 + rng.random()))
            frm = rng.choice(sorted(legal))
            waiting = True
            moves.append(time.monotonic())
            await ws.send(json.dumps({"type": "move", "ply": state["ply"] + 1,
                                      "move": frm + rng.choice(legal[frm])}))


async def page_socket(ws_url: str, ids: list[str], seconds: float) -> dict[str, float]:
    """Watch ``ids`` on one page socket for ``seconds``; count its ``boards``
    messages and the board updates in them (the first message, which
    carries every board, is not counted)."""
    messages = boards = 0
    start = end = time.monotonic()
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "watch", "games": ids}))
        first = True
        while True:
            left = (start + seconds if not first else time.monotonic() + 10) - time.monotonic()
            if left <= 0:
                break
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), left))
            except TimeoutError:
                break
            if msg["type"] == "watching" and msg["refused"]:
                raise SystemExit(f"the page socket refused {msg['refused']}")
            if msg["type"] != "boards":
                continue
            if first:
                first = False
                start = time.monotonic()
                continue
            messages += 1
            boards += len(msg["boards"])
        end = time.monotonic()
    return {"messages": messages, "boards": boards, "start": start, "end": end}


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SERVER_PID = 0
CPU: dict[str, float] = {}


async def time_home(base: str, n: int, headers: dict[str, str], name: str = "") -> list[float]:
    """Time ``n`` home pages one after another; the server's CPU time per
    page goes to ``CPU[name]`` (less subject to the other work of the
    machine than the round trips)."""
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for _ in range(5):  # warm the app up
            (await client.get("/", headers=headers)).raise_for_status()
        cpu = cpu_seconds(SERVER_PID) if SERVER_PID and name else 0.0
        for _ in range(n):
            t0 = time.perf_counter()
            r = await client.get("/", headers=headers)
            out.append(time.perf_counter() - t0)
            r.raise_for_status()
        if SERVER_PID and name:
            CPU[name] = (cpu_seconds(SERVER_PID) - cpu) / n
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(args: argparse.Namespace, base: str) -> None:
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        tokens = [await guest(client) for _ in range(2 * args.boards)]
        games = []
        for i in range(args.boards):
            a, b = tokens[2 * i], tokens[2 * i + 1]
            r = await client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                                      "time": {"minutes": 30}},
                                  headers={"Authorization": f"Bearer {a}"})
            r.raise_for_status()
            gid = r.json()["id"]
            (await client.post(f"/api/games/{gid}/join",
                               headers={"Authorization": f"Bearer {b}"})).raise_for_status()
            games.append((gid, a, b))
        player = await client.post("/api/auth/register",
                                   json={"username": "bench-viewer", "password": "bench pass 1"})
        player.raise_for_status()
        viewer = {"Authorization": f"Bearer {player.json()['token']}"}
    # 1. The home page, timed with the database full and nothing else asked.
    anon = await time_home(base, args.requests, {}, "anon")
    logged = await time_home(base, max(10, args.requests // 3), viewer, "logged")
    # 2. The 12 games played fast, one page socket watching them.
    ws = base.replace("http", "ws")
    stop_at = time.monotonic() + args.duration + 3
    moves: list[float] = []
    bot_tasks = [asyncio.create_task(bot(f"{ws}/ws/games/{gid}", tok, args.think, stop_at,
                                         random.Random(rng.random()), moves))
                 for gid, a, b in games for tok in (a, b)]
    await asyncio.sleep(1.0)  # the games are under way
    feed = await page_socket(f"{ws}/ws/lobby", [g for g, _, _ in games], args.duration)
    played = sum(1 for t in moves if feed["start"] <= t <= feed["end"])
    # 3. The home page again, while those games go on.
    busy = await time_home(base, max(10, args.requests // 3), {})
    for t in bot_tasks:
        t.cancel()
    await asyncio.gather(*bot_tasks, return_exceptions=True)
    print(f"database: {args.games} running games, {args.events} events, {args.players} players")
    for key, name, times in (("anon", "GET / (no session)", anon),
                             ("logged", "GET / (logged in)", logged),
                             ("", f"GET / ({args.boards} games playing)", busy)):
        cpu = f"  server CPU {CPU[key] * 1000:5.1f} ms/page" if key in CPU else ""
        print(f"{name:26s} n={len(times):4d}  p50 {pct(times, .5):6.1f} ms  "
              f"p99 {pct(times, .99):6.1f} ms  mean {statistics.mean(times) * 1000:6.1f} ms{cpu}")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    span = feed["end"] - feed["start"]
    rate = feed["messages"] / span if span > 0 else 0.0
    print(f"page socket, {args.boards} live boards: {feed['messages']:.0f} messages in "
          f"{span:.1f} s = {rate:.2f} messages/s ({feed['boards']:.0f} board updates; "
          f"{played} moves played meanwhile = {played / span if span > 0 else 0:.1f} moves/s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="running games in the database")
    ap.add_argument("--events", type=int, default=200, help="events in the database")
    ap.add_argument("--players", type=int, default=400, help="accounts in the database")
    ap.add_argument("--boards", type=int, default=12, help="live boards on the page socket")
    ap.add_argument("--think", type=float, default=0.1, help="bots' mean seconds per move")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of play measured")
    ap.add_argument("--requests", type=int, default=300, help="home page requests timed")
    ap.add_argument("--database-url", help="PostgreSQL URL (an empty database) instead of "
                                           "SQLite in the data folder")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not (1 <= args.boards <= 12 and 0 < args.duration <= 300 and 10 <= args.requests <= 5000
            and 0 <= args.games <= 100_000 and 0 <= args.events <= 10_000
            and 2 <= args.players <= 100_000):
        raise SystemExit("--boards 1..12, --duration 0..300, --requests 10..5000")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        url = args.database_url or f"sqlite:///{data / 'qisai.sqlite3'}"
        t0 = time.perf_counter()
        fill(url, args.players, args.games, args.events, random.Random(args.seed))
        print(f"filled the database in {time.perf_counter() - t0:.1f} s")
        port = free_port()
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            proc = start_server(data, port, args.database_url, log)
            global SERVER_PID
            SERVER_PID = proc.pid
            try:
                asyncio.run(asyncio.wait_for(run(args, f"http://127.0.0.1:{port}"),
                                             args.duration + 240))
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        # The bots hang up at the end, some while the server answers a move:
        # those errors are expected; anything else is shown.
        text = log_path.read_text(encoding="utf-8", errors="replace")
        errors = text.count("Exception in ASGI application")
        print(f"server log: {errors} errors (bots hanging up mid-answer at the end)")
        if errors and "WebSocketDisconnect" not in text and "close message" not in text:
            print(text[-3000:])


if __name__ == "__main__":
    main()
