"""Issue 14 item 12: ``POST /api/auth/guest`` opened a session with no CSRF
check, so another site could log a browser in as a fresh guest (login
CSRF).  It now needs the pre-session token (``GET /api/auth/csrf``, bound
to the ``qisai_form`` cookie) in ``X-CSRF-Token``, as the ``/guest`` form
needs it in its field; the pages' scripts fetch and send it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.store.models import User


def users(client: TestClient) -> int:
    from sqlalchemy import func, select

    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        return int(s.scalar(select(func.count()).select_from(User)) or 0)


def test_guest_without_the_token_is_refused(client: TestClient) -> None:
    r = client.post("/api/auth/guest")
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    assert "qisai_session" not in r.headers.get("set-cookie", "")
    assert users(client) == 0  # nothing created
    # A cross-site form post: no custom header, form-encoded, no cookies.
    r = client.post("/api/auth/guest", data={"csrf": "x"},
                    headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and users(client) == 0


def test_guest_with_a_wrong_or_unbound_token_is_refused(client: TestClient) -> None:
    token = client.get("/api/auth/csrf").json()["csrf"]
    # Change the last character (a fixed "0" would be no change for 1 token in 16).
    wrong = token[:-1] + ("1" if token[-1] == "0" else "0")
    assert wrong != token
    assert client.post("/api/auth/guest", headers={"X-CSRF-Token": wrong}).status_code == 403
    nonce = client.cookies.get("qisai_form")
    assert nonce and len(nonce) == 64
    client.cookies.clear()  # the token without the cookie it is bound to
    assert client.post("/api/auth/guest", headers={"X-CSRF-Token": token}).status_code == 403
    other = client.get("/api/auth/csrf").json()["csrf"]  # another browser's nonce now
    assert other != token
    assert client.post("/api/auth/guest", headers={"X-CSRF-Token": token}).status_code == 403
    assert users(client) == 0


def test_guest_with_the_token_gets_a_session(client: TestClient) -> None:
    r = client.get("/api/auth/csrf")
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert "qisai_form=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    token = r.json()["csrf"]
    assert client.get("/api/auth/csrf").json()["csrf"] == token  # stable for the browser
    g = client.post("/api/auth/guest", headers={"X-CSRF-Token": token})
    assert g.status_code == 201 and g.json()["user"]["guest"] is True
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["guest"] is True
    # The session's own CSRF token then guards what the guest does.
    r = client.post("/api/games", json={"kind": "xiangqi"})
    assert r.status_code == 403
    r = client.post("/api/games", json={"kind": "xiangqi"},
                    headers={"X-CSRF-Token": g.json()["csrf"]})
    assert r.status_code == 201


def test_the_guest_form_still_needs_and_takes_its_token(client: TestClient) -> None:
    assert client.post("/guest", data={}, follow_redirects=False).status_code == 403
    page = client.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None
    r = client.post("/guest", data={"csrf": token.group(1)}, follow_redirects=False)
    assert r.status_code == 303 and client.get("/api/me").json()["guest"] is True
    assert users(client) == 1


def test_the_csrf_endpoint_is_documented(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/auth/csrf" in paths and "/api/auth/guest" in paths
    assert "X-CSRF-Token" in paths["/api/auth/guest"]["post"]["description"]


@pytest.mark.slow
def test_a_browser_guest_creates_a_game_from_the_home_page(live_server: tuple[str, Path],
                                                           browser: Any) -> None:
    base, _ = live_server
    page = browser.new_context(locale="en-US").new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/")
    assert page.locator('meta[name="csrf"]').get_attribute("content") == ""
    page.click("#custom-game > summary")
    page.click("#create-game")  # app.js: GET /api/auth/csrf, POST /api/auth/guest, the game
    page.wait_for_url(f"{base}/games/*")
    me = page.evaluate("fetch('/api/me').then(r => r.json())")
    assert me["guest"] is True
    assert page.locator("#me").inner_text().startswith("guest-")  # the user name, shown first
