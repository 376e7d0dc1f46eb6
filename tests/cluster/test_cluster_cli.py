"""``qisai serve --workers N`` (issue 15 item 5): N processes on one port,
which need a Redis between them; a bad Redis URL is refused with its
reason; ``qisai worker`` without a Redis says what it needs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.conftest import Socket, register
from tests.web.conftest import LAUNCH, free_port

WORKER = ("import typer; from qisai.cli.worker import register; "
          "app = typer.Typer(); register(app); app()")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QISAI_")}
    env.update(QISAI_DATA_DIR=str(tmp_path / "data"), **extra)
    return env


def test_several_workers_need_a_redis(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", LAUNCH, "serve", "--workers", "2"],
                         env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "--redis-url" in run.stderr
    run = subprocess.run([sys.executable, "-c", LAUNCH, "serve", "--redis-url", "http://x/"],
                         env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a Redis URL" in run.stderr
    run = subprocess.run([sys.executable, "-c", WORKER], env=_env(tmp_path),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "no Redis" in run.stderr


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        kids += [int(k) for k in text]
    return kids


def test_serve_workers_2_runs_two_processes_on_one_port(tmp_path: Path, pg_url: str,
                                                          redis_server: Any) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "serve", "--port", str(port), "--workers", "2",
         "--log-level", "warning"],
        env=_env(tmp_path, QISAI_DATABASE_URL=pg_url, QISAI_REDIS_URL=redis_server.url),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).json().get("redis") == "ok":
                    break
            except (httpx.HTTPError, ValueError):
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "serve did not start"
            time.sleep(0.2)
        # uvicorn's supervisor and its two server processes.
        deadline = time.monotonic() + 30
        while len(_children(proc.pid)) < 2:
            assert time.monotonic() < deadline, _children(proc.pid)
            time.sleep(0.2)
        # Two players and their moves, wherever the kernel hands the sockets.
        red, black = register(base, "red"), register(base, "black")
        r = httpx.post(f"{base}/api/games", json={"kind": "xiangqi", "color": "first"},
                       headers=red["headers"], timeout=10)
        gid = r.json()["id"]
        assert httpx.post(f"{base}/api/games/{gid}/join", headers=black["headers"],
                          timeout=10).status_code == 200
        socks = [Socket(ws, gid, who) for who in (red, black, None, None)]
        for s in socks:
            s.next("state")
        socks[0].send({"type": "move", "ply": 1, "move": "h2e2", "id": "a"})
        socks[0].next("ack")
        for s in socks[1:]:
            while s.moves() != ["h2e2"]:
                s.next(("update", "state"))
        for s in socks:
            s.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
