"""The home page's page socket, ``/ws/lobby`` (issue 22.2): one socket
follows many games; who may watch what (started games only: an open seek,
or an id that is no game, is refused alike); the bounds of its frames, of
its watch list and of the sockets an address may open; coalesced updates."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from qisai.store import repo
from qisai.web.lobby import socket as lobby_socket
from qisai.web.lobby.feed import NOT_WATCHABLE, LobbyFeed
from qisai.web.lobby.live_boards import MAX_BOARDS

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
AFTER_H2E2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
"""The start position, and after 炮二平五 (h2e2): Red's right cannon on the
central file (the rule book's diagram of the start position, 1.2)."""


def receive_until(ws: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message in {limit}")


def started_game(client: TestClient, register: Any, a: str = "red", b: str = "black"
                 ) -> tuple[dict[str, Any], dict[str, Any], str]:
    red, black = register(client, a), register(client, b)
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                        "time": {"minutes": 5, "increment": 2}},
                    headers=red["headers"])
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    return red, black, gid


def open_seek(client: TestClient, who: dict[str, Any]) -> str:
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                    headers=who["headers"])
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    return gid


def closed_with(client: TestClient, url: str, send: Any, **kw: Any) -> int:
    """Open a lobby socket, send ``send`` (text, bytes or None) and return the
    close code the server gave."""
    try:
        with client.websocket_connect(url, **kw) as ws:
            if isinstance(send, bytes):
                ws.send_bytes(send)
            elif send is not None:
                ws.send_text(send)
            ws.receive_json()
            ws.receive_json()
    except WebSocketDisconnect as exc:
        return exc.code
    raise AssertionError("the socket stayed open")


def test_one_socket_follows_a_started_game_and_moves_with_it(client: TestClient,
                                                             register: Any) -> None:
    red, black, gid = started_game(client, register)
    with client.websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "watch", "games": [gid]})
        assert receive_until(ws, "watching") == {"type": "watching", "games": [gid],
                                                 "refused": []}
        board = receive_until(ws, "boards")["boards"][0]
        assert board["id"] == gid and board["fen"] == START and board["ply"] == 0
        assert board["players"]["first"]["name"] == "red"
        assert board["players"]["second"]["rating"] == 1500  # a new account's rating
        assert board["clocks"]["first"] == 300 and board["clocks"]["running"] == "first"
        r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1,
                                                           "move": "h2e2"},
                        headers=red["headers"])
        assert r.status_code == 200, r.text
        board = receive_until(ws, "boards")["boards"][0]
        assert board["fen"] == AFTER_H2E2 and board["last"] == "h2e2" and board["ply"] == 1
        assert board["clocks"]["running"] == "second" and board["result"] is None
        client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                    headers=black["headers"])
        board = receive_until(ws, "boards")["boards"][0]
        assert board["result"]["tag"] == "1-0" and board["status"] == "finished"


def test_open_seeks_and_unknown_ids_are_refused_alike(client: TestClient, register: Any) -> None:
    red, _, gid = started_game(client, register)
    seek = open_seek(client, red)
    with client.websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "watch", "games": [seek, "nosuchgame", gid]})
        msg = receive_until(ws, "watching")
        assert msg["games"] == [gid]
        assert msg["refused"] == [{"id": seek, "message": NOT_WATCHABLE},
                                  {"id": "nosuchgame", "message": NOT_WATCHABLE}]
        boards = receive_until(ws, "boards")["boards"]
        assert [b["id"] for b in boards] == [gid]  # nothing of the seek
        # The seek's owner plays nothing there, but a second watch of it is
        # refused again, and replaces the set: the started game is dropped.
        ws.send_json({"type": "watch", "games": [seek]})
        assert receive_until(ws, "watching") == {
            "type": "watching", "games": [], "refused": [{"id": seek, "message": NOT_WATCHABLE}]}
        client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1,
                                                       "move": "h2e2"}, headers=red["headers"])
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # no board of a game not watched


def test_watch_lists_are_bounded_and_checked(client: TestClient, register: Any) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        ws.send_json({"type": "watch", "games": [f"g{i}" for i in range(MAX_BOARDS + 1)]})
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 400 and str(MAX_BOARDS) in err["message"]
        for bad in ("abc", [1, 2], ["../x"], ["x" * 33], [{"id": "a"}]):
            ws.send_json({"type": "watch", "games": bad})
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == 400, bad
        ws.send_json({"type": "move", "move": "h2e2"})
        assert ws.receive_json()["status"] == 400  # the lobby socket takes no actions
        ws.send_text("not json")
        assert ws.receive_json() == {"type": "error", "status": 400, "message": "not JSON"}
        answers = []
        for _ in range(8):  # the burst is 5 watch requests
            ws.send_json({"type": "watch", "games": []})
            answers.append(ws.receive_json())
        assert answers[0]["type"] == "watching"
        assert answers[-1]["type"] == "error" and answers[-1]["status"] == 429


def test_frame_limits_close_the_socket(client: TestClient) -> None:
    big = json.dumps({"type": "watch", "games": ["a" * 5000]})
    assert closed_with(client, "/ws/lobby", big) == 1009
    assert closed_with(client, "/ws/lobby", b"\x00\x01") == 1003
    assert closed_with(client, "/ws/lobby", "[" * 10 + "]" * 10) == 1007
    assert closed_with(client, "/ws/lobby", None,
                       headers={"Origin": "https://evil.example"}) == 4403


def test_an_address_has_a_bounded_number_of_lobby_sockets(client: TestClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_socket, "PER_ADDRESS", 2)
    with client.websocket_connect("/ws/lobby") as a, client.websocket_connect("/ws/lobby") as b:
        a.send_json({"type": "ping"})
        b.send_json({"type": "ping"})
        assert a.receive_json() == b.receive_json() == {"type": "pong"}
        assert closed_with(client, "/ws/lobby", None) == 1013
    with client.websocket_connect("/ws/lobby") as c:  # closed ones are counted out
        c.send_json({"type": "ping"})
        assert c.receive_json() == {"type": "pong"}


def test_changes_between_two_messages_are_sent_once(client: TestClient, register: Any) -> None:
    """Four moves within one interval: one ``boards`` message (the first,
    at once), then the board once more, as it is after the fourth move."""
    red, black, gid = started_game(client, register)
    hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        users = {"first": repo.get_user(s, red["user"]["id"]),
                 "second": repo.get_user(s, black["user"]["id"])}
    sent: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    async def scenario() -> list[dict[str, Any]]:
        feed = LobbyFeed(hub, send, interval=3600.0)
        await feed.watch([gid])
        pusher = asyncio.get_running_loop().create_task(feed.run())
        for _ in range(500):
            if sent:
                break
            await asyncio.sleep(0.01)
        for ply, (side, mv) in enumerate([("first", "h2e2"), ("second", "h9g7"),
                                          ("first", "h0g2"), ("second", "i9h9")], start=1):
            await hub.act(gid, users[side], {"type": "move", "ply": ply, "move": mv})
        await asyncio.sleep(0.05)
        held = list(sent)
        views = await feed.views()
        pusher.cancel()
        feed.close()
        return [*held, {"views": views}]

    out = client.portal.call(scenario)  # type: ignore[union-attr]
    assert len(out) == 2 and out[0]["type"] == "boards" and out[0]["boards"][0]["ply"] == 0
    views = out[1]["views"]
    assert len(views) == 1 and views[0]["ply"] == 4 and views[0]["last"] == "i9h9"
