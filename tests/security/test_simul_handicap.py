"""Issue 31 item 3: an entrant does not choose his own handicap in a simul.
Only the display's host or organiser sets an entrant's stones
(``PUT /api/simuls/{id}/handicap``); an entrant naming a handicap when he
joins is refused, and so is his own try at the host's route."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def test_only_the_host_or_organiser_sets_a_simul_handicap(client: TestClient,
                                                          register: Any) -> None:
    org, a, b = (register(client, n) for n in ("org", "amateur", "outsider"))
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    r = client.post("/api/simuls", headers=org["headers"],
                    json={"name": "Rated 9x9", "game": "go", "size": 9, "rated": True,
                          "handicap": 0, "max_boards": 2})
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    # The entrant's own stones: refused, and he is not entered with them.
    r = client.post(f"/api/simuls/{sid}/join", json={"handicap": 9}, headers=a["headers"])
    assert r.status_code == 403 and "让子" in r.json()["detail"] \
        and "host or the organiser" in r.json()["detail"]
    assert client.get(f"/api/simuls/{sid}").json()["entrants"] == []
    r = client.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"])
    assert r.status_code == 200, r.text
    key = r.json()["my_entrant"]
    # Nor may he, or anyone but the host and the organiser, set it afterwards.
    for who in (a, b):
        r = client.put(f"/api/simuls/{sid}/handicap", json={"entrant": key, "handicap": 9},
                       headers=who["headers"])
        assert r.status_code == 403 and "only the host" in r.json()["detail"]
    assert client.get(f"/api/simuls/{sid}").json()["entrants"][0]["handicap"] is None
    assert client.put(f"/api/simuls/{sid}/handicap", json={"entrant": key, "handicap": 2}
                      ).status_code == 401
    r = client.put(f"/api/simuls/{sid}/handicap", json={"entrant": key, "handicap": 2},
                   headers=org["headers"])
    assert r.status_code == 200, r.text
    assert r.json()["entrants"][0]["handicap"] == 2
    # Joining and leaving again and again: twenty a minute an account.
    codes = [client.post(f"/api/simuls/{sid}/{'join' if i % 2 == 0 else 'leave'}", json={},
                         headers=b["headers"]).status_code for i in range(21)]
    assert codes == [200] * 20 + [429]
    # Guests of one address share that limit (a new guest is one click away).
    r = client.post("/api/simuls", headers=org["headers"], json={"name": "Open to guests"})
    open_sid = r.json()["id"]
    codes = []
    for i in range(21):
        if i % 5 == 0:  # a fresh guest session now and then
            form = client.get("/api/auth/csrf").json()["csrf"]
            guest = client.post("/api/auth/guest", headers={"X-CSRF-Token": form}).json()
            client.cookies.clear()
        codes.append(client.post(f"/api/simuls/{open_sid}/{'join' if i % 2 == 0 else 'leave'}",
                                 json={}, headers={"Authorization": f"Bearer {guest['token']}"}
                                 ).status_code)
    assert codes[-1] == 429 and codes.count(429) == 1, codes
    # The game has the host's two stones, not the entrant's nine, and is rated.
    r = client.post(f"/api/simuls/{sid}/start", headers=org["headers"])
    assert r.status_code == 200, r.text
    gid = r.json()["boards"][0]["game_id"]
    game = client.get(f"/api/games/{gid}").json()
    assert sum(line.count("b") for line in game["position"]["grid"]) == 2
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        assert repo.get_game(s, gid).rated
    r = client.put(f"/api/simuls/{sid}/handicap", json={"entrant": key, "handicap": 3},
                   headers=org["headers"])
    assert r.status_code == 409 and "started" in r.json()["detail"]
