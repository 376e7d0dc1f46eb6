"""Issue 31 item 2: nobody is enlisted without his consent.  Naming other
accounts as a team's members, as a consultation group's members or as a
simul's host makes an invitation: each appears only once he accepts, can
decline (or leave what he did not choose), and until then the public
records (the event, the game's record, the simul and their pages) do not
name him."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def test_naming_others_only_invites_them(client: TestClient, register: Any) -> None:
    org, griefer, victim, other, admin, opp = (register(client, n) for n in (
        "org", "griefer", "victim", "other", "boss", "opp"))
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
        repo.set_role(s, admin["user"]["id"], Role.ADMIN)

    # A team registered from the calendar, naming two other accounts.
    r = client.post("/api/tournaments", json={"name": "Team cup", "system": "team_round_robin",
                                              "boards": 2}, headers=org["headers"])
    base = f"/api/tournaments/{r.json()['id']}"
    client.put(f"{base}/listing", json={"registration": "open"}, headers=org["headers"])
    grief = {"team": {"name": "Griefers", "members": ["griefer", "victim", "other"]}}
    assert client.post(f"{base}/register", json=grief,
                       headers=griefer["headers"]).status_code == 201
    event = client.get(base)
    assert event.json()["teams"] == [] and "victim" not in event.text
    assert "victim" not in client.get(f"/tournaments/{r.json()['id']}").text
    again = {"team": {"name": "Griefers 2", "members": ["griefer", "opp", "boss"]}}
    r = client.post(f"{base}/register", json=again, headers=griefer["headers"])
    assert r.status_code == 409 and "waiting" in r.json()["detail"]  # one at a time
    assert client.get(f"{base}/invitations").status_code == 401
    assert client.post(f"{base}/invitations/answer",
                       json={"team": "Griefers", "accept": True}).status_code == 401
    mine = client.get(f"{base}/invitations", headers=victim["headers"]).json()
    assert [(i["team"], i["by_you"], i["answered"]) for i in mine] == [("Griefers", False, False)]
    r = client.post(f"{base}/invitations/answer", json={"team": "Griefers", "accept": True},
                    headers=opp["headers"])
    assert r.status_code == 403  # not named: no say
    # The named players are free: they register their own team.
    own = {"team": {"name": "Real", "members": ["victim", "other"]}}
    assert client.post(f"{base}/register", json=own, headers=victim["headers"]).status_code == 201
    assert client.post(f"{base}/invitations/answer", json={"team": "Real", "accept": True},
                       headers=other["headers"]).status_code == 200
    assert [t["name"] for t in client.get(base).json()["teams"]] == ["Real"]
    r = client.post(f"{base}/invitations/answer", json={"team": "Griefers", "accept": True},
                    headers=victim["headers"])
    assert r.status_code == 409 and "已报名" in r.json()["detail"]
    r = client.post(f"{base}/invitations/answer", json={"team": "Griefers", "accept": False},
                    headers=victim["headers"])
    assert r.status_code == 200
    assert client.get(f"{base}/invitations", headers=griefer["headers"]).json() == []
    # Registration spam: twenty registrations and answers a minute per account.
    codes = [client.post(f"{base}/register", json={}, headers=opp["headers"]).status_code
             for _ in range(21)]
    assert codes == [422] * 19 + [429, 429]  # opp answered once already

    # A consultation naming a victim and an administrator.
    ids = [griefer["user"]["id"], victim["user"]["id"], admin["user"]["id"]]
    r = client.post("/api/consultations", json={"members": ids, "color": "first"},
                    headers=griefer["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=opp["headers"]).status_code == 200
    record = client.get(f"/api/games/{gid}/record").text
    assert '[Red "griefer"]' in record and "victim" not in record and "boss" not in record
    assert client.get(f"/api/games/{gid}").json()["status"] in ("active", "waiting")
    assert client.get(f"/api/games/{gid}").json()["phase"] == "waiting"  # not before they answer
    r = client.post(f"/api/games/{gid}/group/votes", json={"ply": 1, "move": "h2e2"},
                    headers=victim["headers"])
    assert r.status_code == 403  # not a member until he accepts
    assert client.post(f"/api/games/{gid}/group/answer", json={"accept": True},
                       headers=opp["headers"]).status_code == 403
    assert client.post(f"/api/games/{gid}/group/answer", json={"accept": True},
                       headers=victim["headers"]).status_code == 200
    assert client.post(f"/api/games/{gid}/group/answer", json={"accept": False},
                       headers=admin["headers"]).status_code == 200
    state = client.get(f"/api/games/{gid}").json()
    assert state["phase"] == "playing"
    record = client.get(f"/api/games/{gid}/record").text
    assert '[Red "griefer、victim"]' in record and "boss" not in record
    assert client.post(f"/api/games/{gid}/group/votes", json={"ply": 1, "move": "h2e2"},
                       headers=admin["headers"]).status_code == 403

    assert client.post(f"/api/games/{gid}/group/answer", json={"accept": True}
                       ).status_code == 401
    # Consultations count as the creator's open seeks: no flood of them.
    codes = [client.post("/api/consultations", json={"members": ids[:2]},
                         headers=griefer["headers"]).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]

    # A simul whose organiser names another account as its host.
    r = client.post("/api/simuls", json={"name": "Named host", "host": "victim"},
                    headers=org["headers"])
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert r.json()["host_id"] == org["user"]["id"] and r.json()["host_invited"] is True
    listed = [x for x in client.get("/api/simuls").json() if x["id"] == sid]
    assert listed[0]["host_id"] == org["user"]["id"]
    assert "victim" not in client.get(f"/simuls/{sid}").text
    assert client.get(f"/api/simuls/{sid}", headers=victim["headers"]).json()["you"] \
        == "invited_host"
    assert client.post(f"/api/simuls/{sid}/host/accept",
                       headers=other["headers"]).status_code == 403
    assert client.post(f"/api/simuls/{sid}/host/accept").status_code == 401
    assert client.post(f"/api/simuls/{sid}/host/decline",
                       headers=victim["headers"]).status_code == 200
    shown = client.get(f"/api/simuls/{sid}").json()
    assert shown["host_id"] == org["user"]["id"] and shown["host_invited"] is False
    r = client.post("/api/simuls", json={"name": "Willing host", "host": "other"},
                    headers=org["headers"])
    sid = r.json()["id"]
    r = client.post(f"/api/simuls/{sid}/host/accept", headers=other["headers"])
    assert r.status_code == 200 and r.json()["host_id"] == other["user"]["id"]
    assert r.json()["you"] == "host"
