"""A Go game through the API: moves, two passes, dead stones agreed, the count."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def test_go_two_passes_dead_stones_and_count(register: Any, client: TestClient) -> None:
    black, white = register(client, "hei"), register(client, "bai")
    r = client.post("/api/games", json={"kind": "go", "ruleset": "chinese", "size": 5,
                                        "color": "first", "time": {"minutes": 10}},
                    headers=black["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", headers=white["headers"])

    def act(who: dict[str, Any], **action: Any) -> Any:
        return client.post(f"/api/games/{gid}/actions", json=action, headers=who["headers"])

    assert act(black, type="move", ply=1, move="C3").status_code == 200
    assert act(white, type="move", ply=2, move="A1").status_code == 200
    # An occupied point: under the Chinese rules the move is void, counts as a
    # pass and earns a warning (10, 11(1)).
    r = act(black, type="move", ply=3, move="C3")
    assert r.status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["position"]["grid"][2][2] == "b" and st["position"]["grid"][4][0] == "w"
    assert st["position"]["last"] == "pass" and st["warnings"]["first"] == 1
    assert act(white, type="pass", ply=4).status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["phase"] == "scoring"
    assert act(white, type="mark_dead", points=["A1"]).status_code == 200
    assert client.get(f"/api/games/{gid}").json()["position"]["dead"] == ["A1"]
    r = act(white, type="confirm_dead")  # the side to move (Black) confirms first: 4(4)
    assert r.status_code == 409 and "confirms first" in r.json()["detail"]
    assert act(black, type="confirm_dead").status_code == 200
    assert act(white, type="confirm_dead").status_code == 200
    res = client.get(f"/api/games/{gid}").json()["result"]
    assert res["reason"] == "score" and res["winner"] == "first" and res["unit"] == "子"
    sgf = client.get(f"/api/games/{gid}/record").text
    assert "SZ[5]" in sgf and ";B[cc]" in sgf and ";W[ae]" in sgf and "RE[B+" in sgf
