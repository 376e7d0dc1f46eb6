"""Issue 31 item 4: an attacker does not lock the owner out.  Wrong
passwords for one account from many addresses hold the account: each
address then gets only a slow lane of its own, so the owner, from an
address that tried no wrong password, gets in with his password; a known
device (a browser he logged in from) gets in whatever the addresses did;
and at his next log-in he is told how many wrong passwords were given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.web.security import RateLimiter

GOOD = "a long and private pass"


def test_wrong_passwords_from_many_addresses_do_not_lock_the_owner_out(
        client: TestClient, st: Any, from_address: Callable[[str], TestClient]) -> None:
    st.login_limiter = RateLimiter(1000, 60.0)  # the per-address limit is not under test here
    with st.db.session() as s:
        repo.create_user(s, "owner", password_hash=st.passwords.hash(GOOD))
    home = from_address("192.0.2.10")  # the owner's own browser
    r = home.post("/api/auth/login", json={"username": "owner", "password": GOOD})
    assert r.status_code == 200 and r.json()["notice"] is None
    assert "qisai_device" in home.cookies  # this browser is now a known device
    # 60 wrong passwords from a mix of twelve addresses: the account is held.
    codes: list[int] = []
    for i in range(60):
        attacker = from_address(f"203.0.113.{i % 12}")
        codes.append(attacker.post("/api/auth/login",
                                   json={"username": "owner", "password": f"guess {i}"}
                                   ).status_code)
    wrong, refused = codes.count(401), codes.count(429)
    assert wrong + refused == 60 and refused > 0 and wrong <= 30 + 12
    r = from_address("203.0.113.1").post("/api/auth/login",
                                         json={"username": "owner", "password": GOOD})
    assert r.status_code == 429  # an attacker's address has used its lane, right password or not
    refused += 1
    # The owner, on another device from his own address: in, and told.
    laptop = from_address("198.51.100.7")
    r = laptop.post("/api/auth/login", json={"username": "owner", "password": GOOD})
    assert r.status_code == 200, r.text
    notice = r.json()["notice"]
    assert f"{wrong} log-in attempts with a wrong password" in notice, notice
    assert f"{refused} more were refused" in notice and f"有 {wrong} 次密码错误" in notice
    # Told once: the next log-in has nothing new to tell.
    r = home.post("/api/auth/login", json={"username": "owner", "password": GOOD})
    assert r.status_code == 200 and r.json()["notice"] is None
    # The account is still held: that address's slow lane is used up, but the
    # known device gets in, again and again; a forged device cookie does not.
    laptop.cookies.clear()
    assert laptop.post("/api/auth/login", json={"username": "owner", "password": GOOD}
                       ).status_code == 429
    laptop.cookies.set("qisai_device", "0" * 32 + "." + "1" * 64)
    assert laptop.post("/api/auth/login", json={"username": "owner", "password": GOOD}
                       ).status_code == 429
    for _ in range(3):
        r = home.post("/api/auth/login", json={"username": "owner", "password": GOOD})
        assert r.status_code == 200
    # The form on the log-in page tells him too, before going on.
    for i in range(3):
        from_address(f"203.0.113.{20 + i}").post(
            "/api/auth/login", json={"username": "owner", "password": f"more {i}"})
    page = home.get("/login")
    token = page.text.split('name="csrf" value="')[1].split('"')[0]
    r = home.post("/login", data={"username": "owner", "password": GOOD, "csrf": token,
                                  "next": "/tournaments"}, follow_redirects=False)
    assert r.status_code == 200 and 'id="login-notice"' in r.text
    assert "3 log-in attempts with a wrong password" in r.text
    assert 'href="/tournaments"' in r.text and "qisai_session" in r.headers["set-cookie"]
