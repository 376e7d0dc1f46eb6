"""One path for every result (issue 18): an arbiter's entry and a server
game's result go in by the same steps, and the server never overwrites what
an arbiter entered."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def test_a_server_game_never_overwrites_the_arbiters_entry(register: Any,
                                                           client: TestClient) -> None:
    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    players = {n: register(client, n) for n in ("wang", "li")}
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Club", "system": "round_robin"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in players:
        assert client.post(f"{base}/entries", json={"username": name},
                           headers=h).status_code == 201
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (board,) = ev["rounds"][0]["boards"]
    assert board["game"], "both players have accounts: a server game"
    # The arbiter enters a draw over the board first ...
    r = client.put(f"{base}/rounds/1/boards/{board['board']}", json={"result": "="},
                   headers=h)
    assert r.status_code == 200, r.text
    # ... which ends the server game with the arbiter's ruling (17.5): no
    # side may move or resign any more ...
    g = client.get(f"/api/games/{board['game']}").json()
    assert g["status"] == "finished" and g["result"]["pgn"] == "1/2-1/2"
    assert g["result"]["reason"] == "adjudication" and g["result"]["clause"] == "17.5"
    mover = next(p for p in players.values() if p["user"]["id"] == g["players"]["first"]["id"])
    r = client.post(f"/api/games/{board['game']}/actions", json={"type": "resign"},
                    headers=mover["headers"])
    assert r.status_code == 409, r.text
    # ... and a server result arriving late does not replace the entry.
    from qisai.web.events.results import record_game_result

    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        game = repo.get_game(s, board["game"])
        assert game.pairing_id is not None
        record_game_result(s, game.pairing_id, "0-1")
    ev = client.get(base).json()
    assert ev["rounds"][0]["boards"][0]["result"] == "=-="
    assert [e["action"] for e in ev["log"]].count("server") == 0
    assert ev["log"][-1]["action"] == "result" and ev["log"][-1]["by"] == "org"
    # A correction needs a reason, on this board as on every kind of board.
    r = client.put(f"{base}/rounds/1/boards/{board['board']}", json={"result": "0-1"},
                   headers=h)
    assert r.status_code == 422 and "reason" in r.json()["detail"]
