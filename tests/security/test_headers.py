"""Issue 14 item 8: security headers on every response (CSP without inline
script, no framing, nosniff, referrer policy), the API docs keep their own
CSP, cookies are Secure over HTTPS or by setting, and no template holds an
inline script, style or event handler.  The browser side (no CSP violation
on the main pages) is tests/web/test_web_security_browser.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app
from qisai.web.headers import CSP

TEMPLATES = Path(__file__).resolve().parents[2] / "qisai" / "web" / "pages" / "templates"


def make_client(tmp_path: Path, base_url: str = "http://testserver",
                secure: bool = False) -> TestClient:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    settings.cookie_secure = secure
    return TestClient(create_app(settings), base_url=base_url)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/login", "/tournaments", "/static/game.js", "/api/rules",
                                  "/no-such-page", "/api/users/1"])
def test_every_response_has_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] in ("same-origin", "strict-origin-when-cross-origin")


def test_the_policy_forbids_inline_script_and_framing() -> None:
    directives = {d.split()[0]: d.split()[1:] for d in CSP.split("; ")}
    assert directives["script-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP


def test_a_413_has_the_headers_too(client: TestClient) -> None:
    r = client.post("/api/auth/login", content=b"x" * 100_000,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_api_docs_keep_their_own_policy(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert csp != CSP and "script-src 'self' 'unsafe-inline'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"


def test_cookies_are_not_secure_over_plain_http(client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "plain", "password": "correct horse"})
    assert r.status_code == 201
    assert "secure" not in r.headers["set-cookie"].lower()


def test_cookies_are_secure_over_https(tmp_path: Path) -> None:
    with make_client(tmp_path, base_url="https://testserver") as c:
        r = c.post("/api/auth/register", json={"username": "tls", "password": "correct horse"})
        assert r.status_code == 201
        cookies = r.headers.get_list("set-cookie")
        assert cookies and all("; Secure" in cookie for cookie in cookies)
        r = c.get("/login")
        assert all("; Secure" in cookie for cookie in r.headers.get_list("set-cookie"))


def test_cookies_are_secure_by_setting(tmp_path: Path) -> None:
    with make_client(tmp_path, secure=True) as c:
        r = c.post("/api/auth/register", json={"username": "set", "password": "correct horse"})
        assert r.status_code == 201
        cookie = r.headers["set-cookie"]
        assert cookie.lower().count("secure") == 1  # not twice


@pytest.mark.parametrize("name", ["QISAI_SECURE_COOKIES", "QISAI_COOKIE_SECURE"])
def test_the_secure_cookie_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   name: str) -> None:
    monkeypatch.setenv(name, "1")
    monkeypatch.setenv("QISAI_TRUSTED_PROXIES", "10.0.0.1")
    s = Settings.from_env(tmp_path / "data", url="sqlite://")
    assert s.cookie_secure and s.trusted_proxies == "10.0.0.1"


def test_no_template_has_inline_script_or_style() -> None:
    pages = sorted(TEMPLATES.rglob("*.html"))
    # The folder is the templates' (not an empty or moved one): the base
    # layout and pages in sub-folders are among what is read.
    assert TEMPLATES / "base.html" in pages
    assert any(p.parent != TEMPLATES for p in pages)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag or 'type="application/json"' in tag, (page.name, tag)
        assert "<style" not in text, page.name
        assert not re.search(r"\son[a-z]+\s*=", text), page.name
        assert not re.search(r"\sstyle\s*=", text), page.name
        assert "javascript:" not in text, page.name


def test_the_manual_has_its_own_policy_still_without_framing(client: TestClient) -> None:
    from qisai.web.headers import MANUAL_CSP

    r = client.get("/manual/en/index.html")
    assert r.headers["content-security-policy"] == MANUAL_CSP
    assert "frame-ancestors 'none'" in MANUAL_CSP
    assert r.headers["x-frame-options"] == "DENY"
    assert client.get("/manualx").headers.get("content-security-policy") == CSP
