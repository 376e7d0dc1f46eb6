"""Tournaments through the API: an organiser runs a 4-player round robin;
boards between account holders are played on the server and their results
enter the event by themselves."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def test_round_robin_to_final_standings(register: Any, client: TestClient) -> None:
    org, wang, li = register(client, "org"), register(client, "wang"), register(client, "li")
    r = client.post("/api/tournaments", json={"name": "Club RR", "system": "round_robin"},
                    headers=org["headers"])
    assert r.status_code == 403 and "organiser" in r.json()["detail"]
    make_role(client, org["user"]["id"], Role.ORGANISER)
    r = client.post("/api/tournaments", json={"name": "Club RR", "system": "round_robin",
                                              "time": {"minutes": 15}}, headers=org["headers"])
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    base = f"/api/tournaments/{tid}"
    for body in ({"username": "wang"}, {"username": "li"}, {"name": "Zhao", "rating": 1600},
                 {"name": "Sun"}):
        assert client.post(f"{base}/entries", json=body, headers=org["headers"]).status_code == 201
    dup = client.post(f"{base}/entries", json={"name": "Sun"}, headers=org["headers"])
    assert dup.status_code == 409 and "duplicate" in dup.json()["detail"]
    missing = client.post(f"{base}/entries", json={"username": "nobody"}, headers=org["headers"])
    assert missing.status_code == 404
    early = client.post(f"{base}/rounds", headers=org["headers"])
    assert early.status_code == 409 and "start" in early.json()["detail"]
    ev = client.post(f"{base}/start", headers=org["headers"]).json()
    assert sorted(p["number"] for p in ev["players"]) == [1, 2, 3, 4]
    heads = {wang["user"]["id"]: wang["headers"], li["user"]["id"]: li["headers"]}
    for rnd in (1, 2, 3):
        ev = client.post(f"{base}/rounds", headers=org["headers"]).json()
        boards = ev["rounds"][rnd - 1]["boards"]
        assert len(boards) == 2
        for b in boards:
            if b["game"]:
                # Wang v Li is played on the server: the first player resigns.
                g = client.get(f"/api/games/{b['game']}").json()
                assert g["status"] == "active" and g["ruleset"] == "cxa"
                red_uid = g["players"]["first"]["id"]
                a = client.post(f"/api/games/{b['game']}/actions", json={"type": "resign"},
                                headers=heads[red_uid])
                assert a.status_code == 200
            else:
                r = client.put(f"{base}/rounds/{rnd}/boards/{b['board']}", json={"result": "1-0"},
                               headers=org["headers"])
                assert r.status_code == 200, r.text
        ev = client.get(base).json()
        assert ev["rounds"][rnd - 1]["complete"] is True
    bad = client.put(f"{base}/rounds/1/boards/1", json={"result": "banana"}, headers=org["headers"])
    assert bad.status_code == 422
    ev = client.get(base).json()
    assert ev["finished"] is True and ev["status"] == "finished"
    assert len(ev["standings"]) == 4 and sum(r["points"] for r in ev["standings"]) == 6
    server_board = [b for r in ev["rounds"] for b in r["boards"] if b["game"]]
    assert len(server_board) == 1 and server_board[0]["result"] == "0-1"
    assert len(ev["crosstable"]) == 5  # header + 4 rows
    page = client.get(f"/tournaments/{tid}")
    assert page.status_code == 200 and "Club RR" in page.text and 'id="standings"' in page.text
    assert client.get("/tournaments").status_code == 200
