"""The game WebSocket: two players and a spectator, reconnect, exactly-once
moves, moves by the wrong user, cross-site sockets."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from qisai.web.security import RateLimiter


def receive_until(ws: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    """Return the next message of type ``kind`` (skipping others)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message in {limit}")


def setup_game(client: TestClient, register: Any) -> tuple[dict[str, Any], dict[str, Any], str]:
    red, black = register(client, "red"), register(client, "black")
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                        "time": {"minutes": 5, "increment": 2}},
                    headers=red["headers"])
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    return red, black, gid


def test_two_players_and_a_spectator(client: TestClient, register: Any, clock: Any) -> None:
    red, black, gid = setup_game(client, register)
    url = f"/ws/games/{gid}"
    with client.websocket_connect(url, headers=red["headers"]) as wr, \
            client.websocket_connect(url, headers=black["headers"]) as wb, \
            client.websocket_connect(url) as spec:
        for ws, you in ((wr, "first"), (wb, "second"), (spec, None)):
            st = receive_until(ws, "state")["state"]
            assert st["you"] == you and st["ply"] == 0 and st["phase"] == "playing"
            assert "h2" in st["position"]["legal"]  # legal-move hints for the board
        clock.advance(2)
        wr.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "a"})
        upd = receive_until(wr, "update")
        assert upd["state"]["last_move"]["text"] == "炮二平五"
        assert upd["notices"][0]["type"] == "moved"
        ack = receive_until(wr, "ack")
        assert ack == {"type": "ack", "id": "a", "duplicate": False, "ply": 1, "event_count": 2}
        for ws in (wb, spec):
            u = receive_until(ws, "update")
            assert u["state"]["ply"] == 1 and u["state"]["to_move"] == "second"
            assert u["state"]["clocks"]["first"] == 300.0  # 5 min - 2 s + 2 s increment
        # The spectator cannot move; black cannot move red's pieces.
        spec.send_json({"type": "move", "ply": 2, "move": "h9g7", "id": "s"})
        err = receive_until(spec, "error")
        assert err["status"] == 401
        wb.send_json({"type": "move", "ply": 2, "move": "h0g2", "id": "w"})
        err = receive_until(wb, "error")
        assert err["status"] == 400 and err["id"] == "w"
        wb.send_json({"type": "move", "ply": 2, "move": "h9g7", "id": "b"})
        assert receive_until(wb, "ack")["ply"] == 2
        assert receive_until(spec, "update")["state"]["last_move"]["text"] == "马8进7"
        wb.send_json({"type": "ping", "id": "p"})
        assert receive_until(wb, "pong")["id"] == "p"
        wb.send_text("{not json")
        assert receive_until(wb, "error")["status"] == 400


def test_double_submission_over_a_reconnect_is_applied_once(client: TestClient, register: Any
                                                            ) -> None:
    red, black, gid = setup_game(client, register)
    url = f"/ws/games/{gid}"
    with client.websocket_connect(url, headers=red["headers"]) as ws:
        receive_until(ws, "state")
        ws.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "m"})
        receive_until(ws, "ack")
    # The client lost the socket before it saw the ack, reconnects and resends.
    with client.websocket_connect(url, headers=red["headers"]) as ws:
        st = receive_until(ws, "state")["state"]
        assert st["ply"] == 1 and [m["move"] for m in st["moves"]] == ["h2e2"]
        ws.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "m"})
        ack = receive_until(ws, "ack")
        assert ack["duplicate"] is True
        ws.send_json({"type": "sync"})
        assert receive_until(ws, "state")["state"]["ply"] == 1
    events = client.get(f"/api/games/{gid}/events").json()
    assert [e["kind"] for e in events] == ["start", "move"]


def test_socket_of_unknown_game_and_cross_site_socket(client: TestClient, register: Any) -> None:
    red, _, gid = setup_game(client, register)
    with client.websocket_connect("/ws/games/nope") as ws:
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 404
    client.cookies.set("qisai_session", red["token"])
    try:
        with client.websocket_connect(f"/ws/games/{gid}",
                                      headers={"Origin": "https://evil.example"}) as ws:
            ws.receive_json()
        raise AssertionError("a cross-site socket was accepted")
    except WebSocketDisconnect as exc:
        assert exc.code == 4403
    with client.websocket_connect(f"/ws/games/{gid}",
                                  headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["state"]["you"] == "first"  # same-site cookie login works


def test_byoyomi_calls_reach_the_sockets(client: TestClient, register: Any, clock: Any) -> None:
    import time

    red, black = register(client, "red"), register(client, "black")
    r = client.post("/api/games", json={
        "kind": "go", "size": 9, "color": "first",
        "time": {"minutes": 0, "byoyomi": {"kind": "chinese", "periods": 2, "seconds": 60}}},
        headers=red["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    with client.websocket_connect(f"/ws/games/{gid}") as spec:
        receive_until(spec, "state")
        clock.advance(31)  # 30 s into Black's first minute: the arbiter calls "30秒"
        deadline = time.monotonic() + 60  # a hang bound, not a speed test
        calls: list[dict[str, Any]] = []
        while not calls and time.monotonic() < deadline:
            upd = receive_until(spec, "update")
            calls = [n for n in upd["notices"] if n["type"] == "clock_call"]
        assert calls and calls[0]["side"] == "first"
        assert any("30" in n["zh"] for n in calls)
    events = client.get(f"/api/games/{gid}/events").json()
    assert [e["kind"] for e in events] == ["start"]  # calls are announced, not logged


def test_move_submission_is_rate_limited(client: TestClient, register: Any) -> None:
    red, black, gid = setup_game(client, register)
    # A stopped clock for the bucket: on a loaded machine 30 requests can take
    # more than the 3 s in which 10 a second would refill it.
    client.app.state.qisai.hub.move_limiter = RateLimiter(10, 1.0, burst=20, clock=lambda: 0.0)  # type: ignore[attr-defined]
    codes = []
    for _ in range(30):  # 10 a second, burst 20
        r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1,
                                                           "move": "h2e2"}, headers=red["headers"])
        codes.append(r.status_code)
    assert codes[0] == 200 and 429 in codes
    assert "slow down" in client.post(f"/api/games/{gid}/actions", json={
        "type": "move", "ply": 1, "move": "h2e2"}, headers=red["headers"]).json()["detail"]
