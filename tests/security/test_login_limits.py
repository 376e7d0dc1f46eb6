"""Issue 14 item 3: failed log-ins are cheap to send and were expensive to
check.  Limits per address (all names) and per account (all addresses),
each its own counter, 429 with Retry-After before any hash; at most two
hashes at once with a short queue, 429 past it; an unknown name costs one
hash like a known one; server-sized Argon2 parameters, older hashes
rehashed at log-in."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.web.security import HashBusy, HashGate, LoginGuard, RateLimiter

GOOD = "a long and private pass"


def make_users(st: Any, names: list[str]) -> None:
    """Create accounts with the password :data:`GOOD` (one hash for all)."""
    hashed = st.passwords.hash(GOOD)
    with st.db.session() as s:
        for name in names:
            repo.create_user(s, name, password_hash=hashed)


class SpyHasher:
    """The real hasher, recording the stored hash each verify is given."""

    def __init__(self, real: PasswordHasher) -> None:
        self.real = real
        self.calls: list[str] = []

    def verify(self, stored: str, password: str) -> bool:
        self.calls.append(stored)
        return bool(self.real.verify(stored, password))

    def hash(self, password: str) -> str:
        return self.real.hash(password)

    def check_needs_rehash(self, stored: str) -> bool:
        return bool(self.real.check_needs_rehash(stored))


def count_verifies(st: Any) -> list[str]:
    """Spy on the app's hasher: returns the list of hashes each verify was given."""
    spy = SpyHasher(st.passwords.hasher)
    st.passwords.hasher = spy
    return spy.calls


def test_many_accounts_from_one_address_hit_the_address_limit(client: TestClient, st: Any,
                                                               clock: Any) -> None:
    st.login_limiter = RateLimiter(10, 60.0, clock=clock)   # QISAI_RATE_LOGIN=10, a frozen clock
    st.account_limiter = RateLimiter(30, 3600.0, clock=clock)
    names = [f"acct{i:02d}" for i in range(20)]
    make_users(st, names)
    calls = count_verifies(st)
    codes, retry = [], []
    for i in range(60):  # 3 wrong passwords for each of 20 accounts, one address
        r = client.post("/api/auth/login", json={"username": names[i % 20], "password": "wrong!!"})
        codes.append(r.status_code)
        if r.status_code == 429:
            retry.append(int(r.headers["Retry-After"]))
    assert codes.count(401) == 10 and codes.count(429) == 50
    assert codes[:10] == [401] * 10  # the first ten, then refused
    assert all(1 <= w <= 60 for w in retry)
    assert len(calls) == 10  # a refused try costs no hash
    clock.advance(6.0)  # one token back: 10 a minute
    r = client.post("/api/auth/login", json={"username": "acct00", "password": GOOD})
    assert r.status_code == 200


def test_one_account_from_many_addresses_hits_the_account_limit(
        client: TestClient, st: Any, clock: Any,
        from_address: Callable[[str], TestClient]) -> None:
    st.login_limiter = RateLimiter(10, 60.0, clock=clock)
    st.account_limiter = RateLimiter(6, 3600.0, clock=clock)
    st.login_guard = LoginGuard(slow=RateLimiter(1, 900.0, clock=clock))
    make_users(st, ["alice", "bob"])
    codes = [from_address(f"10.0.0.{i}").post(
        "/api/auth/login", json={"username": "alice", "password": "guess-" + str(i)}).status_code
        for i in range(12)]
    # six on the account's own count; then it is held: each address one slow try
    assert codes == [401] * 12
    codes = [from_address(f"10.0.0.{i}").post(
        "/api/auth/login", json={"username": "ALICE", "password": GOOD}).status_code
        for i in range(6, 12)]  # any case, same account
    assert codes == [429] * 6
    r = from_address("10.0.0.7").post("/api/auth/login",
                                      json={"username": "alice", "password": GOOD})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert "user name" in r.json()["detail"]
    # The counters are separate: bob, from an address that tried alice, is not limited.
    r = from_address("10.0.0.1").post("/api/auth/login", json={"username": "bob", "password": GOOD})
    assert r.status_code == 200
    clock.advance(900.0)  # the slow lane: one try an address every fifteen minutes
    r = from_address("10.0.0.7").post("/api/auth/login",
                                      json={"username": "alice", "password": GOOD})
    assert r.status_code == 200


def test_the_defaults_limit_address_and_account_separately(client: TestClient, st: Any) -> None:
    settings = st.settings
    assert settings.login_per_account_hour == 30
    assert st.login_limiter.burst == settings.login_per_minute
    assert st.account_limiter.burst == settings.login_per_account_hour
    assert st.login_limiter is not st.account_limiter


def test_unknown_user_costs_one_hash_like_a_known_one(client: TestClient, st: Any) -> None:
    make_users(st, ["known"])
    with st.db.session() as s:
        guest_name = repo.create_guest(s).username
    calls = count_verifies(st)
    assert client.post("/api/auth/login",
                       json={"username": "known", "password": "not it at all"}).status_code == 401
    assert len(calls) == 1 and calls[0] != st.passwords.dummy
    assert client.post("/api/auth/login",
                       json={"username": "nobody", "password": "not it at all"}).status_code == 401
    assert len(calls) == 2 and calls[1] == st.passwords.dummy  # the same one hash, on the dummy
    r = client.post("/api/auth/login", json={"username": "nobody", "password": GOOD})
    assert r.status_code == 401 and len(calls) == 3
    # A guest has no password: checked against the dummy too.
    r = client.post("/api/auth/login", json={"username": guest_name, "password": GOOD})
    assert r.status_code == 401 and len(calls) == 4 and calls[3] == st.passwords.dummy
    assert client.post("/api/auth/login",
                       json={"username": "known", "password": GOOD}).status_code == 200
    assert len(calls) == 5


def test_the_dummy_hash_is_made_once_at_start_up(client: TestClient, st: Any) -> None:
    dummy = st.passwords.dummy
    assert dummy.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    for name in ("x1", "x2", "x3"):
        client.post("/api/auth/login", json={"username": name, "password": "whatever it is"})
    assert st.passwords.dummy is dummy


class BlockingHasher:
    """A hasher whose verify waits until released; counts how many run at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def verify(self, stored: str, password: str) -> bool:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            assert self.release.wait(30)
            return False
        finally:
            with self.lock:
                self.running -= 1

    def hash(self, password: str) -> str:
        return "$argon2id$fake"

    def check_needs_rehash(self, stored: str) -> bool:
        return False


def wait_until(cond: Callable[[], bool], limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_concurrent_hashes_are_bounded(client: TestClient, st: Any,
                                       from_address: Callable[[str], TestClient]) -> None:
    st.login_limiter = RateLimiter(1000, 60.0)
    st.account_limiter = RateLimiter(1000, 3600.0)
    gate = st.passwords.gate
    assert (gate.max_active, gate.max_waiting) == (2, 8)
    hasher = BlockingHasher()
    st.passwords.hasher = hasher
    results: dict[int, Any] = {}

    def attempt(i: int) -> None:
        r = from_address(f"10.1.0.{i}").post(
            "/api/auth/login", json={"username": f"user{i}", "password": "some guess"})
        results[i] = r

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    wait_until(lambda: gate.active == 2 and gate.waiting == 8)  # 2 hashing, 8 queued
    extra = [threading.Thread(target=attempt, args=(i,)) for i in range(10, 13)]
    for t in extra:
        t.start()
    for t in extra:
        t.join(30)
    for i in range(10, 13):  # past the queue: refused at once, no thread piled up
        assert results[i].status_code == 429 and results[i].headers["Retry-After"] == "1"
    assert hasher.running == 2
    hasher.release.set()
    for t in threads:
        t.join(30)
    assert sorted(r.status_code for i, r in results.items() if i < 10) == [401] * 10
    assert gate.peak == 2 and hasher.most == 2
    assert gate.active == 0 and gate.waiting == 0


def test_hash_gate_bounds_running_and_waiting() -> None:
    gate = HashGate(max_active=2, max_waiting=1, timeout=0.2)
    with gate.slot(), gate.slot():
        assert gate.active == 2
        try:  # the queue has room for one: it waits, then times out
            with gate.slot():
                raise AssertionError("a third slot while two are held")
        except HashBusy:
            pass
        assert gate.waiting == 0
    assert gate.active == 0 and gate.peak == 2


def test_argon2_parameters_are_server_sized(client: TestClient, st: Any) -> None:
    r = client.post("/api/auth/register", json={"username": "zhou", "password": GOOD})
    assert r.status_code == 201
    with st.db.session() as s:
        stored = repo.find_user(s, "zhou").password_hash
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")  # OWASP: 19 MiB, 2 passes, 1 lane


def test_older_hashes_still_verify_and_are_rehashed(client: TestClient, st: Any) -> None:
    old = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4).hash(GOOD)  # the old default
    with st.db.session() as s:
        repo.create_user(s, "veteran", password_hash=old)
    r = client.post("/api/auth/login", json={"username": "veteran", "password": GOOD})
    assert r.status_code == 200
    with st.db.session() as s:
        stored = repo.find_user(s, "veteran").password_hash
    assert stored != old and stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    client.cookies.clear()
    r = client.post("/api/auth/login", json={"username": "veteran", "password": GOOD})
    assert r.status_code == 200
    with st.db.session() as s:
        assert repo.find_user(s, "veteran").password_hash == stored  # no rehash needed now


def test_login_page_shows_the_limit(client: TestClient, st: Any, clock: Any) -> None:
    st.login_limiter = RateLimiter(2, 60.0, clock=clock)
    page = client.get("/login")
    token = page.text.split('name="csrf" value="')[1].split('"')[0]
    codes = [client.post("/login", data={"username": f"p{i}", "password": "whatever it is",
                                         "csrf": token}, follow_redirects=False)
             for i in range(3)]
    assert [r.status_code for r in codes] == [401, 401, 429]
    assert "Retry-After" in codes[2].headers and "too many" in codes[2].text
