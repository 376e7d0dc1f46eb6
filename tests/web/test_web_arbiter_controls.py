"""Who sees the arbiter's controls on a game page, and who may use them
(issue 14 items 1 and 7).

An event's game is ruled on by the event's staff (16.2: its organisers, its
chief arbiter 裁判长 and the arbiters they appoint), never by one of its
players even when he is on the staff (17.4: the arbiter rules impartially);
a casual game by the site's arbiters and administrators.  The page shows
the controls exactly to those the server lets act (403 for everyone else).

Run on SQLite, and on PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def make_role(client: TestClient, user: dict[str, Any], role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user["user"]["id"], role)


def guest(client: TestClient) -> dict[str, Any]:
    form = client.get("/api/auth/csrf").json()["csrf"]
    g: dict[str, Any] = client.post("/api/auth/guest", headers={"X-CSRF-Token": form}).json()
    client.cookies.clear()
    g["headers"] = {"Authorization": f"Bearer {g['token']}"}
    return g


def controls(client: TestClient, gid: str, who: dict[str, Any] | None) -> bool:
    """Whether the game page shows ``who`` (``None``: anonymous) the controls."""
    r = client.get(f"/games/{gid}", headers=who["headers"] if who else {})
    assert r.status_code == 200, r.text
    return 'id="arbiter"' in r.text


def act(client: TestClient, who: dict[str, Any] | None, gid: str, **action: Any) -> Any:
    return client.post(f"/api/games/{gid}/actions", json=action,
                       headers=who["headers"] if who else {})


def test_event_game_controls_follow_the_events_staff(register: Any,
                                                     client: TestClient) -> None:
    people = {n: register(client, n) for n in ("org", "chief", "arb", "wang", "li", "rival",
                                               "sitearb", "admin2", "fan")}
    make_role(client, people["org"], Role.ORGANISER)
    make_role(client, people["rival"], Role.ORGANISER)
    make_role(client, people["sitearb"], Role.ARBITER)
    make_role(client, people["admin2"], Role.ADMIN)
    h = people["org"]["headers"]
    ev = client.post("/api/tournaments", json={"name": "Club", "system": "round_robin",
                                               "time": {"minutes": 10}}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name, role in (("chief", "chief_arbiter"), ("arb", "arbiter"), ("wang", "arbiter")):
        r = client.post(f"{base}/staff", json={"username": name, "role": role}, headers=h)
        assert r.status_code == 200, r.text
    for name in ("wang", "li"):
        assert client.post(f"{base}/entries", json={"username": name},
                           headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    gid = client.post(f"{base}/rounds", headers=h).json()["rounds"][0]["boards"][0]["game"]
    assert gid, "both players have accounts: the board is played on the server"
    g = guest(client)
    # the event's staff see the controls; an administrator may do what its
    # organisers may (staff.py), so he does too
    for name in ("org", "chief", "arb", "admin2"):
        assert controls(client, gid, people[name]), name
    # never a player (wang is on the staff but plays: 17.4), nor anyone else:
    # another event's organiser, a site arbiter on no staff, a spectator
    outsiders = [people[n] for n in ("wang", "li", "rival", "sitearb", "fan")] + [g]
    for who in [*outsiders, None]:
        assert not controls(client, gid, who), who and who["user"]["username"]
    # ... and the server refuses them what the page does not offer
    foul = {"type": "foul", "side": "first", "clause": "9.1", "note": "touch-move"}
    assert act(client, None, gid, **foul).status_code == 401
    for who in outsiders:
        r = act(client, who, gid, **foul)
        assert r.status_code == 403, (who["user"]["username"], r.text)
    r = act(client, people["wang"], gid, **foul)
    assert "17.4" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["rulings"] == []
    # while those who see them may use them
    assert act(client, people["org"], gid, **foul).status_code == 200
    r = act(client, people["chief"], gid, type="foul", side="second", clause="9.1")
    assert r.status_code == 200, r.text
    r = act(client, people["arb"], gid, type="adjudicate", outcome="draw",
            reason="adjudication", clause="17.5")
    assert r.status_code == 200, r.text
    st = client.get(f"/api/games/{gid}").json()
    assert [x["kind"] for x in st["rulings"]] == ["foul", "foul"]
    assert st["result"]["pgn"] == "1/2-1/2" and st["result"]["clause"] == "17.5"


def test_casual_game_controls_for_site_arbiters_not_organisers(register: Any,
                                                               client: TestClient) -> None:
    red, black, org, arb = (register(client, n) for n in ("hong", "hei", "zuzhi", "caipan"))
    make_role(client, org, Role.ORGANISER)
    make_role(client, arb, Role.ARBITER)
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first",
                                        "time": {"minutes": 10}}, headers=red["headers"])
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    assert controls(client, gid, arb)
    # an organiser as such rules on no game: no controls, and 403
    assert not controls(client, gid, org)
    r = act(client, org, gid, type="foul", side="first", clause="9.1")
    assert r.status_code == 403 and "arbiter role" in r.json()["detail"]
    assert act(client, arb, gid, type="foul", side="first", clause="9.1").status_code == 200
