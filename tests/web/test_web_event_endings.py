"""The lifecycle of an event's server games (issue 14 "Also", issue 17 item 6).

* An event says whether its boards are played on the server (server games
  with clocks for boards between two accounts) or over the board (no server
  game; the arbiters enter the results).
* Whatever decides a board ends its server game in play with that ruling,
  so that no game of a decided board stays ``active``: a withdrawal (20.3,
  20.4: 未赛对局均作弃权，对方获胜 - the unfinished game of the current round
  is a forfeit, the opponent winning), a forfeited team match (21.4: the
  present team's players win their boards), a knock-out match decided by
  the arbiter (the match's winner wins the game in play) and a result
  entered by hand (17.5).

Each check reads the game through the API as any client would: its status,
its result with the clause, its clocks, and whether the loser may still move.

Run on SQLite, and on PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def organiser(client: TestClient, register: Any) -> dict[str, Any]:
    org: dict[str, Any] = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    return org


def event(client: TestClient, h: dict[str, str], **body: Any) -> str:
    r = client.post("/api/tournaments", json={"name": "Club", "time": {"minutes": 10}, **body},
                    headers=h)
    assert r.status_code == 201, r.text
    return f"/api/tournaments/{r.json()['id']}"


def game(client: TestClient, gid: str) -> dict[str, Any]:
    g: dict[str, Any] = client.get(f"/api/games/{gid}").json()
    return g


def active_ids(client: TestClient) -> set[str]:
    return {g["id"] for g in client.get("/api/games?status=active").json()}


def assert_ended(client: TestClient, gid: str, pgn: str, clause: str,
                 loser: dict[str, Any]) -> None:
    """The game is over with the ruling ``pgn`` under ``clause``: clocks
    stopped, the loser may not move, not listed among the games in play."""
    g = game(client, gid)
    assert g["status"] == "finished", g
    assert g["result"]["pgn"] == pgn and g["result"]["reason"] == "adjudication"
    assert g["result"]["clause"] == clause
    assert g["clocks"] is None or g["clocks"]["running"] is None
    move = "h2e2" if g["ply"] % 2 == 0 else "h7e7"
    r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": g["ply"] + 1,
                                                       "move": move},
                    headers=loser["headers"])
    assert r.status_code in (403, 409), r.text
    assert gid not in active_ids(client)


def test_over_the_board_events_make_no_server_games(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    people = {n: register(client, n) for n in ("wa", "wb")}
    h = org["headers"]
    for online, has_game in ((False, False), (True, True)):
        base = event(client, h, system="round_robin", online=online)
        assert client.get(base).json()["online"] is online
        for n in people:
            assert client.post(f"{base}/entries", json={"username": n},
                               headers=h).status_code == 201
        client.post(f"{base}/start", headers=h)
        (board,) = client.post(f"{base}/rounds", headers=h).json()["rounds"][0]["boards"]
        assert bool(board["game"]) is has_game, board
        if not online:
            # over the board: the arbiter's entry is the result, no game is left in play
            before = active_ids(client)
            ev = client.put(f"{base}/rounds/1/boards/1", json={"result": "1-0"},
                            headers=h).json()
            assert ev["rounds"][0]["boards"][0]["result"] == "1-0"
            assert active_ids(client) == before
    # the event's form offers the choice
    page = client.get("/tournaments", headers=h).text
    assert '<select name="online">' in page and 'value="otb"' in page


def test_withdrawal_ends_the_players_game_as_a_forfeit(register: Any,
                                                      client: TestClient) -> None:
    org = organiser(client, register)
    people = {n: register(client, n) for n in ("w1", "w2", "w3", "w4")}
    h = org["headers"]
    base = event(client, h, system="round_robin")
    for n in people:
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    boards = client.post(f"{base}/rounds", headers=h).json()["rounds"][0]["boards"]
    first, second = boards
    assert first["game"] and second["game"]
    # one move on the board, then Red withdraws: 20.4, his unfinished game
    # is a forfeit and Black wins it
    gone = first["red_name"]
    r = client.post(f"/api/games/{first['game']}/actions",
                    json={"type": "move", "ply": 1, "move": "h2e2"},
                    headers=people[gone]["headers"])
    assert r.status_code == 200, r.text
    r = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "ill"}, headers=h)
    assert r.status_code == 200, r.text
    ev = r.json()
    assert ev["rounds"][0]["boards"][0]["result"] == "--+"
    assert "withdrew after round 0" in ev["log"][-1]["what"]
    assert_ended(client, first["game"], "0-1", "20.4", people[gone])
    # the other board plays on
    assert game(client, second["game"])["status"] == "active"
    assert second["game"] in active_ids(client)
    # a withdrawal whose board has its result leaves the result as it is
    client.put(f"{base}/rounds/1/boards/2", json={"result": "="}, headers=h)
    r = client.post(f"{base}/withdrawals", json={"name": second["red_name"], "reason": "left"},
                    headers=h)
    assert r.status_code == 200
    assert r.json()["rounds"][0]["boards"][1]["result"] == "=-="
    assert "withdrew after round 1" in r.json()["log"][-1]["what"]


def test_group_withdrawal_ends_the_game(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    people = {n: register(client, n) for n in ("ga", "gb", "gc", "gd")}
    h = org["headers"]
    base = event(client, h, system="group_round_robin", groups=2, advance=1)
    for n in people:
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    b = client.post(f"{base}/rounds", headers=h).json()["rounds"][0]["boards"][0]
    gone = b["black_name"]
    r = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "ill"}, headers=h)
    assert r.status_code == 200, r.text
    assert_ended(client, b["game"], "1-0", "20.4", people[gone])


def test_knockout_withdrawal_and_decision_end_the_series_game(register: Any,
                                                              client: TestClient) -> None:
    org = organiser(client, register)
    people = {n: register(client, n) for n in ("k1", "k2", "k3", "k4")}
    h = org["headers"]
    base = event(client, h, system="knockout", series="two_games")
    for n in people:
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    m1, m2 = client.post(f"{base}/rounds", headers=h).json()["rounds"][0]["matches"]
    n1, n2 = m1["next"], m2["next"]  # the series games due (game 1 of each)
    g1, g2 = n1["server"], n2["server"]
    assert g1 and g2, (m1, m2)
    # 20.4: Red of match 1's game withdraws; the match goes to the opponent,
    # and so does the game
    gone = n1["red_name"]
    r = client.post(f"{base}/withdrawals", json={"name": gone, "reason": "ill"}, headers=h)
    assert r.status_code == 200, r.text
    assert_ended(client, g1, "0-1", "20.4", people[gone])
    # match 2 decided by the arbiter for Black (e.g. Red's misconduct): the game ends so
    r = client.post(f"{base}/rounds/1/matches/2/decision",
                    json={"winner": n2["black"], "reason": "misconduct of Red"}, headers=h)
    assert r.status_code == 200, r.text
    assert_ended(client, g2, "0-1", "17.5", people[n2["red_name"]])
    assert not any(g in active_ids(client) for g in (g1, g2))


def test_team_forfeit_ends_the_matchs_games(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    people = {n: register(client, n) for n in ("ta1", "ta2", "tb1", "tb2")}
    h = org["headers"]
    base = event(client, h, system="team_round_robin", boards=2, lineup_mode="fixed")
    for team, members in (("A", ["ta1", "ta2"]), ("B", ["tb1", "tb2"])):
        r = client.post(f"{base}/teams", json={"name": team, "members": [
            {"username": n} for n in members]}, headers=h)
        assert r.status_code == 201, r.text
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = [x for x in ev["rounds"][0]["matches"] if not x["bye"]]
    games = {b["board"]: b for b in m["boards"]}
    assert all(b["game"] for b in games.values()), m
    # 21.4: the first-listed team is absent; the other team's players win
    # their boards, whatever their colour (the first-listed team has Red on
    # odd boards, 13.2)
    r = client.put(f"{base}/rounds/1/matches/{m['match']}/forfeit",
                   json={"result": "--+", "reason": "first team absent"}, headers=h)
    assert r.status_code == 200, r.text
    absent = {n for n in people if n[:2] == ("ta" if m["red_team"] == "A" else "tb")}
    for b in games.values():
        red_absent = b["red"] in absent
        loser = people[b["red"] if red_absent else b["black"]]
        assert_ended(client, b["game"], "0-1" if red_absent else "1-0", "21.4", loser)


def test_team_withdrawal_ends_its_matchs_games(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    people = {n: register(client, n) for n in ("wa1", "wa2", "wb1", "wb2")}
    h = org["headers"]
    base = event(client, h, system="team_swiss", rounds=2, boards=2, lineup_mode="fixed")
    for team, members in (("A", ["wa1", "wa2"]), ("B", ["wb1", "wb2"])):
        r = client.post(f"{base}/teams", json={"name": team, "members": [
            {"username": n} for n in members]}, headers=h)
        assert r.status_code == 201, r.text
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = [x for x in ev["rounds"][0]["matches"] if not x["bye"]]
    # team A withdraws during the match (20.4): the match is forfeited to B,
    # and B's players win the games still in play, whatever their colour
    r = client.post(f"{base}/withdrawals", json={"name": "A", "reason": "bus broke down"},
                    headers=h)
    assert r.status_code == 200, r.text
    assert "forfeited to B" in r.json()["log"][-1]["what"]
    for b in m["boards"]:
        red_gone = b["red"] in ("wa1", "wa2")
        loser = people[b["red"] if red_gone else b["black"]]
        assert_ended(client, b["game"], "0-1" if red_gone else "1-0", "20.4", loser)
