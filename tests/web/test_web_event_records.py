"""Event games' records name the event, its round and board (issue 33 item
10): PGN's Event, Round (``round.game`` for a match's games, PGN's
sub-round) and Board tags, with Section for a group and the teams for a
team match; SGF's EV and RO.  Read back with qisai's own PGN reader."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from qisai.xiangqi.pgn import parse_pgn

from .test_web_events_formats import organiser


def tags(client: TestClient, gid: str) -> dict[str, str]:
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200, r.text
    text = r.text
    found = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, flags=re.M))
    assert parse_pgn(text)[0].headers["Event"] == found["Event"]  # a record PGN readers take
    return found


def test_individual_event_games_carry_name_round_and_board(register: Any,
                                                           client: TestClient) -> None:
    org = organiser(client, register)
    for n in ("zhao", "qian", "sun", "li"):
        register(client, n)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "2026 杭州公开赛",
                                               "system": "round_robin"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for n in ("zhao", "qian", "sun", "li"):
        client.post(f"{base}/entries", json={"username": n}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    boards = ev["rounds"][0]["boards"]
    assert len(boards) == 2
    for b in boards:
        t = tags(client, b["game"])
        assert t["Event"] == "2026 杭州公开赛"
        assert t["Round"] == "1" and t["Board"] == str(b["board"])
        assert "qisai" not in t["Event"]


def test_knockout_series_games_are_sub_rounds(register: Any, client: TestClient) -> None:
    org, wang, li = organiser(client, register), register(client, "wang"), register(client, "li")
    heads = {wang["user"]["id"]: wang["headers"], li["user"]["id"]: li["headers"]}
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "淘汰赛", "system": "knockout",
                                               "series": "two_games"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for u in ("wang", "li"):
        client.post(f"{base}/entries", json={"username": u}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    seen = []
    for _ in (1, 2):
        (m,) = ev["rounds"][0]["matches"]
        gid = m["next"]["server"]
        t = tags(client, gid)
        seen.append((t["Event"], t["Round"], t["Board"]))
        red = client.get(f"/api/games/{gid}").json()["players"]["first"]["id"]
        client.post(f"/api/games/{gid}/actions", json={"type": "resign"}, headers=heads[red])
        ev = client.get(base).json()
    assert seen == [("淘汰赛", "1.1", "1"), ("淘汰赛", "1.2", "1")]


def test_team_match_boards_name_the_teams(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    for n in ("ma", "niu", "yang", "lu"):
        register(client, n)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "联赛", "system": "team_round_robin",
                                               "boards": 2}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    client.post(f"{base}/teams", json={"name": "北队", "members": [
        {"username": "ma"}, {"username": "niu"}]}, headers=h)
    client.post(f"{base}/teams", json={"name": "南队", "members": [
        {"username": "yang"}, {"username": "lu"}]}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    (m,) = ev["rounds"][0]["matches"]
    for n, b in enumerate(m["boards"], start=1):
        t = tags(client, b["game"])
        assert (t["Event"], t["Round"], t["Board"]) == ("联赛", "1.1", str(n))
        # 13.2: the first-listed team has Red on odd boards
        assert {t["RedTeam"], t["BlackTeam"]} == {"北队", "南队"}
        red_team = "北队" if b["red"] in ("ma", "niu") else "南队"
        assert t["RedTeam"] == red_team


def test_group_boards_name_their_group() -> None:
    from qisai.web.events.server_games import place_tags

    assert place_tags("group", (2, 3, 1)) == {"Round": "2", "Board": "1",
                                              "Section": "第3组 / group 3"}
    assert place_tags("group", (4, 0, 1))["Section"] == "决赛 / final"
    assert place_tags("knockout", (2, 0, 3)) == {"Round": "2.3", "Board": "1"}


def test_engine_entrants_are_marked_as_engines_in_entry_lists(register: Any,
                                                              client: TestClient) -> None:
    org = organiser(client, register)
    register(client, "wang")
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "人机大战", "system": "round_robin"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    client.post(f"{base}/entries", json={"username": "wang"}, headers=h)
    r = client.post(f"{base}/engines", json={"engine": "builtin", "name": "小棋"}, headers=h)
    assert r.status_code == 201, r.text
    players = {p["name"]: p for p in client.get(base).json()["players"]}
    assert players["wang"]["engine"] is None
    assert players["小棋"]["engine"] and "qisai" in players["小棋"]["engine"]
    page = client.get(f"/tournaments/{ev['id']}").text
    assert page.count('class="engine-entry"') == 1
    assert "电脑（引擎）" in page or "engine" in page
    # a team of engine seats: each seat is marked
    ev = client.post("/api/tournaments", json={"name": "大师队对引擎",
                                               "system": "team_round_robin", "boards": 2},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    r = client.post(f"{base}/engines", json={"engine": "builtin", "name": "qisai",
                                             "team": "引擎队"}, headers=h)
    assert r.status_code == 201, r.text
    (team,) = client.get(base).json()["teams"]
    assert all(m["engine"] for m in team["roster"])
    assert client.get(f"/tournaments/{ev['id']}").text.count('class="engine-entry"') == 2
