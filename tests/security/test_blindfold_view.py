"""Issue 31 item 7: a blindfold seat's own view gives nothing away.  Its
state (REST, the socket's first state and every update) carries no
position, legal moves, last-move squares or positions after each move;
its refused moves (typed or sent as actions) name no square and list no
legal move, in Chinese and English; the page draws no last-move mark; and
a rated game cannot take the blindfold off once it has started."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

SQUARE = re.compile(r"\b[a-i][0-9]\b")


def receive_until(ws: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message in {limit}")


def hides_the_position(state: dict[str, Any]) -> None:
    assert set(state["position"]) <= {"start"}, state["position"]
    for mv in [*state.get("moves", []), state.get("last_move") or {}]:
        assert "fen" not in mv, mv


def test_the_blindfold_seat_sees_and_hears_no_position(client: TestClient,
                                                        register: Any) -> None:
    red, black = register(client, "mang"), register(client, "kan")
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first", "rated": True,
                                        "time": {"minutes": 10}}, headers=red["headers"])
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/blindfold", json={"on": True},
                       headers=red["headers"]).status_code == 200
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    url = f"/ws/games/{gid}"
    with client.websocket_connect(url, headers=red["headers"]) as blind, \
            client.websocket_connect(url, headers=black["headers"]) as seeing:
        hides_the_position(receive_until(blind, "state")["state"])
        assert receive_until(seeing, "state")["state"]["position"]["legal"]  # his own board
        r = client.post(f"/api/games/{gid}/typed", json={"text": "炮二平五", "ply": 1},
                        headers=red["headers"])
        assert r.status_code == 200, r.text
        client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 2, "move": "h9g7"},
                    headers=black["headers"])
        while (update := receive_until(blind, "update")["state"])["ply"] < 2:
            hides_the_position(update)
        hides_the_position(update)
        state = client.get(f"/api/games/{gid}", headers=red["headers"]).json()
        hides_the_position(state)
        assert [m["move"] for m in state["moves"]] == ["h2e2", "h9g7"]  # the moves stay
        assert client.get(f"/api/games/{gid}", headers=black["headers"]).json()[
            "position"]["fen"]
        # Refusals: typed (a wrong or unreadable move) and as an action.
        for text in ("炮五进七", "马二进四", "车九进三", "zz", "c5+9"):
            r = client.post(f"/api/games/{gid}/typed", json={"text": text, "ply": 3},
                            headers=red["headers"])
            body = r.json()
            assert r.status_code == 422 and not SQUARE.search(r.text), (text, r.text)
            assert "legal moves" not in r.text and "炮" not in body["zh"]
            assert re.search(r"[\u4e00-\u9fff]", body["zh"]) and not re.search(r"[a-z]{3}",
                                                                                body["zh"])
            assert "blindfold" in body["en"]
        r = client.post(f"/api/games/{gid}/actions",
                        json={"type": "move", "ply": 3, "move": "h0h5"}, headers=red["headers"])
        assert r.status_code == 400 and not SQUARE.search(r.text), r.text
        assert "马" not in r.json()["zh"] and "blindfold" in r.json()["en"]
        blind.send_json({"type": "move", "ply": 3, "move": "b0c3x", "id": 7})
        err = receive_until(blind, "error")
        assert not SQUARE.search(str(err)), err
    # A rated game keeps the blindfold on once started.
    r = client.post(f"/api/games/{gid}/blindfold", json={"on": False}, headers=red["headers"])
    assert r.status_code == 409 and "蒙目" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["blindfold"] == ["first"]
    # The page draws no last-move mark for his seat.
    page = client.get(f"/games/{gid}", headers=red["headers"]).text
    assert '"fen"' not in page and '"legal"' not in page
    js = client.get("/static/game.js").text
    assert "pos.last && !blindSeat()" in js
