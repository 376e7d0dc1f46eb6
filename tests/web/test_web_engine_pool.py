"""Engines never run in the server's interpreter: qisai's own engines are
processes (``python -m qisai engine xiangqi|go``) leased from a bounded pool
(issue 14 item 2); a player has at most a few engine games and open seeks.

Wall-clock speed is not asserted here: ``bench/arena_abuse.py`` measures
``/api/rules`` while engine games run."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.engines.pool import EngineBusyError, EnginePool
from qisai.web import Settings, create_app

from .test_web_go import pass_until_scoring, wait_for


@pytest.fixture
def pool_client(settings: Settings, clock: Any) -> Iterator[TestClient]:
    settings.engine_processes = 1
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.2
    with TestClient(app) as c:
        yield c


def hub_of(client: TestClient) -> Any:
    return client.app.state.qisai.hub  # type: ignore[attr-defined]


def engine_game(client: TestClient, me: dict[str, Any], kind: str = "xiangqi",
                **body: Any) -> str:
    body = {"kind": kind, "opponent": "engine", "color": "first", **body}
    if kind == "go":
        body.setdefault("size", 5)
        body.setdefault("ruleset", "go-casual")
    r = client.post("/api/games", json=body, headers=me["headers"])
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    return gid


def move(client: TestClient, me: dict[str, Any], gid: str, ply: int, mv: str) -> None:
    r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": ply, "move": mv},
                    headers=me["headers"])
    assert r.status_code == 200, r.text


def any_move(client: TestClient, me: dict[str, Any], gid: str) -> int:
    """Play the first legal move of the side to move; return its ply."""
    st = client.get(f"/api/games/{gid}").json()
    legal = st["position"]["legal"]
    frm = sorted(legal)[0]
    move(client, me, gid, st["ply"] + 1, frm + sorted(legal[frm])[0])
    return int(st["ply"]) + 1


def confirm_until_count(client: TestClient, me: dict[str, Any], gid: str) -> dict[str, Any]:
    """Confirm the marking in the dead-stone phase until the game is counted.

    The engine marks its own opinion in its own time (4(4)); a marking made
    after our confirmation undoes it, so we confirm again, as a player
    would.  Returns the final state."""
    for _ in range(6):
        st = client.get(f"/api/games/{gid}").json()
        dead = st["position"]["dead"]
        r = client.post(f"/api/games/{gid}/actions", json={"type": "confirm_dead"},
                        headers=me["headers"])
        if r.status_code != 200:  # refused only if the engine's marking came in between
            assert r.status_code in (400, 409), r.text
            continue
        st = wait_for(client, gid,
                      lambda s, d=dead: s["result"] is not None or s["position"]["dead"] != d,
                      "the engine's count or its own marking")
        if st["result"] is not None:
            return st
    raise AssertionError(f"no count after six confirmations: {st}")


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


# ------------------------------------------------------- its own process
def test_the_built_in_engines_search_in_their_own_processes(
        register: Any, pool_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # Were the server to search itself, these would end the games.
    from qisai.engines.builtin import go_search, xiangqi_search

    def no_search(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an engine searched in the server's interpreter")

    monkeypatch.setattr(xiangqi_search.XiangqiSearcher, "search", no_search)
    monkeypatch.setattr(go_search.MctsSearcher, "search", no_search)
    hub = hub_of(pool_client)
    seen: list[str] = []
    starts: list[Any] = []
    nices: list[int] = []
    original = EnginePool._start

    async def spy(self: EnginePool, key: Any, start: Any) -> Any:
        lease = await original(self, key, start)
        starts.append(lease.pid)
        seen.append(cmdline(lease.pid))
        nices.append(os.getpriority(os.PRIO_PROCESS, lease.pid))
        return lease

    monkeypatch.setattr(EnginePool, "_start", spy)
    me = register(pool_client, "far-away")
    gid = engine_game(pool_client, me)
    move(pool_client, me, gid, 1, "h2e2")
    st = wait_for(pool_client, gid, lambda s: s["ply"] >= 2, "the engine's reply")
    assert st["result"] is None and st["moves"][1]["side"] == "second"
    assert starts and all(pid != os.getpid() for pid in starts)
    assert "-m qisai engine xiangqi" in seen[0]
    # Go: its moves and its dead stones (final_status_list) come from
    # ``qisai engine go``; the one process makes room for it (bound 1).
    go = engine_game(pool_client, me, "go")
    move(pool_client, me, go, 1, "C3")
    wait_for(pool_client, go, lambda s: s["ply"] >= 2, "the Go engine's reply")
    st = pass_until_scoring(pool_client, me, "first", go)
    assert st["phase"] == "scoring"
    st = confirm_until_count(pool_client, me, go)
    assert st["result"]["reason"] == "score"
    assert "-m qisai engine go" in seen[-1]
    # They search with the CPU the server leaves (settings.engine_nice, 10).
    assert set(nices) == {min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)}
    assert hub.pool.size <= 1 and len(set(starts)) == len(starts)


# ---------------------------------------------------------- the bound
def test_the_pool_bound_holds_and_the_last_game_waits(register: Any,
                                                      pool_client: TestClient) -> None:
    hub = hub_of(pool_client)
    hub.engine_think = 1.0
    me = register(pool_client, "two-boards")
    first, second = engine_game(pool_client, me), engine_game(pool_client, me)
    sizes: list[int] = []
    with pool_client.websocket_connect(f"/ws/games/{second}", headers=me["headers"]) as ws:
        assert ws.receive_json()["type"] == "state"
        move(pool_client, me, first, 1, "h2e2")
        wait_for(pool_client, first, lambda s: hub.pool.busy == 1, "the first engine at work")
        ws.send_json({"type": "move", "ply": 1, "move": "b2e2", "id": "m1"})
        notes: list[str] = []
        engine_status: list[Any] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = ws.receive_json()
            sizes.append(hub.pool.size)
            if msg["type"] != "update":
                continue
            notes += [n["en"] for n in msg["notices"]]
            engine_status.append(msg["state"].get("engine_status"))
            if msg["state"]["ply"] >= 2:
                break
    assert "engine busy, waiting" in notes, notes
    assert "waiting" in engine_status and engine_status[-1] is None
    assert notes.index("engine busy, waiting") < notes.index("engine free, thinking")
    st = wait_for(pool_client, second, lambda s: s["ply"] >= 2, "the waiting game's reply")
    assert st["result"] is None
    assert pool_client.get(f"/api/games/{first}").json()["ply"] == 2
    assert max(sizes) <= 1 and hub.pool.size <= 1 and hub.pool.started == 1  # reused


def test_a_move_waits_a_bounded_time_for_an_engine() -> None:
    class Fake:
        def __init__(self) -> None:
            self.pid = 1
            self.alive = True

        async def quit(self) -> None:
            self.alive = False

    async def run() -> None:
        pool = EnginePool(1, max_wait=0.2)

        async def start() -> Fake:
            return Fake()

        a = await pool.acquire("x", start, owner="g1")
        waits: list[bool] = []
        # The caller would wait 5 s; the pool's bound (0.2 s) is what applies.
        with pytest.raises(EngineBusyError, match=r"no engine process free within 0\.2 s"):
            await pool.acquire("x", start, owner="g2", timeout=5, on_wait=waits.append)
        assert waits == [True, False]
        # First come, first served; another kind takes the place of an idle one.
        got = asyncio.ensure_future(pool.acquire("y", start, owner="g3", timeout=5))
        await asyncio.sleep(0.01)
        assert pool.waiting == 1
        pool.release(a)
        b = await got
        await pool.settle()
        assert b.key == "y" and pool.size == 1 and not a.client.alive
        pool.discard(b)
        c = await pool.acquire("x", start, owner="g1")
        assert pool.size == 1 and c is not a
        pool.release(c)
        assert pool.idle == 1 and (await pool.acquire("x", start, owner="g1")) is c
        await pool.close()

    asyncio.run(run())


# ----------------------------------------------------------- the limits
def test_a_player_has_a_few_engine_games_and_seeks_at_once(register: Any,
                                                           pool_client: TestClient) -> None:
    me = register(pool_client, "greedy")
    a, _ = engine_game(pool_client, me), engine_game(pool_client, me, "go")
    r = pool_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine"},
                         headers=me["headers"])
    assert r.status_code == 429
    assert "too many engine games at once" in r.json()["detail"]
    assert "limit 2" in r.json()["detail"]
    r = pool_client.post(f"/api/games/{a}/actions", json={"type": "resign"},
                         headers=me["headers"])
    assert r.status_code == 200
    engine_game(pool_client, me)  # a place came free
    for _ in range(3):
        r = pool_client.post("/api/games", json={"kind": "xiangqi"}, headers=me["headers"])
        assert r.status_code == 201, r.text
    r = pool_client.post("/api/games", json={"kind": "go"}, headers=me["headers"])
    assert r.status_code == 429 and "too many open seeks" in r.json()["detail"]
    # Another player is not held back by him.
    other = register(pool_client, "patient")
    assert pool_client.post("/api/games", json={"kind": "xiangqi"},
                            headers=other["headers"]).status_code == 201


def test_guests_are_also_counted_by_address(register: Any, pool_client: TestClient) -> None:
    hub = hub_of(pool_client)
    hub.quota.address_engine_games, hub.quota.address_seeks = 3, 2
    created = []
    for i in range(5):
        form = pool_client.get("/api/auth/csrf").json()["csrf"]
        r = pool_client.post("/api/auth/guest", headers={"X-CSRF-Token": form})
        assert r.status_code == 201
        pool_client.cookies.clear()
        guest = {"headers": {"Authorization": f"Bearer {r.json()['token']}"}}
        r = pool_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine",
                                                 "color": "first"}, headers=guest["headers"])
        created.append(r.status_code)
        if i == 4:
            assert r.status_code == 429
            assert "from your address" in r.json()["detail"]
            assert "register" in r.json()["detail"]
        s = pool_client.post("/api/games", json={"kind": "xiangqi"}, headers=guest["headers"])
        assert s.status_code == (201 if i < 2 else 429), s.text
    assert created == [201, 201, 201, 429, 429]
    # A registered player at the same address is counted as himself only.
    me = register(pool_client, "member")
    engine_game(pool_client, me)


# ---------------------------------------------------------- a crash
def _wait_dead(pid: int, bound: float = 60.0) -> None:
    """Wait until process ``pid`` has ended (gone, or a zombie not yet reaped):
    a hang bound only, not a speed measure."""
    deadline = time.monotonic() + bound
    stat = Path(f"/proc/{pid}/stat")
    while time.monotonic() < deadline:
        try:
            if stat.read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                return
        except (OSError, IndexError):
            return  # gone
        time.sleep(0.01)
    raise AssertionError(f"process {pid} still runs {bound} s after SIGKILL")


def test_a_killed_engine_process_is_replaced(register: Any, pool_client: TestClient) -> None:
    hub = hub_of(pool_client)
    me = register(pool_client, "survivor")
    # Killed between two moves (idle in the pool): the game goes on with a
    # fresh process.
    gid = engine_game(pool_client, me)
    move(pool_client, me, gid, 1, "h2e2")
    wait_for(pool_client, gid, lambda s: s["ply"] >= 2, "the engine's reply")
    wait_for(pool_client, gid, lambda s: hub.pool.idle == 1, "the process back in the pool")
    [pid] = hub.pool.pids()
    os.kill(pid, signal.SIGKILL)
    _wait_dead(pid)  # SIGKILL takes effect when the process is next scheduled
    assert any_move(pool_client, me, gid) == 3
    st = wait_for(pool_client, gid, lambda s: s["ply"] >= 4 or s["result"], "the next reply")
    assert st["result"] is None and st["ply"] == 4
    assert hub.pool.pids() != [pid] and hub.pool.size == 1
    # Killed while it thinks: the referee rules as for any crashed engine
    # (it cannot move: loss on time), and the next game gets a new process.
    hub.engine_think = 20.0
    assert any_move(pool_client, me, gid) == 5
    wait_for(pool_client, gid, lambda s: hub.pool.busy == 1, "the engine at work")
    time.sleep(0.3)
    [pid2] = hub.pool.pids()
    os.kill(pid2, signal.SIGKILL)
    st = wait_for(pool_client, gid, lambda s: s["result"] is not None, "the ruling")
    assert st["result"]["winner"] == "first" and st["result"]["reason"] == "time_forfeit"
    assert "EngineTerminatedError" in st["result"]["en"]
    hub.engine_think = 0.2
    again = engine_game(pool_client, me)
    move(pool_client, me, again, 1, "h2e2")
    st = wait_for(pool_client, again, lambda s: s["ply"] >= 2 or s["result"], "a new engine")
    assert st["result"] is None and st["ply"] == 2
    assert pid2 not in hub.pool.pids() and hub.pool.size == 1


# ---------------------------------------------------------- settings
def test_the_bound_and_the_limits_are_set_by_the_server(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    import typer
    import uvicorn
    from typer.testing import CliRunner

    from qisai.cli.arena import register

    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.setdefault("app", app))
    monkeypatch.setenv("QISAI_ENGINE_GAMES", "5")
    monkeypatch.setenv("QISAI_OPEN_SEEKS", "7")
    monkeypatch.setenv("QISAI_ENGINE_WAIT", "12")
    app = typer.Typer()
    register(app)
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path),
                                 "--engine-processes", "3"])
    assert r.exit_code == 0, r.output
    hub = served["app"].state.qisai.hub
    assert hub.pool.max_processes == 3 and hub.pool.max_wait == 12
    assert hub.quota.engine_games == 5 and hub.quota.seeks == 7
    monkeypatch.setenv("QISAI_ENGINE_PROCESSES", "4")
    served.clear()
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert served["app"].state.qisai.hub.pool.max_processes == 4
