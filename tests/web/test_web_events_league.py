"""The 2021 league format per board of a team event in the arena (issue 33
item 1; seed 001: a slow game, if drawn a rapid game with colours swapped,
if drawn again a deciding game whose colours the rapid game's Black
chooses).  Who may choose: the chooser's account or an arbiter for him;
not the opponent, not a stranger."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def test_team_league_board_games_and_the_colour_choice(register: Any,
                                                       client: TestClient) -> None:
    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    a1, b1, stranger = register(client, "a1"), register(client, "b1"), register(client, "zz")
    h = org["headers"]
    body = {"name": "象甲", "system": "team_round_robin", "boards": 2,
            "series": "league_2021", "decider_drawn": "black",
            "times": {"slow": "1200", "rapid": "300+3"}}
    assert client.post("/api/tournaments", json={**body, "times": {"slow": {"x": 1}}},
                       headers=h).status_code == 422
    ev = client.post("/api/tournaments", json=body, headers=h).json()
    assert ev["board_series"] == "league_2021" and ev["decider_drawn"] == "black"
    assert ev["times"] == {"slow": "1200", "rapid": "300+3", "decider": "30/300"}
    base = f"/api/tournaments/{ev['id']}"
    client.post(f"{base}/teams", json={"name": "甲", "members": [
        {"username": "a1"}, {"name": "甲2"}]}, headers=h)
    client.post(f"{base}/teams", json={"name": "乙", "members": [
        {"username": "b1"}, {"name": "乙2"}]}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    m = ev["rounds"][0]["matches"][0]
    board1 = m["boards"][0]
    red, black = board1["red"], board1["black"]  # 13.2: the first-listed team Red on board 1
    url = f"{base}/rounds/1/matches/{m['match']}/boards/1"
    # the slow game is played on the server (both players have accounts)
    assert board1["next"].pop("server") == board1["game"] is not None
    assert board1["next"] == {"kind": "slow", "red": red, "black": black, "time": "1200"}
    ev = client.put(url, json={"result": "="}, headers=h).json()
    bd = ev["rounds"][0]["matches"][0]["boards"][0]
    assert bd["result"] is None and bd["next"]["kind"] == "rapid"
    assert (bd["next"]["red"], bd["next"]["black"]) == (black, red)  # 换先
    assert bd["next"]["time"] == "300+3"
    ev = client.put(url, json={"result": "="}, headers=h).json()
    bd = ev["rounds"][0]["matches"][0]["boards"][0]
    assert bd["chooser"] == red  # Black in the rapid game
    chooser = a1 if red == "a1" else b1
    other = b1 if chooser is a1 else a1
    colour = f"{url}/colour"
    assert client.put(url, json={"result": "1-0"}, headers=h).status_code == 422  # waits
    assert client.post(colour, json={"red": black}).status_code == 401
    assert client.post(colour, json={"red": black},
                       headers=stranger["headers"]).status_code == 403
    assert client.post(colour, json={"red": black},
                       headers=other["headers"]).status_code == 403
    assert client.post(colour, json={"red": "nobody"},
                       headers=chooser["headers"]).status_code == 422
    assert client.post(colour, json={"red": "x" * 201},
                       headers=chooser["headers"]).status_code == 422
    ev = client.post(colour, json={"red": black}, headers=chooser["headers"]).json()
    assert "chose" in ev["log"][-1]["what"]
    assert client.post(colour, json={"red": black},
                       headers=chooser["headers"]).status_code == 409
    bd = ev["rounds"][0]["matches"][0]["boards"][0]
    assert bd["next"].pop("server") == bd["game"] is not None  # the decider's server game
    assert bd["next"] == {"kind": "decider", "red": black, "black": red, "time": "30/300"}
    # the decider drawn: under the "black" reading its Black (the chooser) wins the board
    ev = client.put(url, json={"result": "="}, headers=h).json()
    bd = ev["rounds"][0]["matches"][0]["boards"][0]
    assert bd["result"] == "1-0" and bd["next"] is None  # the board's Red took the series
    assert [g["kind"] for g in bd["games"]] == ["slow", "rapid", "decider"]
    assert bd["games"][2]["chosen_by"] == red
    assert client.post(f"{base}/rounds/1/matches/{m['match']}/boards/2/colour",
                       json={"red": black}, headers=h).status_code == 409
    page = client.get(f"/tournaments/{ev['id']}").text  # the page shows the board's games
    assert f"附加赛（{red}选先后手，{black}执红）" in page and "执黑方胜" in page
    assert f"慢棋：{m['boards'][1]['red']}（红）" in page  # board 2's next game
