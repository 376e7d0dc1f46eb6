"""Issue 31 item 5: a flood of log-ins does not take the time of other
requests.  Password checks run two at a time behind a fair queue: first
come first served, at most two waiting from one address, 429 (with
Retry-After) past that; a log-in waiting for its check holds no database
connection, so the other requests keep the pool."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.web.security import RateLimiter

GOOD = "a long and private pass"


class GatedHasher:
    """A hasher whose checks wait until the test lets them finish, one at a
    time; it records the order in which the checks started."""

    def __init__(self) -> None:
        self.go = threading.Semaphore(0)
        self.started: list[str] = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def verify(self, stored: str, password: str) -> bool:
        with self.changed:
            self.started.append(password)
            self.changed.notify_all()
        assert self.go.acquire(timeout=30)
        return password == GOOD

    def hash(self, password: str) -> str:
        return "$argon2id$not-used"

    def check_needs_rehash(self, stored: str) -> bool:
        return False

    def wait_started(self, n: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.started) >= n, 30), self.started


def wait_for(cond: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 30
    while not cond():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def test_log_in_flood_is_queued_fairly_and_holds_no_connection(
        client: TestClient, st: Any, register: Any,
        from_address: Callable[[str], TestClient]) -> None:
    honest = register(client, "honest")
    st.login_limiter = RateLimiter(1000, 60.0)
    st.account_limiter = RateLimiter(1000, 3600.0)
    with st.db.session() as s:
        repo.create_user(s, "carol", password_hash="$argon2id$stored")
    gate, hasher = st.passwords.gate, GatedHasher()
    st.passwords.hasher = hasher
    results: dict[str, Any] = {}

    def attempt(key: str, address: str, name: str, password: str) -> threading.Thread:
        def run() -> None:
            results[key] = from_address(address).post(
                "/api/auth/login", json={"username": name, "password": password})
        t = threading.Thread(target=run)
        t.start()
        return t

    try:
        # One address floods: two checks run, two wait; the rest are refused at once.
        flood = [attempt(f"f{i}", "10.66.0.1", f"victim{i}", f"flood {i}") for i in range(2)]
        hasher.wait_started(2)
        for i in range(2, 4):
            flood.append(attempt(f"f{i}", "10.66.0.1", f"victim{i}", f"flood {i}"))
            wait_for(lambda i=i: gate.waiting == i - 1, "queued")
        for i in range(4, 7):
            attempt(f"f{i}", "10.66.0.1", f"victim{i}", f"flood {i}").join(10)
            assert f"f{i}" in results, "a flood's extra log-in waited instead of a 429"
            r = results[f"f{i}"]
            assert r.status_code == 429 and r.headers["Retry-After"] == "1", r.text
            assert "busy" in r.json()["detail"] and "核对密码" in r.json()["detail"]
        # Another address still gets a place in the queue, after those before it.
        carol = attempt("carol", "10.77.0.1", "carol", GOOD)
        wait_for(lambda: gate.waiting == 3, "carol queued")
        # Waiting log-ins hold no database connection; other requests are served.
        pool = st.db.engine.pool
        wait_for(lambda: pool.checkedout() == 0, f"{pool.checkedout()} connections held")
        assert client.get("/api/me", headers=honest["headers"]).status_code == 200
        # First come, first served.
        for n in range(3, 6):
            hasher.go.release()
            hasher.wait_started(n)
        assert sorted(hasher.started[:2]) == ["flood 0", "flood 1"]  # started together
        assert hasher.started[2:] == ["flood 2", "flood 3", GOOD]
    finally:
        for _ in range(10):
            hasher.go.release()
    for t in [*flood, carol]:
        t.join(30)
    assert [results[f"f{i}"].status_code for i in range(4)] == [401] * 4
    assert results["carol"].status_code == 200
    assert gate.active == 0 and gate.waiting == 0
