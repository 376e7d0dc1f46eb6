"""Issue 14 item 4: request bodies have a size limit (413 by Content-Length
and while streaming, lower on log-in and game routes), and errors quote at
most a short prefix of the input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app
from qisai.web.bounds import MAX_BODY, BodyLimitMiddleware, loads_bounded, prefix, short_detail


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings)) as c:
        yield c


def register(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def game(client: TestClient) -> tuple[dict[str, str], str]:
    red, black = register(client, "red"), register(client, "black")
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                        "time": {"minutes": 5, "increment": 2}}, headers=red)
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black).status_code == 200
    return red, gid


def test_a_body_over_a_mebibyte_is_413_by_content_length(client: TestClient) -> None:
    body = b'{"name": "' + b"x" * (MAX_BODY + 10) + b'"}'
    r = client.post("/api/tournaments", content=body,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert len(r.content) < 200


def test_a_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer
        yield b'{"name": "'
        for _ in range(40):
            yield b"x" * 65536
        yield b'"}'

    r = client.post("/api/tournaments", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_log_in_has_a_lower_limit(client: TestClient) -> None:
    r = client.post("/api/auth/login", json={"username": "a", "password": "p" * 20_000})
    assert r.status_code == 413
    r = client.post("/login", data={"username": "a", "password": "p" * 20_000})
    assert r.status_code == 413


def test_a_huge_move_is_refused_and_not_echoed(client: TestClient) -> None:
    red, gid = game(client)
    # 20 MB: refused by length, not read, not echoed
    r = client.post(f"/api/games/{gid}/actions", headers=red,
                    json={"type": "move", "ply": 1, "move": "h2e2" * 5_000_000})
    assert r.status_code == 413 and len(r.content) < 200
    # under the route's 64 KiB: read, refused, quoted by a prefix only
    r = client.post(f"/api/games/{gid}/actions", headers=red,
                    json={"type": "move", "ply": 1, "move": "z9" * 20_000})
    assert r.status_code == 400, r.text
    assert len(r.content) < 600, r.text


def test_a_validation_error_does_not_echo_the_input(client: TestClient) -> None:
    red = register(client, "someone")
    r = client.post("/api/games", headers=red,
                    json={"kind": "k" * 50_000, "color": "first"})
    assert r.status_code == 422
    assert len(r.content) < 2000, r.content[:300]
    assert "kkkkkkkkkk" not in r.text
    # a malformed JSON body too
    r = client.post("/api/games", headers={**red, "Content-Type": "application/json"},
                    content=b'{"kind": "' + b"k" * 50_000)
    assert r.status_code == 422
    assert len(r.content) < 2000


def test_an_http_error_detail_is_cut(client: TestClient) -> None:
    r = client.get("/api/games/" + "g" * 5000)
    assert r.status_code == 404
    assert len(r.content) < 600


def test_ordinary_requests_still_pass(client: TestClient) -> None:
    red, gid = game(client)
    r = client.post(f"/api/games/{gid}/actions", headers=red,
                    json={"type": "move", "ply": 1, "move": "h2e2", "id": "m1"})
    assert r.status_code == 200, r.text


def test_the_route_limits() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
        pass

    mw = BodyLimitMiddleware(app)
    assert mw.limit_for("POST", "/api/auth/login") == 16 * 1024
    assert mw.limit_for("POST", "/api/games/abc/actions") == 64 * 1024
    assert mw.limit_for("POST", "/api/games") == 64 * 1024
    assert mw.limit_for("POST", "/api/tournaments/3/rounds") == MAX_BODY


def test_prefix_and_short_detail() -> None:
    assert prefix("h2e2") == "'h2e2'"
    assert prefix("x" * 1000).endswith("(1000 characters)")
    assert len(prefix("x" * 1000)) < 80
    assert short_detail("y" * 10) == "y" * 10
    assert len(short_detail("y" * 100_000)) < 400


def test_loads_bounded() -> None:
    assert loads_bounded('{"a": [1, {"b": "[[[[[[["}]}', max_depth=3) == {"a": [1, {"b": "[[[[[[["}]}
    with pytest.raises(ValueError):
        loads_bounded("[" * 40 + "]" * 40, max_depth=32)
    with pytest.raises(ValueError):
        loads_bounded('{"a": "\\"[[[[" ' + "[" * 5)


def test_deeply_nested_json_bodies_are_refused_cleanly(tmp_path: Path) -> None:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        for body in (b"[" * 60_000, b'{"a":' * 20_000 + b"1" + b"}" * 20_000):
            r = c.post("/api/games", content=body, headers={"Content-Type": "application/json"})
            assert 400 <= r.status_code < 500, r.status_code
            assert len(r.content) < 600
