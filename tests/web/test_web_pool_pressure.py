"""Issue 29 item 1: a burst of requests never starves the database pool.

Twenty ``POST /api/games`` at once from one account used to stall every
database-backed request for 30 s (``QueuePool limit ... reached``): each
request held the connection its log-in check had opened while its handler
waited for a second one, so a burst of them held every pooled connection
and waited for one more.  These tests send 30 requests at once (one account
creating games, 30 accounts joining a quick-pairing pool), and, while they
run, another client's requests; on SQLite and, with
``QISAI_TEST_POSTGRES_URL``, on PostgreSQL.

What they assert:

* every request of the burst is answered with what the rules say (201, or
  429 from the per-player quota; in a pool 200), never 500 or 503;
* no request held two pooled connections at once
  (:attr:`qisai.store.Database.nested_checkouts` stays 0: this is the
  cause, and it does not depend on the machine's speed);
* the other client is answered normally while the burst runs;
* nothing waited for the pool's time-out: the whole burst is answered well
  within ``STALL`` (the pool's 30 s time-out was the symptom; the issue asks
  for 2 s on a quiet machine, the bound here is 10 times that so that a
  loaded CI machine does not fail it, and still a third of the old stall).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app
from qisai.web.state import AppState

BURST = 30
STALL = 20.0


def _state(client: TestClient) -> AppState:
    st: AppState = client.app.state.qisai  # type: ignore[attr-defined]
    return st


def _burst(client: TestClient, calls: list[Any], other: Any) -> tuple[list[int], list[int], float]:
    """Run ``calls`` at once in threads and ``other`` repeatedly from another
    thread while they run; return the burst's status codes, the other
    client's status codes and the burst's wall time."""
    go = threading.Barrier(len(calls) + 1)
    done = threading.Event()
    others: list[int] = []

    def one(call: Any) -> int:
        go.wait()
        status: int = call().status_code
        return status

    def watch() -> None:
        go.wait()
        while not done.is_set():
            others.append(other().status_code)

    with ThreadPoolExecutor(len(calls) + 1) as pool:
        watcher = pool.submit(watch)
        started = time.monotonic()
        futures = [pool.submit(one, c) for c in calls]
        codes = [f.result() for f in futures]
        took = time.monotonic() - started
        done.set()
        watcher.result()
    return codes, others, took


def test_a_burst_from_one_account_leaves_the_pool_free(client: TestClient, register: Any) -> None:
    alice = register(client, "alice")
    bob = register(client, "bob")
    body = {"kind": "xiangqi", "opponent": "human", "color": "first"}
    calls = [lambda: client.post("/api/games", json=body, headers=alice["headers"])
             for _ in range(BURST)]
    codes, others, took = _burst(client, calls,
                                 lambda: client.get("/api/me", headers=bob["headers"]))
    assert len(codes) == BURST
    assert set(codes) <= {201, 429}, codes
    assert codes.count(201) >= 1
    assert others and set(others) == {200}, others
    assert _state(client).db.nested_checkouts == 0
    assert took < STALL


@pytest.fixture
def crowd(settings: Settings, clock: Any) -> Any:
    """An app that lets 31 accounts sign up from the test's one address."""
    settings.signups_per_hour = 100
    with TestClient(create_app(settings, time_source=clock, tick_period=0.05)) as c:
        yield c


def test_thirty_pool_joins_at_once(crowd: TestClient, register: Any) -> None:
    client = crowd
    players = [register(client, f"p{i:02d}") for i in range(BURST)]
    watcher = register(client, "watcher")
    calls = [lambda p=p: client.post("/api/pools/xq-5+3", headers=p["headers"])
             for p in players]
    codes, others, took = _burst(client, calls,
                                 lambda: client.get("/api/games", headers=watcher["headers"]))
    assert codes == [200] * BURST, codes
    assert others and set(others) == {200}, others
    assert _state(client).db.nested_checkouts == 0
    assert took < STALL


def test_a_busy_pool_answers_503_at_once(client: TestClient, register: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """When the database really is busy (every connection taken), a request
    is told so with 503 and ``Retry-After``, never left hanging."""
    alice = register(client, "alice")
    db = _state(client).db
    engine = db.engine
    if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
        pytest.skip("a memory database has one shared connection")
    pool = engine.pool
    monkeypatch.setattr(pool, "_timeout", 0.2)
    held = []
    try:
        while True:  # take every connection the pool will give
            held.append(pool.connect())
    except Exception as exc:  # noqa: BLE001 - the pool's time-out ends the loop
        assert "QueuePool limit" in str(exc) or "TimeoutError" in type(exc).__name__
    try:
        r = client.get("/api/me", headers=alice["headers"])
        assert r.status_code == 503, r.text
        assert r.headers.get("retry-after") == "1"
        assert "database" in r.json()["detail"]
        assert "数据库" in r.json()["detail"]
    finally:
        for c in held:
            c.close()
    assert client.get("/api/me", headers=alice["headers"]).status_code == 200
