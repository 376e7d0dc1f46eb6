"""Pages: language by Accept-Language and by the switch, the game page, the
profile with its rating plot, the OpenAPI docs."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from qisai.web.pages.i18n import choose_language


def test_language_choice() -> None:
    assert choose_language(None, "zh-CN,zh;q=0.9,en;q=0.8") == "zh"
    assert choose_language(None, "en-GB,en;q=0.9,zh;q=0.5") == "en"
    assert choose_language(None, "fr-FR, zh;q=0.3") == "zh"
    assert choose_language(None, None) == "en"
    assert choose_language("zh", "en") == "zh"
    assert choose_language("xx", "en") == "en"


def test_home_in_chinese_and_english_and_the_switch(client: TestClient) -> None:
    zh = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert zh.status_code == 200 and zh.headers["content-language"] == "zh"
    assert "新对局" in zh.text and 'lang="zh-CN"' in zh.text
    en = client.get("/", headers={"Accept-Language": "en-US"})
    assert "New game" in en.text and "新对局" not in en.text
    r = client.get("/lang/zh?next=/login", headers={"Accept-Language": "en-US"},
                   follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    client.cookies.set("lang", "zh")
    assert "登录" in client.get("/login", headers={"Accept-Language": "en-US"}).text
    r = client.get("/lang/zh?next=https://evil.example/", follow_redirects=False)
    assert r.headers["location"] == "/"
    assert client.get("/lang/fr").status_code == 404
    assert 'name="viewport"' in zh.text  # phones


def test_game_page_embeds_the_state_safely(register: Any, client: TestClient) -> None:
    red = register(client, "red1")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        from qisai.store import repo

        u = repo.get_user(s, red["user"]["id"])
        u.display_name = "</script><script>alert(1)</script>"
        s.commit()
    g = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                    headers=red["headers"]).json()
    page = client.get(f"/games/{g['id']}")
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    # "<", ">" and "&" escaped in the JSON as Django's json_script does (issue 14 item 5)
    assert r"\u003C/script\u003E\u003Cscript\u003Ealert(1)\u003C/script\u003E" in page.text
    data = re.search(r'<script id="game-data" type="application/json">(.*?)</script>',
                     page.text, re.S)
    assert data is not None
    state = json.loads(data.group(1))
    assert state["id"] == g["id"] and state["status"] == "waiting"
    assert state["players"]["first"]["display_name"].startswith("</script>")
    assert state["players"]["first"]["name"] == "red1"  # the unique user name is shown
    assert client.get("/games/nope").status_code == 404


def test_profile_page_and_docs(register: Any, client: TestClient) -> None:
    a = register(client, "plot")
    page = client.get(f"/users/{a['user']['id']}")
    assert page.status_code == 200 and "<polyline" in page.text and "1500" in page.text
    assert client.get("/users/999").status_code == 404
    spec = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/actions" in spec["paths"]
    assert client.get("/docs").status_code == 200


def _form_token(page_html: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]{64})"', page_html)
    assert m is not None, "the log-in form carries no CSRF token"
    return m.group(1)


def test_login_form_needs_its_csrf_token(register: Any, client: TestClient) -> None:
    register(client, "alice")  # leaves the cookie jar empty
    page = client.get("/login")
    assert page.status_code == 200 and "qisai_form" in page.headers["set-cookie"]
    assert "httponly" in page.headers["set-cookie"].lower()
    token = _form_token(page.text)
    creds = {"username": "alice", "password": "correct horse"}
    # No token, a wrong token, or the right token without this browser's cookie: 403.
    for data, keep_cookie in ((creds, True), ({**creds, "csrf": "0" * 64}, True),
                              ({**creds, "csrf": token}, False)):
        saved = dict(client.cookies)
        if not keep_cookie:
            client.cookies.clear()
        r = client.post("/login", data=data, follow_redirects=False)
        assert r.status_code == 403, r.text
        assert "CSRF" in r.text and "reload the page" in r.text
        assert "qisai_session" not in r.headers.get("set-cookie", "")
        client.cookies.clear()
        client.cookies.update(saved)
    # With the token: logged in, sent home with the session cookie.
    r = client.post("/login", data={**creds, "csrf": token, "next": "/tournaments"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/tournaments"
    assert "qisai_session" in r.headers["set-cookie"]
    me = client.get("/tournaments")
    assert 'id="me"' in me.text and "alice" in me.text
    client.cookies.delete("qisai_session")
    link = client.get("/tournaments").text
    assert 'href="/login?next=/tournaments" id="login-link"' in link
    assert 'name="next" value="/tournaments"' in client.get("/login?next=/tournaments").text


def test_register_and_guest_forms_check_the_token_and_report_errors(client: TestClient) -> None:
    token = _form_token(client.get("/login").text)
    r = client.post("/register", data={"username": "bob", "password": "long enough pw"},
                    follow_redirects=False)
    assert r.status_code == 403  # no token: no account is made
    r = client.post("/login", data={"username": "bob", "password": "long enough pw",
                                    "csrf": token}, follow_redirects=False)
    assert r.status_code == 401 and "wrong user name or password" in r.text
    r = client.post("/register", data={"username": "bob", "password": "short", "csrf": token},
                    follow_redirects=False)
    assert r.status_code == 422 and "password" in r.text
    r = client.post("/register", data={"username": "bob", "password": "long enough pw",
                                       "csrf": token, "next": "https://evil.example/"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"  # no open redirect
    client.cookies.delete("qisai_session")
    r = client.post("/register", data={"username": "bob", "password": "long enough pw",
                                       "csrf": token}, follow_redirects=False)
    assert r.status_code == 409 and "taken" in r.text and 'value="bob"' in r.text
    assert client.post("/guest", data={}, follow_redirects=False).status_code == 403
    r = client.post("/guest", data={"csrf": token}, follow_redirects=False)
    assert r.status_code == 303 and "qisai_session" in r.headers["set-cookie"]


def test_json_login_cannot_be_posted_by_a_cross_site_form(register: Any,
                                                          client: TestClient) -> None:
    # A form on another site can only send form encodings or text/plain; the
    # JSON log-in refuses them (a JSON body needs a CORS preflight, which fails).
    register(client, "carol")
    body = '{"username": "carol", "password": "correct horse"}'
    for ctype in ("text/plain", "application/x-www-form-urlencoded"):
        r = client.post("/api/auth/login", content=body, headers={"Content-Type": ctype})
        assert r.status_code == 422 and "qisai_session" not in r.headers.get("set-cookie", "")
