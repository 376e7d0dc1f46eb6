"""Events through the API: knock-outs (bracket, byes, series, the arbiter's
decision, server games of a series), team events (line-ups, board results,
match forfeits, 场分 standings and crosstable), publication of pairings,
corrections with a reason, withdrawals (20.2-20.4) and the role checks."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role
from tests.web.conftest import event_round, event_rounds


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def organiser(client: TestClient, register: Any, name: str = "org") -> dict[str, Any]:
    org = register(client, name)
    make_role(client, org["user"]["id"], Role.ORGANISER)
    return org


def test_knockout_bracket_byes_decision_correction_and_placings(register: Any,
                                                                 client: TestClient) -> None:
    org, player = organiser(client, register), register(client, "pawn")
    other_org = organiser(client, register, "rival")
    h = org["headers"]
    body = {"name": "Cup", "system": "knockout", "series": "single", "seeding": "rating"}
    assert client.post("/api/tournaments", json=body,
                       headers=player["headers"]).status_code == 403
    ev = client.post("/api/tournaments", json=body, headers=h).json()
    assert ev["family"] == "knockout" and ev["series"] == "single"
    base = f"/api/tournaments/{ev['id']}"
    for name, rating in (("A", 2400), ("B", 2300), ("C", 2200), ("D", 2100), ("E", 0)):
        assert client.post(f"{base}/entries", json={"name": name, "rating": rating},
                           headers=h).status_code == 201
    # another organiser may not run this event
    r = client.post(f"{base}/entries", json={"name": "F"}, headers=other_org["headers"])
    assert r.status_code == 403 and "organiser" in r.json()["detail"]
    ev = client.post(f"{base}/start", headers=h).json()
    assert [p["name"] for p in ev["players"]] == ["A", "B", "C", "D", "E"]  # seeded by rating
    ev = client.post(f"{base}/rounds", headers=h).json()
    r1 = ev["rounds"][0]["matches"]
    # 5 entries in a bracket of 8: seeds 1-3 have byes, 4 meets 5
    byes = sorted(m["red_name"] for m in r1 if m["black"] is None)
    assert byes == ["A", "B", "C"]
    (real,) = [m for m in r1 if m["black"] is not None]
    assert {real["red_name"], real["black_name"]} == {"D", "E"} and real["winner"] is None
    game = f"{base}/rounds/1/matches/{real['match']}/games/1"
    assert client.put(game, json={"result": "1-0"}, headers=player["headers"]).status_code == 403
    ev = client.put(game, json={"result": "="}, headers=h).json()
    real = ev["rounds"][0]["matches"][real["match"] - 1]
    assert real["winner"] is None and real["how"] == "drawn"  # one drawn game decides nothing
    blocked = client.post(f"{base}/rounds", headers=h)
    assert blocked.status_code == 409 and "not decided" in blocked.json()["detail"]
    decision = f"{base}/rounds/1/matches/{real['match']}/decision"
    r = client.post(decision, json={"winner": 99, "reason": "x"}, headers=h)
    assert r.status_code == 422
    ev = client.post(decision, json={"winner": real["black"], "reason": "won the armageddon"},
                     headers=h).json()
    real = ev["rounds"][0]["matches"][real["match"] - 1]
    assert real["winner"] == real["black"] and "armageddon" in real["how"]
    ev = client.post(f"{base}/rounds", headers=h).json()
    (latest,) = ev["rounds"]  # one round in detail: the latest (issue 29)
    assert latest["number"] == 2
    r2 = latest["matches"]
    assert len(r2) == 2 and all(m["black"] is not None for m in r2)
    # round 1 is closed now
    assert client.put(game, json={"result": "0-1", "reason": "late"},
                      headers=h).status_code == 409
    for m in r2:  # the higher seed (lower number) wins both semi-finals
        g1 = m["next"]  # the match's colours, drawn by lot at the pairing (13.4)
        res = "1-0" if g1["red"] < g1["black"] else "0-1"
        client.put(f"{base}/rounds/2/matches/{m['match']}/games/1", json={"result": res},
                   headers=h)
    # a correction needs a reason, and goes into the log with it
    m = r2[0]
    flip = "0-1" if m["next"]["red"] < m["next"]["black"] else "1-0"
    url = f"{base}/rounds/2/matches/{m['match']}/games/1"
    r = client.put(url, json={"result": flip}, headers=h)
    assert r.status_code == 422 and "reason" in r.json()["detail"]
    ev = client.put(url, json={"result": flip, "reason": "score sheet misread"}, headers=h).json()
    assert ev["log"][-1]["action"] == "correction"
    assert ev["log"][-1]["reason"] == "score sheet misread"
    assert event_round(client, base, 2)["matches"][0]["winner"] == max(m["red"], m["black"])
    ev = client.post(f"{base}/rounds", headers=h).json()
    assert ev["rounds"][0]["number"] == 3
    (final,) = ev["rounds"][0]["matches"]
    client.put(f"{base}/rounds/3/matches/1/games/1", json={"result": "1-0"}, headers=h)
    ev = client.get(base).json()
    assert ev["finished"] and ev["status"] == "finished"
    assert ev["champion"] == final["next"]["red_name"]
    places = [(p["place"], p["shared"]) for p in ev["placements"]]
    assert places == [(1, False), (2, False), (3, True), (3, True), (5, False)]
    assert ev["placements"][1]["name"] == final["next"]["black_name"]
    page = client.get(f"/tournaments/{ev['id']}")
    assert page.status_code == 200 and 'id="bracket"' in page.text
    assert f'<span id="champion">{ev["champion"]}</span>' in page.text


def test_knockout_series_games_are_created_on_the_server(register: Any,
                                                          client: TestClient) -> None:
    org, wang, li = organiser(client, register), register(client, "wang"), register(client, "li")
    heads = {wang["user"]["id"]: wang["headers"], li["user"]["id"]: li["headers"]}
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Duel", "system": "knockout",
                                               "series": "two_games"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for u in ("wang", "li"):
        client.post(f"{base}/entries", json={"username": u}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    winners = []
    for game_no in (1, 2, 3):  # 1-1 after two games (13.5): an extra game decides
        (m,) = ev["rounds"][0]["matches"]
        assert m["winner"] is None and m["next"]["game"] == game_no
        gid = m["next"]["server"]
        assert gid, "the series game is played on the server"
        g = client.get(f"/api/games/{gid}").json()
        red_uid = g["players"]["first"]["id"]
        assert client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                           headers=heads[red_uid]).status_code == 200
        winners.append(g["players"]["second"]["name"])
        ev = client.get(base).json()
    (m,) = ev["rounds"][0]["matches"]
    assert [x["result"] for x in m["games"]] == ["0-1", "0-1", "0-1"]
    assert m["how"] == "extra game" and m["winner_name"] == winners[-1]
    assert ev["finished"] and ev["champion"] == winners[-1]
    assert [e["action"] for e in ev["log"]].count("server") == 3


def test_team_event_lineups_publication_boards_forfeit_and_standings(register: Any,
                                                                     client: TestClient) -> None:
    org, arb = organiser(client, register), register(client, "arb")
    make_role(client, arb["user"]["id"], Role.ARBITER)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={
        "name": "Clubs", "system": "team_round_robin", "boards": 2,
        "lineup_mode": "substitutes", "publish": "manual"}, headers=h).json()
    assert ev["family"] == "team"
    base = f"/api/tournaments/{ev['id']}"
    # the arbiter rules on this event once its organiser appoints him (16.2)
    assert client.post(f"{base}/staff", json={"username": "arb"}, headers=h).status_code == 200
    r = client.post(f"{base}/entries", json={"name": "X"}, headers=h)
    assert r.status_code == 409  # players come in teams here
    for team in ("Red Star", "Blue Sky", "Green Hill", "Gold Sand"):
        members = [{"name": f"{team[0]}{k}"} for k in (1, 2, 3)]
        assert client.post(f"{base}/teams", json={"name": team, "members": members},
                           headers=h).status_code == 201
    r = client.post(f"{base}/teams", json={"name": "Tiny", "members": [{"name": "T1"}]},
                    headers=h)
    assert r.status_code == 422 and "1 players for 2 boards" in r.json()["detail"]
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    assert ev["rounds"][0]["published"] is False
    assert 'class="lineup-form' in client.get(f"/tournaments/{ev['id']}", headers=h).text
    assert client.get(base).json()["rounds"] == []  # the public sees nothing yet
    m1, m2 = ev["rounds"][0]["matches"]
    board = f"{base}/rounds/1/matches/{m1['match']}/boards/1"
    r = client.put(board, json={"result": "1-0"}, headers=arb["headers"])
    assert r.status_code == 409 and "publish" in r.json()["detail"]
    lineups = f"{base}/rounds/1/matches/{m1['match']}/lineups"
    red_roster, black_roster = m1["lineups"]
    assert len(red_roster) == 2  # default: the first two of the roster (12.1)
    rt, bt = m1["red_team"][0], m1["black_team"][0]
    r = client.put(lineups, json={"red": [f"{rt}3", f"{rt}1"], "black": [f"{bt}1", f"{bt}2"]},
                   headers=h)
    assert r.status_code == 422 and "12.2" in r.json()["detail"]
    r = client.put(lineups, json={"red": [f"{rt}1", f"{rt}3"], "black": [f"{bt}1", f"{bt}2"]},
                   headers=arb["headers"])
    assert r.status_code == 403  # line-ups are the organiser's
    ev = client.put(lineups, json={"red": [f"{rt}1", f"{rt}3"], "black": [f"{bt}1", f"{bt}2"]},
                    headers=h).json()
    boards = ev["rounds"][0]["matches"][0]["boards"]
    # the first-listed team has Red on board 1 and Black on board 2 (13.2)
    assert [(b["red"], b["black"]) for b in boards] == [(f"{rt}1", f"{bt}1"),
                                                        (f"{bt}2", f"{rt}3")]
    client.post(f"{base}/rounds/1/publish", headers=h)
    assert len(client.get(base).json()["rounds"]) == 1
    r = client.put(lineups, json={"red": [f"{rt}1", f"{rt}2"], "black": [f"{bt}1", f"{bt}2"]},
                   headers=h)
    assert r.status_code == 409
    client.put(board, json={"result": "1-0"}, headers=arb["headers"])
    r = client.post(f"{base}/rounds/1/unpublish", headers=h)
    assert r.status_code == 409 and "results" in r.json()["detail"]
    ev = client.put(f"{base}/rounds/1/matches/{m1['match']}/boards/2", json={"result": "1-0"},
                    headers=arb["headers"]).json()
    done = ev["rounds"][0]["matches"][0]
    # board 1: first team's Red wins; board 2: the other team's Red wins -> 1:1, 场分 1:1
    assert done["board_points"] == [1.0, 1.0] and done["match_points"] == [1.0, 1.0]
    forfeit = f"{base}/rounds/1/matches/{m2['match']}/forfeit"
    assert client.put(forfeit, json={"result": "1-0", "reason": "x"},
                      headers=arb["headers"]).status_code == 422
    ev = client.put(forfeit, json={"result": "+--", "reason": "team arrived 40 min late"},
                    headers=arb["headers"]).json()
    pts = {row["name"]: row["points"] for row in ev["standings"]}
    assert pts[m2["red_team"]] == 2.0 and pts[m2["black_team"]] == 0.0  # 21.4
    assert pts[m1["red_team"]] == 1.0 and pts[m1["black_team"]] == 1.0
    for rnd in (2, 3):
        client.post(f"{base}/rounds", headers=h)
        client.post(f"{base}/rounds/{rnd}/publish", headers=h)
        for m in event_round(client, base, rnd, h)["matches"]:
            for b in (1, 2):
                client.put(f"{base}/rounds/{rnd}/matches/{m['match']}/boards/{b}",
                           json={"result": "1-0"}, headers=arb["headers"])
    ev = client.get(base).json()
    assert ev["finished"] and ev["status"] == "finished"
    assert sum(row["points"] for row in ev["standings"]) == 12.0  # 6 matches x 2
    assert [c["key"] for c in ev["tiebreaks"]] == ["game_points", "wins", "direct_encounter",
                                                   "fouls"]  # 15.3
    assert len(ev["crosstable"]) == 5 and ev["crosstable"][0][-1] == "场分"  # issue 33.5
    page = client.get(f"/tournaments/{ev['id']}")
    assert 'id="team-standings"' in page.text and 'id="team-crosstable"' in page.text
    assert "team arrived 40 min late" in page.text  # the log is public


def test_team_boards_between_accounts_are_played_on_the_server(register: Any,
                                                               client: TestClient) -> None:
    org = organiser(client, register)
    accounts = {n: register(client, n) for n in ("ma", "niu", "yang", "lu")}
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Online teams",
                                               "system": "team_round_robin", "boards": 2},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    client.post(f"{base}/teams", json={"name": "North", "members": [
        {"username": "ma"}, {"username": "niu"}]}, headers=h)
    client.post(f"{base}/teams", json={"name": "South", "members": [
        {"username": "yang"}, {"username": "lu"}]}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = ev["rounds"][0]["matches"]
    by_id = {a["user"]["id"]: a["headers"] for a in accounts.values()}
    for b in m["boards"]:
        assert b["game"], "both players have accounts: a server game"
        g = client.get(f"/api/games/{b['game']}").json()
        assert g["players"]["first"]["name"] == b["red"]
        client.post(f"/api/games/{b['game']}/actions", json={"type": "resign"},
                    headers=by_id[g["players"]["first"]["id"]])
    ev = client.get(base).json()
    (m,) = ev["rounds"][0]["matches"]
    assert [b["result"] for b in m["boards"]] == ["0-1", "0-1"]
    assert m["board_points"] == [1.0, 1.0] and ev["finished"]


def test_individual_publication_withdrawal_and_fouls(register: Any, client: TestClient) -> None:
    org, player = organiser(client, register), register(client, "pl")
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "RR", "system": "round_robin",
                                               "publish": "manual"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in ("Wang", "Li", "Zhao", "Sun", "Zhou"):
        client.post(f"{base}/entries", json={"name": name}, headers=h)
    # 20.2: before the start an entry is struck off
    r = client.post(f"{base}/withdrawals", json={"name": "Zhou", "reason": "ill"},
                    headers=player["headers"])
    assert r.status_code == 403
    ev = client.post(f"{base}/withdrawals", json={"name": "Zhou", "reason": "ill"},
                     headers=h).json()
    assert [p["name"] for p in ev["players"]] == ["Wang", "Li", "Zhao", "Sun"]
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    assert client.put(f"{base}/rounds/1/boards/1", json={"result": "1-0"},
                      headers=h).status_code == 409  # not published yet
    page = f"/tournaments/{ev['id']}"
    assert 'id="publish-1"' in client.get(page, headers=h).text
    assert 'data-round="1"' not in client.get(page).text  # hidden from the public
    assert client.post(f"{base}/rounds/1/publish", headers=player["headers"]).status_code == 403
    client.post(f"{base}/rounds/1/publish", headers=h)
    ev = client.put(f"{base}/rounds/1/boards/1", json={"result": "1-0", "black_fouls": 2},
                    headers=h).json()
    assert ev["rounds"][0]["boards"][0]["fouls"] == [0, 2]
    client.put(f"{base}/rounds/1/boards/2", json={"result": "="}, headers=h)
    html = client.get(page, headers=h).text
    assert 'class="result-select" data-url="/api/tournaments/' in html
    assert 'data-round="1" data-board="2"' in html and 'id="unpublish-1"' not in html
    loser = ev["rounds"][0]["boards"][0]["black_name"]
    # 20.3/20.4: withdrawn after round 1, having met 1 of 3 opponents: results struck out
    ev = client.post(f"{base}/withdrawals", json={"name": loser, "reason": "left"},
                     headers=h).json()
    assert loser not in [row["name"] for row in ev["standings"]]
    ev = client.post(f"{base}/rounds", headers=h).json()
    client.post(f"{base}/rounds/2/publish", headers=h)
    ev = client.get(base, headers=h).json()
    forfeited = [b for b in ev["rounds"][1]["boards"] if loser in (b["red_name"], b["black_name"])]
    assert len(forfeited) == 1 and forfeited[0]["result"] in ("+--", "--+")
    assert client.post(f"{base}/withdrawals", json={"name": "Nobody", "reason": "?"},
                       headers=h).status_code == 404


def _play_out(client: TestClient, base: str, h: dict[str, str]) -> dict[str, Any]:
    """Play the open round and pair and play every later one (the series
    game's Red wins) to the end."""
    ev = client.get(base, headers=h).json()
    for _ in range(12):
        while ev["rounds"] and not ev["rounds"][-1]["complete"]:
            rnd = ev["rounds"][-1]
            for m in rnd["matches"]:
                if m["next"] is not None:
                    client.put(f"{base}/rounds/{rnd['number']}/matches/{m['match']}/games/"
                               f"{m['next']['game']}", json={"result": "1-0"}, headers=h)
            ev = client.get(base, headers=h).json()
        if ev["finished"]:
            return ev
        r = client.post(f"{base}/rounds", headers=h)
        assert r.status_code == 200, r.text
        ev = r.json()
    raise AssertionError("the knock-out did not end")


def test_double_elimination_and_card_draw(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Double", "system": "double_knockout",
                                               "series": "single"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in ("A", "B", "C", "D"):
        client.post(f"{base}/entries", json={"name": name}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = _play_out(client, base, h)
    losses: dict[int, int] = {}
    for rnd in event_rounds(client, base, h):
        for m in rnd["matches"]:
            if m["black"] is not None:
                loser = m["black"] if m["winner"] == m["red"] else m["red"]
                losses[loser] = losses.get(loser, 0) + 1
    champion = next(p["number"] for p in ev["players"] if p["name"] == ev["champion"])
    assert losses.get(champion, 0) < 2  # out only after a second loss
    assert sorted(n for n, k in losses.items() if k >= 2) == sorted(
        p["number"] for p in ev["players"] if p["number"] != champion)
    assert [p["place"] for p in ev["placements"]][:2] == [1, 2]
    assert len(ev["placements"]) == 4
    # the card draw (local rules 9): drawn afresh each round; with 5 the K holder has the bye
    ev = client.post("/api/tournaments", json={"name": "Cards", "system": "knockout",
                                               "series": "single", "draw": "cards"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in ("A", "B", "C", "D", "E"):
        client.post(f"{base}/entries", json={"name": name}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    notes = [m["note"] for m in ev["rounds"][0]["matches"]]
    assert sum("K" in n for n in notes) == 1 and sum(n.startswith("cards") for n in notes) == 2
    ev = _play_out(client, base, h)
    assert ev["champion"] and len(ev["placements"]) == 5
    bad = client.post("/api/tournaments", json={"name": "X", "system": "double_knockout",
                                                "draw": "cards"}, headers=h)
    assert bad.status_code == 422 and "bracket" in bad.json()["detail"]
