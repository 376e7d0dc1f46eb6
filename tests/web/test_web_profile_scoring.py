"""A web event created under the ``cxa-2007`` rule profile scores by its
points (2007 trial 贴分: draw 1 to Red, 2 to Black; issue 13.11)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role

DRAW_RED_2007, DRAW_BLACK_2007 = 1.0, 2.0


def test_round_robin_under_cxa_2007_scores_by_the_profile(register: Any,
                                                          client: TestClient) -> None:
    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    r = client.post("/api/tournaments", json={"name": "贴分赛", "system": "round_robin",
                                              "ruleset": "cxa-2007"}, headers=org["headers"])
    assert r.status_code == 201, r.text
    base = f"/api/tournaments/{r.json()['id']}"
    for name in ("Zhao", "Sun"):
        assert client.post(f"{base}/entries", json={"name": name},
                           headers=org["headers"]).status_code == 201
    assert client.post(f"{base}/start", headers=org["headers"]).status_code == 200
    ev = client.post(f"{base}/rounds", headers=org["headers"]).json()
    board = ev["rounds"][0]["boards"][0]
    r = client.put(f"{base}/rounds/1/boards/{board['board']}", json={"result": "="},
                   headers=org["headers"])
    assert r.status_code == 200, r.text
    ev = client.get(base).json()
    names = {p["number"]: p["name"] for p in ev["players"]}
    points = {row["name"]: row["points"] for row in ev["standings"]}
    assert points == {names[board["red"]]: DRAW_RED_2007, names[board["black"]]: DRAW_BLACK_2007}
