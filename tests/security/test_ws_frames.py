"""Issue 14 items 4 and 11 over the real game socket: a binary frame closes
with 1003, a frame over 64 KiB with 1009, JSON nested too deep with 1007,
malformed JSON gets an error frame; no unhandled exception in any case, and
the socket keeps serving the other clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from qisai.web import Settings, create_app
from qisai.web.bounds import MAX_FRAME


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    # raise_server_exceptions (the default): an unhandled error in the
    # handler fails the test
    with TestClient(create_app(settings)) as c:
        yield c


def register(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


@pytest.fixture
def game(client: TestClient) -> tuple[dict[str, str], str]:
    red, black = register(client, "red"), register(client, "black")
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                        "time": {"minutes": 5, "increment": 2}}, headers=red)
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black).status_code == 200
    return red, gid


def first_state(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state"
    return msg


def closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(5):
            ws.receive_json()
    return closed.value.code


def still_serves(client: TestClient, gid: str) -> None:
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        first_state(ws)
        ws.send_json({"type": "ping", "id": 1})
        assert ws.receive_json() == {"type": "pong", "id": 1}


def test_a_binary_frame_closes_with_1003(client: TestClient, game: Any) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_bytes(b'{"type": "ping"}')
        assert closed_with(ws) == 1003
    still_serves(client, gid)


def test_a_frame_over_64_kib_closes_with_1009(client: TestClient, game: Any) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_text('{"type": "move", "ply": 1, "move": "' + "x" * MAX_FRAME + '"}')
        assert closed_with(ws) == 1009
    still_serves(client, gid)


def test_multibyte_text_counts_its_utf8_bytes(client: TestClient, game: Any) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_text('{"m": "' + "炮" * (MAX_FRAME // 3 + 10) + '"}')  # under 64 Ki characters
        assert closed_with(ws) == 1009


@pytest.mark.parametrize("nesting", ["[" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000,
                                     "[" * 40 + "]" * 40])
def test_deeply_nested_json_closes_with_1007(client: TestClient, game: Any, nesting: str) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_text(nesting[:MAX_FRAME - 10])
        assert closed_with(ws) == 1007
    still_serves(client, gid)


def test_malformed_json_gets_an_error_frame(client: TestClient, game: Any) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_text("{not json")
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 400
        ws.send_json({"type": "ping", "id": 2})
        assert ws.receive_json() == {"type": "pong", "id": 2}


def test_a_long_move_is_refused_by_a_short_error(client: TestClient, game: Any) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_json({"type": "move", "ply": 1, "move": "z9" * 30_000, "id": "long"})
        for _ in range(5):
            msg = ws.receive_json()
            if msg["type"] == "error":
                break
        assert msg["status"] == 400 and msg["id"] == "long"
        assert len(msg["message"]) < 500


def test_ordinary_play_still_works(client: TestClient, game: Any) -> None:
    red, gid = game
    with client.websocket_connect(f"/ws/games/{gid}", headers=red) as ws:
        first_state(ws)
        ws.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "a"})
        kinds = []
        for _ in range(5):
            msg = ws.receive_json()
            kinds.append(msg["type"])
            if msg["type"] == "ack":
                break
        assert "ack" in kinds
