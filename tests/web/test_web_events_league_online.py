"""The 2021 league per team board played on the server (issue 33 item 1;
seed 001: "每台对阵必须分出胜负" -- a slow game; if drawn a rapid game with
colours swapped (换先); if drawn again a deciding game whose colours the
rapid game's Black chooses).  Every game after the slow one is made a
server game as the one before ends, as a knock-out's series games are:
the rapid game with swapped colours under the rapid clock, the colour
choice asked of the rapid game's Black only, then the decider under its
clock with the chosen colours; the board and match results come from the
games; an arbiter can still enter any game by hand."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.competition import CompetitionError
from qisai.store import repo
from qisai.store.models import Role
from qisai.web.events.server_games import league_time


def organiser(client: TestClient, register: Any) -> dict[str, Any]:
    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    return org


def league(client: TestClient, register: Any, boards: int = 2, system: str = "team_round_robin"
           ) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A two-team league event whose players all have accounts; returns the
    API base, the organiser and the players' sessions by name."""
    org = organiser(client, register)
    players = {n: register(client, n) for n in
               (f"{team}{k}" for team in ("jia", "yi") for k in range(1, boards + 1))}
    body: dict[str, Any] = {"name": "象甲联赛", "system": system, "boards": boards,
                            "series": "league_2021",
                            "times": {"slow": "1200", "rapid": "300+3"}}
    if system == "team_swiss":
        body["rounds"] = 1
    ev = client.post("/api/tournaments", json=body, headers=org["headers"]).json()
    base = f"/api/tournaments/{ev['id']}"
    for team, prefix in (("甲", "jia"), ("乙", "yi")):
        members = [{"username": f"{prefix}{k}"} for k in range(1, boards + 1)]
        assert client.post(f"{base}/teams", json={"name": team, "members": members},
                           headers=org["headers"]).status_code == 201
    client.post(f"{base}/start", headers=org["headers"])
    client.post(f"{base}/rounds", headers=org["headers"])
    return base, org, players


def board_of(client: TestClient, base: str, board: int) -> dict[str, Any]:
    found: dict[str, Any] = client.get(base).json()["rounds"][0]["matches"][0]["boards"][
        board - 1]
    return found


def game(client: TestClient, gid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{gid}").json()
    return found


def stored_time(client: TestClient, gid: str) -> Any:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        return repo.get_game(s, gid).settings.get("time")


def agree_draw(client: TestClient, gid: str, heads: dict[int, dict[str, str]]) -> None:
    """Red plays 炮二平五 and offers a draw; Black accepts (23.1)."""
    g = game(client, gid)
    red, black = g["players"]["first"]["id"], g["players"]["second"]["id"]
    act = f"/api/games/{gid}/actions"
    assert client.post(act, json={"type": "move", "ply": 1, "move": "h2e2"},
                       headers=heads[red]).status_code == 200
    assert client.post(act, json={"type": "offer_draw"}, headers=heads[red]).status_code == 200
    assert client.post(act, json={"type": "accept_draw"},
                       headers=heads[black]).status_code == 200
    assert game(client, gid)["result"]["outcome"] == "draw"


@pytest.mark.parametrize("system", ["team_round_robin", "team_swiss"])
def test_league_board_plays_rapid_and_decider_on_the_server(register: Any, client: TestClient,
                                                            system: str) -> None:
    base, org, players = league(client, register, boards=1, system=system)
    uid = {n: p["user"]["id"] for n, p in players.items()}
    heads = {p["user"]["id"]: p["headers"] for p in players.values()}
    bd = board_of(client, base, 1)
    red, black = bd["red"], bd["black"]  # 13.2: the first-listed team has Red on board 1
    slow = bd["game"]
    assert slow and bd["next"]["kind"] == "slow" and bd["next"]["server"] == slow
    g = game(client, slow)
    assert (g["players"]["first"]["id"], g["players"]["second"]["id"]) == (uid[red], uid[black])
    assert stored_time(client, slow) == {"minutes": 20.0, "increment": 0.0}  # "1200": 20 min
    agree_draw(client, slow, heads)

    # the slow game drawn: a rapid server game, colours swapped, the rapid clock
    bd = board_of(client, base, 1)
    assert [(x["kind"], x["result"], x["server"]) for x in bd["games"]] == [
        ("slow", "=-=", slow)]
    assert bd["result"] is None and bd["next"]["kind"] == "rapid"
    rapid = bd["next"]["server"]
    assert rapid and rapid != slow and bd["game"] == rapid
    g = game(client, rapid)
    assert (g["players"]["first"]["id"], g["players"]["second"]["id"]) == (uid[black], uid[red])
    assert stored_time(client, rapid) == {"minutes": 5.0, "increment": 3.0}  # "300+3"
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        place = repo.get_game(s, rapid).settings["in_event"]
    assert place["Round"] == "1.1.2" and place["Board"] == "1"
    team = {n: "甲" if n.startswith("jia") else "乙" for n in (red, black)}
    assert (place["RedTeam"], place["BlackTeam"]) == (team[black], team[red])  # swapped too
    agree_draw(client, rapid, heads)

    # drawn again: the choice is the rapid game's Black's (the board's Red) only
    bd = board_of(client, base, 1)
    assert bd["chooser"] == red and bd["chooser_user"] == uid[red]
    assert bd["next"] is None and bd["game"] == rapid  # no decider before the choice
    colour = f"{base}/rounds/1/matches/1/boards/1/colour"
    stranger = register(client, "zz")
    assert client.post(colour, json={"red": black}).status_code == 401
    for who in (players[black], stranger):
        r = client.post(colour, json={"red": black}, headers=who["headers"])
        assert r.status_code == 403 and red in r.json()["detail"]
    page = client.get(f"/tournaments/{base.rsplit('/', 1)[1]}", headers=players[red]["headers"])
    assert 'boards/1/colour"' in page.text
    other = client.get(f"/tournaments/{base.rsplit('/', 1)[1]}",
                       headers=players[black]["headers"])
    assert 'data-choice="1"' in other.text and 'boards/1/colour"' not in other.text
    ev = client.post(colour, json={"red": black}, headers=players[red]["headers"]).json()
    assert client.post(colour, json={"red": red},
                       headers=players[red]["headers"]).status_code == 409  # made, final

    # the decider: the chosen colours (the chooser takes Black), its own clock
    bd = ev["rounds"][0]["matches"][0]["boards"][0]
    assert bd["next"]["kind"] == "decider" and (bd["next"]["red"], bd["next"]["black"]) == (
        black, red)
    decider = bd["next"]["server"]
    assert decider and decider not in (slow, rapid)
    g = game(client, decider)
    assert (g["players"]["first"]["id"], g["players"]["second"]["id"]) == (uid[black], uid[red])
    assert stored_time(client, decider) == {"scheme": "6.4"}  # 30 moves in every 5 min
    # the decider's Red resigns: the chooser (the board's Red) wins the board
    assert client.post(f"/api/games/{decider}/actions", json={"type": "resign"},
                       headers=heads[uid[black]]).status_code == 200
    ev = client.get(base).json()
    m = ev["rounds"][0]["matches"][0]
    bd = m["boards"][0]
    assert [(x["kind"], x["red"], x["result"]) for x in bd["games"]] == [
        ("slow", red, "=-="), ("rapid", black, "=-="), ("decider", black, "0-1")]
    assert bd["games"][2]["chosen_by"] == red
    assert bd["result"] == "1-0" and bd["next"] is None  # the board's Red took the series
    assert m["complete"] and m["board_points"] == [1.0, 0.0] and m["match_points"] == [2, 0]
    assert [x["action"] for x in ev["log"]].count("server") == 3
    # 14.2: the match's winner takes 2 match points
    assert ev["standings"][0]["name"] == team[red] and ev["standings"][0]["points"] == 2


def test_arbiter_enters_league_games_by_hand_and_chooses_for_a_player(
        register: Any, client: TestClient) -> None:
    base, org, players = league(client, register, boards=2)
    h = org["headers"]
    url = f"{base}/rounds/1/matches/1/boards/2"
    bd = board_of(client, base, 2)
    red, black, slow = bd["red"], bd["black"], bd["game"]
    assert slow
    # a result entered over the board ends the game in play and makes the next one
    client.put(url, json={"result": "="}, headers=h)
    assert game(client, slow)["result"]["outcome"] == "draw"
    bd = board_of(client, base, 2)
    rapid = bd["next"]["server"]
    assert bd["next"]["kind"] == "rapid" and rapid and rapid != slow
    assert game(client, rapid)["status"] != "finished"
    client.put(url, json={"result": "="}, headers=h)
    assert game(client, rapid)["result"]["outcome"] == "draw"
    assert [x["server"] for x in board_of(client, base, 2)["games"]] == [slow, rapid]
    # an arbiter chooses for the player (over the board); a player of the other
    # board may not
    colour = f"{url}/colour"
    assert client.post(colour, json={"red": red},
                       headers=players["jia1"]["headers"]).status_code == 403
    ev = client.post(colour, json={"red": red}, headers=h).json()
    assert f"for {red}" in ev["log"][-1]["what"]
    bd = ev["rounds"][0]["matches"][0]["boards"][1]
    decider = bd["next"]["server"]
    assert decider and (bd["next"]["red"], bd["next"]["black"]) == (red, black)
    # the decider entered by hand (the board's Red wins): it ends on the server too
    ev = client.put(url, json={"result": "1-0"}, headers=h).json()
    assert game(client, decider)["result"]["winner"] == "first"
    bd = ev["rounds"][0]["matches"][0]["boards"][1]
    assert bd["result"] == "1-0" and [x["kind"] for x in bd["games"]] == [
        "slow", "rapid", "decider"]
    # the server's end of the ruled games counted nothing a second time
    assert [x["action"] for x in ev["log"]].count("server") == 0
    assert len(bd["games"]) == 3


def test_league_times_the_server_cannot_play_are_refused(register: Any,
                                                         client: TestClient) -> None:
    # 6.3 and 6.4 (the rapid and deciding defaults) are the rule book's schemes
    assert league_time("40/600:30/300") == {"scheme": "6.3"}
    assert league_time("30/300") == {"scheme": "6.4"}
    assert league_time("40/5400:10/900") == {"scheme": "6.1"}
    assert league_time("none") is None
    assert league_time("300 chinese 3")["byoyomi"] == {"kind": "chinese", "periods": 3,
                                                        "seconds": 60.0, "moves": 1}
    with pytest.raises(CompetitionError, match="6.1-6.4"):
        league_time("40/600:20/300")
    org = organiser(client, register)
    body = {"name": "L", "system": "team_round_robin", "boards": 2, "series": "league_2021",
            "times": {"rapid": "40/600:20/300"}}
    r = client.post("/api/tournaments", json=body, headers=org["headers"])
    assert r.status_code == 422 and "times.rapid" in r.json()["detail"]
    # played over the board only, any control the desk can keep is taken
    r = client.post("/api/tournaments", json={**body, "online": False}, headers=org["headers"])
    assert r.status_code == 201


def test_a_forfeited_match_ends_the_rapid_game_in_play(register: Any,
                                                       client: TestClient) -> None:
    base, org, players = league(client, register, boards=1)
    heads = {p["user"]["id"]: p["headers"] for p in players.values()}
    bd = board_of(client, base, 1)
    agree_draw(client, bd["game"], heads)
    rapid = board_of(client, base, 1)["next"]["server"]
    assert game(client, rapid)["result"] is None
    # 21.4: the first-listed team wins the match by forfeit; its board-1 player has
    # Red on the board (13.2) and so Black in the rapid game, which he wins
    r = client.put(f"{base}/rounds/1/matches/1/forfeit",
                   json={"result": "+--", "reason": "乙队未到场"}, headers=org["headers"])
    assert r.status_code == 200, r.text
    res = game(client, rapid)["result"]
    assert res["winner"] == "second" and res["pgn"] == "0-1"
    ev = client.get(base).json()
    m = ev["rounds"][0]["matches"][0]
    assert m["forfeit"] == "+--" and m["complete"]
    assert ev["standings"][0]["name"] == m["red_team"] and ev["standings"][0]["points"] == 2
