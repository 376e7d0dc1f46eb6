"""Issue 31 item 1: a member of an event's staff who plays in it takes no
staff action that changes the result, pairing or standing of a game he
plays in or of the player he is paired against: he cannot withdraw his own
opponent (nor himself) and so win, nor set the line-ups of a team match he
plays in.  Another arbiter, or another organiser, does it, and the log
names him (17.4: the arbiter rules impartially)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def test_playing_staff_cannot_withdraw_his_opponent_or_line_up_his_match(
        client: TestClient, register: Any) -> None:
    org, arb, arb2, li, zhao, qian = (register(client, n) for n in
                                      ("org", "arb", "arb2", "li", "zhao", "qian"))
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    h = org["headers"]
    r = client.post("/api/tournaments", json={"name": "Club Swiss", "system": "swiss",
                                              "rounds": 3, "time": {"minutes": 10}}, headers=h)
    assert r.status_code == 201, r.text
    base = f"/api/tournaments/{r.json()['id']}"
    for name in ("arb", "arb2"):
        assert client.post(f"{base}/staff", json={"username": name},
                           headers=h).status_code == 200
    for name in ("arb", "li", "zhao", "qian"):  # arb arbitrates, and plays
        assert client.post(f"{base}/entries", json={"username": name},
                           headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    boards = client.post(f"{base}/rounds", headers=h).json()["rounds"][0]["boards"]
    (mine,) = [b for b in boards if "arb" in (b["red_name"], b["black_name"])]
    (other,) = [b for b in boards if b is not mine]
    opponent = mine["black_name"] if mine["red_name"] == "arb" else mine["red_name"]
    assert mine["game"]
    # His opponent, or himself: refused, with the clause, and nothing changes.
    for name in (opponent, "arb"):
        r = client.post(f"{base}/withdrawals", json={"name": name, "reason": "did not come"},
                        headers=arb["headers"])
        assert r.status_code == 403 and "17.4" in r.json()["detail"], r.text
    assert client.get(f"/api/games/{mine['game']}").json()["status"] == "active"
    assert client.get(base).json()["log"][-1]["action"] != "withdrawal"
    # Another arbiter of the event does it, and the log says who.
    r = client.post(f"{base}/withdrawals", json={"name": opponent, "reason": "did not come"},
                    headers=arb2["headers"])
    assert r.status_code == 200, r.text
    assert r.json()["log"][-1] | {"by": "arb2", "action": "withdrawal"} == r.json()["log"][-1]
    assert client.get(f"/api/games/{mine['game']}").json()["status"] == "finished"
    # A board he neither plays on nor was paired against: his to rule on.
    r = client.post(f"{base}/withdrawals", json={"name": other["red_name"], "reason": "ill"},
                    headers=arb["headers"])
    assert r.status_code == 200, r.text
    assert r.json()["log"][-1]["by"] == "arb"

    # A team match's line-ups are its pairing of boards: not by an organiser
    # who plays in it; by another organiser of the event.
    r = client.post("/api/tournaments", json={"name": "Clubs", "system": "team_round_robin",
                                              "boards": 2, "lineup_mode": "substitutes",
                                              "publish": "manual"}, headers=h)
    tbase = f"/api/tournaments/{r.json()['id']}"
    assert client.post(f"{tbase}/staff", json={"username": "arb2", "role": "organiser"},
                       headers=h).status_code == 200
    rosters = {"Red Star": [{"username": "org"}, {"name": "R2"}, {"name": "R3"}],
               "Blue Sky": [{"username": "li"}, {"name": "B2"}, {"name": "B3"}]}
    for team, members in rosters.items():
        assert client.post(f"{tbase}/teams", json={"name": team, "members": members},
                           headers=h).status_code == 201
    assert client.post(f"{tbase}/start", headers=h).status_code == 200
    (m1,) = client.post(f"{tbase}/rounds", headers=h).json()["rounds"][0]["matches"]
    url = f"{tbase}/rounds/1/matches/{m1['match']}/lineups"
    red, black = m1["lineups"]
    swapped = {"red": [red[0], "R3"], "black": list(black)}  # the reserve on board 2 (12.2)
    if m1["red_team"] != "Red Star":
        swapped = {"red": list(red), "black": [black[0], "R3"]}
    r = client.put(url, json=swapped, headers=h)
    assert r.status_code == 403 and "17.4" in r.json()["detail"], r.text
    r = client.put(url, json=swapped, headers=arb2["headers"])
    assert r.status_code == 200, r.text
    assert r.json()["log"][-1]["by"] == "arb2"
