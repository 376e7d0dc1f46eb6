"""Issue 14 items 2 and 3: no single client can slow the server for the
others.  Work a client can cause in bulk (engine searches, password
hashes, HTTP requests on the shared worker threads) gets only what the
games leave: engines and hashes run nicer than the server, and the games'
own blocking work has threads that a flood of requests cannot take.

Wall-clock speed is not asserted here (``bench/arena_abuse.py`` measures
it); these tests check the priorities and the threads themselves."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import Any

import anyio
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from qisai.engines.gtp import GtpEngine
from qisai.engines.pool import EnginePool
from qisai.engines.process import lower_priority
from qisai.web.security import ARGON2_PARAMS, HASH_NICE, HashGate, Passwords

linux = pytest.mark.skipif(not sys.platform.startswith("linux"),
                           reason="thread and process priorities are read on Linux")


def nice_of(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


@linux
def test_lower_priority_caps_at_19_and_zero_changes_nothing() -> None:
    seen: dict[str, int] = {}

    def worker() -> None:
        me = threading.get_native_id()
        base = nice_of(0)
        seen["zero"] = int(lower_priority(me, 0))
        seen["after_zero"] = nice_of(0) - base
        assert lower_priority(me, 3)
        seen["after_three"] = nice_of(0) - base
        assert lower_priority(me, 100)
        seen["capped"] = nice_of(0)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == {"zero": 0, "after_zero": 0, "after_three": 3, "capped": 19}
    assert not lower_priority(2**22 + 12345, 5)  # no such process: refused, not raised


class RecordingHasher(PasswordHasher):
    """Argon2 with the app's parameters that notes the priority of the
    thread each hash runs on."""

    def __init__(self) -> None:
        super().__init__(**ARGON2_PARAMS)
        self.nices: list[int] = []

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.nices.append(nice_of(0))
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:  # noqa: A002
        self.nices.append(nice_of(0))
        return super().verify(hash, password)


@linux
def test_password_hashes_run_on_nicer_threads() -> None:
    base = nice_of(0)
    hasher = RecordingHasher()
    passwords = Passwords(hasher=hasher, gate=HashGate(max_active=2))
    stored = passwords.hash("correct horse battery")
    assert passwords.verify(stored, "correct horse battery")[0]
    assert not passwords.verify(None, "anything")[0]  # an unknown name costs a hash too
    # the dummy hash at start-up, one hash, two checks: all on the hashing threads
    assert len(hasher.nices) == 4
    assert set(hasher.nices) == {min(19, base + HASH_NICE)}
    assert nice_of(0) == base  # the caller's own thread is untouched


@linux
def test_pooled_engines_start_nicer_than_the_server() -> None:
    async def run() -> tuple[int, int]:
        pool = EnginePool(1, nice=7)
        lease = await pool.acquire("go", lambda: GtpEngine.start(
            [sys.executable, "-m", "qisai", "engine", "go"]))
        try:
            return lease.pid, nice_of(lease.pid)
        finally:
            pool.release(lease)
            await pool.close()

    base = nice_of(0)
    pid, nice = asyncio.run(run())
    assert nice == min(19, base + 7) and pid != os.getpid()


@linux
def test_a_pool_without_nice_keeps_the_servers_priority() -> None:
    async def run() -> int:
        pool = EnginePool(1)
        lease = await pool.acquire("go", lambda: GtpEngine.start(
            [sys.executable, "-m", "qisai", "engine", "go"]))
        try:
            return nice_of(lease.pid)
        finally:
            pool.release(lease)
            await pool.close()

    assert asyncio.run(run()) == nice_of(0)


def test_games_do_not_wait_for_the_shared_worker_threads(register: Any,
                                                         client: TestClient) -> None:
    """A flood of HTTP requests holds every one of the server's shared
    worker threads: a player still opens his game (loaded from the
    database) and moves in it over the socket."""
    red, black = register(client, "hongqi"), register(client, "heiqi")
    r = client.post("/api/games", json={"kind": "xiangqi", "ruleset": "cxa", "color": "first"},
                    headers=red["headers"])
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
    release = threading.Event()
    held = threading.Event()
    portal: Any = client.portal  # type: ignore[attr-defined]

    async def take_every_shared_thread() -> None:
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = 1

        def hold() -> None:
            held.set()
            release.wait(60)
        await anyio.to_thread.run_sync(hold)

    async def forget(game_id: str) -> None:
        hub.games.pop(game_id, None)  # the next visit loads it from the database

    got: list[Any] = []

    def play() -> None:
        with client.websocket_connect(f"/ws/games/{gid}", headers=red["headers"]) as ws:
            got.append(ws.receive_json())
            ws.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "m1"})
            while not any(m.get("type") in ("ack", "error") for m in got[1:]):
                got.append(ws.receive_json())

    holder = portal.start_task_soon(take_every_shared_thread)
    try:
        assert held.wait(30)
        portal.call(forget, gid)
        player = threading.Thread(target=play, daemon=True)
        player.start()
        player.join(60)  # a hang bound, not a speed test: it waits forever if it waits at all
        waited = player.is_alive()
        assert not holder.done()  # the shared threads were held all along
    finally:
        release.set()
        holder.result(30)
    assert not waited, f"the game waited for the shared worker threads: {got}"
    assert got[0]["type"] == "state" and got[0]["state"]["ply"] == 0
    assert [m["type"] for m in got[1:]][-1] == "ack", got
    st = client.get(f"/api/games/{gid}").json()
    assert st["ply"] == 1 and st["moves"][0]["move"] == "h2e2"
