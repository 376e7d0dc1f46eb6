"""Restart: ``kill -9`` the real server (``qisai serve``) mid-game, start it
again on the same data folder, and the game resumes intact."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

LAUNCH = ("import typer; from qisai.cli.arena import register; "
          "app = typer.Typer(); register(app); app()")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, QISAI_DATA_DIR=str(data))
    env.pop("QISAI_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve", "--port", str(port),
                             "--log-level", "warning"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/rules", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start in 90 s")


def test_kill_9_mid_game_and_resume(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(data, port)
    try:
        def user(name: str) -> dict[str, Any]:
            r = httpx.post(f"{base}/api/auth/register", json={"username": name,
                                                              "password": "restart me twice"})
            assert r.status_code == 201, r.text
            return {"Authorization": f"Bearer {r.json()['token']}"}

        red, black = user("red"), user("black")
        g = httpx.post(f"{base}/api/games", json={"kind": "xiangqi", "color": "first",
                                                  "time": {"minutes": 30, "increment": 5}},
                       headers=red).json()
        gid = g["id"]
        assert httpx.post(f"{base}/api/games/{gid}/join", headers=black).status_code == 200
        line = [("h2e2", red), ("h9g7", black), ("h0g2", red)]
        for ply, (mv, who) in enumerate(line, start=1):
            r = httpx.post(f"{base}/api/games/{gid}/actions",
                           json={"type": "move", "ply": ply, "move": mv}, headers=who)
            assert r.status_code == 200, r.text  # acknowledged
        before = httpx.get(f"{base}/api/games/{gid}").json()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert (data / "secret_key").exists()
    key = (data / "secret_key").read_text()

    proc = start_server(data, port)
    try:
        after = httpx.get(f"{base}/api/games/{gid}").json()
        assert after["ply"] == 3 and [m["move"] for m in after["moves"]] == ["h2e2", "h9g7", "h0g2"]
        assert [m["text"] for m in after["moves"]] == ["炮二平五", "马8进7", "马二进三"]
        assert after["players"] == before["players"] and after["status"] == "active"
        # Each acknowledged move's clock reading is the stored one.
        assert [m["clock"] for m in after["moves"]] == [m["clock"] for m in before["moves"]]
        assert after["clocks"]["running"] == "second"
        # The sessions survive too, and the game continues.
        r = httpx.post(f"{base}/api/games/{gid}/actions",
                       json={"type": "move", "ply": 4, "move": "i9h9"}, headers=black)
        assert r.status_code == 200, r.text
        r = httpx.post(f"{base}/api/games/{gid}/actions",
                       json={"type": "move", "ply": 3, "move": "h0g2"}, headers=red)
        assert r.status_code == 200 and r.json()["duplicate"] is True
        assert httpx.get(f"{base}/api/games/{gid}").json()["ply"] == 4
        assert (data / "secret_key").read_text() == key  # not regenerated
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
