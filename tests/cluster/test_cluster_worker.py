"""Engine moves on ``qisai worker`` processes (issue 15 item 3): the server
only enqueues; a worker killed with its engine mid-search has its job
taken by another and the engine's move still comes; with no worker at all
the engine's side loses on time by the rules (4.1.4), never a hang."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
import redis

from tests.cluster.conftest import Socket, register

pytestmark = pytest.mark.slow

WORKER = ("import typer; from qisai.cli.worker import register; "
          "app = typer.Typer(); register(app); app()")


def start_worker(redis_url: str, *extra: str) -> subprocess.Popen[bytes]:
    """A ``qisai worker`` in a process group of its own (its engines too)."""
    return subprocess.Popen([sys.executable, "-c", WORKER, "--redis-url", redis_url,
                             "--processes", "1", "--matches", "0", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def test_a_worker_killed_mid_search_hands_the_move_to_another(cluster: Any) -> None:
    (server,) = cluster(1, "--engine-queue", "--engine-think", "2")
    url = cluster.redis.url
    first = start_worker(url, "--move-timeout", "4")  # its jobs: in progress 4 + 10 s
    second: subprocess.Popen[bytes] | None = None
    try:
        me = register(server.base, "human")
        r = httpx.post(f"{server.base}/api/games", json={
            "kind": "xiangqi", "opponent": "engine", "color": "first"},
            headers=me["headers"], timeout=10)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        ws = Socket(server.ws, gid, me)
        ws.next("state")
        ws.send({"type": "move", "ply": 1, "move": "h2e2", "id": "m"})
        ws.next("ack")
        # The first worker has taken the job: kill it and its engine (-9).
        r = redis.Redis.from_url(url)
        deadline = time.monotonic() + 20
        while not r.keys("arq:in-progress:*"):
            assert time.monotonic() < deadline, "no worker took the engine's move"
            time.sleep(0.05)
        # The second worker is up before the first dies (so that its start
        # does not count); it cannot take the job while it is marked.
        # (Its own limit is roomy: an engine's start on a loaded machine counts.)
        second = start_worker(url, "--move-timeout", "30")
        stop(first, signal.SIGKILL)
        # The move comes from the second worker once the first one's mark
        # expires (14 s), within the 60 s an unclocked engine may think.
        deadline = time.monotonic() + 55
        while len(ws.moves()) < 2:
            ws.next(("update", "state"), timeout=max(0.1, deadline - time.monotonic()))
        assert ws.moves()[0] == "h2e2" and len(ws.moves()[1]) == 4
        g = httpx.get(f"{server.base}/api/games/{gid}", timeout=10).json()
        assert g["ply"] == 2 and not g.get("result")
        ws.close()
    finally:
        stop(first, signal.SIGKILL)
        if second is not None:
            stop(second)


def test_with_no_worker_the_engine_loses_on_time(cluster: Any) -> None:
    (server,) = cluster(1, "--engine-queue")
    me = register(server.base, "human")
    r = httpx.post(f"{server.base}/api/games", json={
        "kind": "xiangqi", "opponent": "engine", "color": "first", "time": {"minutes": 0.1}},
        headers=me["headers"], timeout=10)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    ws = Socket(server.ws, gid, me)
    ws.next("state")
    ws.send({"type": "move", "ply": 1, "move": "h2e2", "id": "m"})
    ws.next("ack")
    deadline = time.monotonic() + 30  # 6 s on the engine's clock, then the ruling
    while True:
        g = httpx.get(f"{server.base}/api/games/{gid}", timeout=10).json()
        if g.get("result"):
            break
        assert time.monotonic() < deadline, "the game hangs on a missing worker"
        time.sleep(0.25)
    res = g["result"]
    assert res["winner"] == "first" and res["reason"] == "time_forfeit"
    assert "4.1.4" in res["clause"]  # lost on time (4.1.4, 22.1)
    ws.close()
