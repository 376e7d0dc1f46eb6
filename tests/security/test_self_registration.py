"""Issue 31 item 9: an event with no listing is closed to self-registration
until its organiser opens it in the listing; only he may open it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def test_an_unlisted_event_is_closed_until_its_organiser_opens_it(
        client: TestClient, register: Any) -> None:
    org, wang, li = (register(client, n) for n in ("org", "wang", "li"))
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    r = client.post("/api/tournaments", json={"name": "Quiet club night", "system": "swiss",
                                              "rounds": 3}, headers=org["headers"])
    assert r.status_code == 201, r.text
    base = f"/api/tournaments/{r.json()['id']}"
    assert client.get(base).json()["listing"]["registration"] == "closed"
    r = client.post(f"{base}/register", json={}, headers=wang["headers"])
    assert r.status_code == 409 and "报名已截止" in r.json()["detail"] \
        and "closed" in r.json()["detail"]
    # A listing that does not say open leaves it closed.
    assert client.put(f"{base}/listing", json={"venue": "Hall C"},
                      headers=org["headers"]).status_code == 200
    assert client.post(f"{base}/register", json={}, headers=wang["headers"]).status_code == 409
    # A player cannot open it himself.
    assert client.put(f"{base}/listing", json={"registration": "open"},
                      headers=wang["headers"]).status_code == 403
    assert client.post(f"{base}/register", json={}, headers=wang["headers"]).status_code == 409
    # The organiser opens it: now a player may enter himself.
    assert client.put(f"{base}/listing", json={"registration": "open"},
                      headers=org["headers"]).status_code == 200
    r = client.post(f"{base}/register", json={}, headers=li["headers"])
    assert r.status_code == 201, r.text
    assert [p["name"] for p in client.get(base).json()["players"]] == ["li"]
