"""Benchmark of issue 17 items 5 and 7: how long the arena's start-up spends
finding the installed engines, and how long a player's downloads take.

Finds the engines (:func:`qisai.engines.discovery.discover`) ``--rounds``
times and prints the seconds (median, most).  Then, in an app on a fresh
SQLite file (in-process, FastAPI's test client), plays ``--games`` short
games for one player (Xiangqi and 9x9 Go: up to 20 moves from a fixed list,
those the referee takes, then a resignation) and times ``GET /api/users/ID/games.pgn`` and
``/games.zip`` (bytes, seconds, games a second).  Prints figures; no
thresholds.

    nice -n 5 python bench/player_downloads.py --games 200

Measured 2026-12-02 on the shared 2-core machine (load from other work, so
figures are rough), ``--games 100``: discovery (Fairy-Stockfish 11.1, GNU
Go 3.8; no Pachi, KataGo) median 0.53 s, most 0.56 s; games.pgn 100 games,
39 KiB, 1.79 s (56 games/s); games.zip 100 games, 25 KiB, 1.20 s (83
games/s): a download of the most games (500) takes some 10 s of a worker
thread, the event loop stays free.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

XIANGQI = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5", "b0c2", "a9b9",
           "b6c6", "b7a7", "a0b0", "a7a3", "c6c7", "b9b0", "c2b0", "h7h3", "g3g4", "h3g3"]
GO = ["E5", "C3", "G3", "C7", "G7", "E3", "E7", "C5", "G5", "D4", "F4", "D6", "F6", "B4",
      "H4", "B6", "H6", "D2", "F2", "D8"]


def discovery_times(rounds: int) -> list[float]:
    from qisai.engines.discovery import discover

    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        found = asyncio.run(discover())
        out.append(time.perf_counter() - t0)
    print("found:", ", ".join(f"{f.engine} ({len(f.levels)} levels)" for f in found.found)
          or "nothing", "| skipped:", ", ".join(found.skipped) or "nothing")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games of each kind")
    ap.add_argument("--rounds", type=int, default=3, help="discovery runs")
    args = ap.parse_args()
    times = discovery_times(args.rounds)
    print(f"discovery: median {statistics.median(times):.2f} s, most {max(times):.2f} s "
          f"({args.rounds} runs)")

    from fastapi.testclient import TestClient

    from qisai.web import Settings, create_app

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.from_env(Path(tmp) / "data", url=f"sqlite:///{tmp}/b.sqlite3")
        settings.moves_per_second = 10_000
        with TestClient(create_app(settings)) as c:
            def user(name: str) -> tuple[dict[str, str], int]:
                r = c.post("/api/auth/register", json={"username": name,
                                                       "password": "correct horse"})
                c.cookies.clear()
                return {"Authorization": f"Bearer {r.json()['token']}"}, r.json()["user"]["id"]

            (a, uid), (b, _) = user("bencha"), user("benchb")
            t0 = time.perf_counter()
            for kind, moves in (("xiangqi", XIANGQI), ("go", GO)):
                for _ in range(args.games):
                    body = {"kind": kind, "color": "first"}
                    if kind == "go":
                        body["size"] = 9
                    gid = c.post("/api/games", json=body, headers=a).json()["id"]
                    c.post(f"/api/games/{gid}/join", headers=b)
                    for ply, mv in enumerate(moves, 1):
                        c.post(f"/api/games/{gid}/actions", headers=a if ply % 2 else b,
                               json={"type": "move", "ply": ply, "move": mv})
                    c.post(f"/api/games/{gid}/actions", headers=b, json={"type": "resign"})
            print(f"played {2 * args.games} games in {time.perf_counter() - t0:.1f} s")
            for ext in ("pgn", "zip"):
                t0 = time.perf_counter()
                r = c.get(f"/api/users/{uid}/games.{ext}")
                dt = time.perf_counter() - t0
                n = int(r.headers["x-qisai-games"])
                print(f"games.{ext}: {n} games, {len(r.content) / 1024:.0f} KiB, {dt:.2f} s, "
                      f"{n / dt:.0f} games/s")


if __name__ == "__main__":
    main()
