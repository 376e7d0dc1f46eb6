"""Man-vs-machine events (人机大战, issue 21 item 4) through the API: engine
entrants of a round robin (qisai's own and Fairy-Stockfish at a level) whose
boards against people are played by the engine pool and enter the event by
themselves, and the board of the two engines played by both from the pool;
the engine named in the game and its PGN; the event's arbiter
pauses an engine game for a technical fault (clocks stopped, reason kept)
and resumes it; who may register engines and rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.store.models import Role
from qisai.web import Settings, create_app

from .test_web_engine_levels import fairy_name
from .test_web_go import wait_for
from .test_web_tournaments import make_role


@pytest.fixture
def found_client(settings: Settings, clock: Any) -> Iterator[TestClient]:
    settings.discover_engines = True
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.05  # keep engine time tiny
    with TestClient(app) as c:
        yield c


def event(client: TestClient, org: dict[str, Any]) -> str:
    make_role(client, org["user"]["id"], Role.ORGANISER)
    r = client.post("/api/tournaments", json={"name": "人机大战", "system": "round_robin",
                                              "time": {"minutes": 15}}, headers=org["headers"])
    assert r.status_code == 201, r.text
    return f"/api/tournaments/{r.json()['id']}"


def test_engine_entries_are_checked_and_only_the_organiser_adds_them(
        register: Any, found_client: TestClient) -> None:
    c = found_client
    org, other = register(c, "org"), register(c, "wang")
    base = event(c, org)
    r = c.post(f"{base}/engines", json={"engine": "builtin"}, headers=other["headers"])
    assert r.status_code == 403
    r = c.post(f"{base}/engines", json={"engine": "no-such-engine"}, headers=org["headers"])
    assert r.status_code == 422 and "not offered" in r.json()["detail"]
    r = c.post(f"{base}/engines", json={"engine": "x" * 65}, headers=org["headers"])
    assert r.status_code == 422
    r = c.post(f"{base}/engines", json={"engine": "builtin", "name": "机器"},
               headers=org["headers"])
    assert r.status_code == 201, r.text
    r = c.post(f"{base}/engines", json={"engine": "builtin", "name": "机器"},
               headers=org["headers"])
    assert r.status_code == 409
    assert c.post(f"{base}/engines", json={"engine": "builtin"}).status_code == 401


def test_round_robin_of_people_and_engines_runs_to_standings(
        fairy: str, register: Any, found_client: TestClient) -> None:
    c = found_client
    org, wang, li = register(c, "org"), register(c, "wang"), register(c, "li")
    base = event(c, org)
    for body in ({"username": "wang"}, {"username": "li"}):
        assert c.post(f"{base}/entries", json=body, headers=org["headers"]).status_code == 201
    for body in ({"engine": "builtin", "name": "qisai"},
                 {"engine": "fairy-stockfish-skill-0", "name": "FSF"}):
        r = c.post(f"{base}/engines", json=body, headers=org["headers"])
        assert r.status_code == 201, r.text
    c.post(f"{base}/start", headers=org["headers"])
    heads = {wang["user"]["id"]: wang["headers"], li["user"]["id"]: li["headers"]}
    engine_games = engine_engine = 0
    for rnd in (1, 2, 3):
        ev = c.post(f"{base}/rounds", headers=org["headers"]).json()
        for b in ev["rounds"][rnd - 1]["boards"]:
            if b["game"] and all(p.get("id") not in heads for p in
                                 c.get(f"/api/games/{b['game']}").json()["players"].values()):
                # The two engines meet: both play from the pool (the second
                # through its engine account), then the arbiter enters a draw.
                st = wait_for(c, b["game"], lambda s: s["ply"] >= 4, "both engines' moves")
                assert {m["side"] for m in st["moves"]} == {"first", "second"}
                pgn = c.get(f"/api/games/{b['game']}/record").text
                assert '[RedType "program"]' in pgn and '[BlackType "program"]' in pgn
                # issue 32.8: the second engine by its name, never its account's
                assert "engine-" not in pgn
                shown = [p.get("display_name") or p["name"] for p in st["players"].values()]
                assert not [n for n in shown if n.startswith("engine-")], shown
                engine_engine += 1
                r = c.put(f"{base}/rounds/{rnd}/boards/{b['board']}", json={"result": "1/2-1/2"},
                          headers=org["headers"])
                assert r.status_code == 200, r.text
                continue
            g = c.get(f"/api/games/{b['game']}").json()
            first, second = g["players"]["first"], g["players"]["second"]
            human = first if first.get("id") in heads else second
            if first.get("id") in heads and second.get("id") in heads:
                c.post(f"/api/games/{b['game']}/actions", json={"type": "resign"},
                       headers=heads[first["id"]])
                continue
            engine_games += 1
            engine = second if human is first else first
            if engine is second:
                r = c.post(f"/api/games/{b['game']}/actions",
                           json={"type": "move", "ply": 1, "move": "h2e2"},
                           headers=heads[human["id"]])
                assert r.status_code == 200, r.text
            # The engine plays its move from the pool, then the person resigns.
            want = 2 if engine is second else 1
            st = wait_for(c, b["game"], lambda s, want=want: s["ply"] >= want,
                          "the engine's move")
            assert st["moves"][-1]["side"] == ("second" if engine is second else "first")
            pgn = c.get(f"/api/games/{b['game']}/record").text
            if "Skill Level 0" in engine["name"]:
                assert fairy_name(fairy) in pgn and "Skill Level 0" in pgn
            c.post(f"/api/games/{b['game']}/actions", json={"type": "resign"},
                   headers=heads[human["id"]])
            wait_for(c, b["game"], lambda s: s["result"] is not None, "the resignation")
        ev = c.get(base).json()
    assert engine_games == 4 and engine_engine == 1
    assert ev["status"] == "finished"
    table = {r["name"]: r["points"] for r in ev["standings"]}
    # Each engine beat both people and drew the other: 2.5; people 1 and 0.
    assert table["qisai"] == table["FSF"] == 2.5
    assert sorted([table["wang"], table["li"]]) == [0, 1]


def test_the_arbiter_pauses_an_engine_game_for_a_fault(
        register: Any, found_client: TestClient, clock: Any) -> None:
    c = found_client
    org, wang, arb, other = (register(c, n) for n in ("org", "wang", "arb", "kan"))
    base = event(c, org)
    assert c.post(f"{base}/entries", json={"username": "wang"},
                  headers=org["headers"]).status_code == 201
    c.post(f"{base}/engines", json={"engine": "builtin", "name": "qisai"}, headers=org["headers"])
    r = c.post(f"{base}/staff", json={"username": "arb", "role": "arbiter"},
               headers=org["headers"])
    assert r.status_code in (200, 201), r.text
    c.post(f"{base}/start", headers=org["headers"])
    ev = c.post(f"{base}/rounds", headers=org["headers"]).json()
    (board,) = ev["rounds"][0]["boards"]
    gid = board["game"]
    g = c.get(f"/api/games/{gid}").json()
    engine_side = "first" if g["players"]["first"].get("id") != wang["user"]["id"] else "second"
    if engine_side == "first":
        wait_for(c, gid, lambda s: s["ply"] >= 1, "the engine's first move")
    pause = {"type": "pause", "note": "engine server lost its network / 引擎掉线"}
    for who in (wang, other):  # the player and a site player: no
        r = c.post(f"/api/games/{gid}/actions", json=pause, headers=who["headers"])
        assert r.status_code == 403, r.text
    r = c.post(f"/api/games/{gid}/actions", json=pause, headers=arb["headers"])
    assert r.status_code == 200, r.text
    before = c.get(f"/api/games/{gid}").json()
    assert before["phase"] == "paused"
    clock.advance(120)  # clocks stand still while paused
    after = c.get(f"/api/games/{gid}").json()
    assert after["clocks"] == before["clocks"]
    r = c.post(f"/api/games/{gid}/actions", json={"type": "resume"}, headers=arb["headers"])
    assert r.status_code == 200, r.text
    assert c.get(f"/api/games/{gid}").json()["phase"] == "playing"
    # The reason and who paused stay in the game's log (for the arbiters).
    log = c.get(f"/api/games/{gid}/events").json()
    paused = [e for e in log if e["kind"] == "pause"]
    assert len(paused) == 1 and "引擎掉线" in str(paused[0]["data"])
    assert [e["kind"] for e in log].count("resume") == 1


def test_a_team_of_people_against_one_engine(register: Any, found_client: TestClient) -> None:
    c = found_client
    org, wang, li = register(c, "org"), register(c, "wang"), register(c, "li")
    make_role(c, org["user"]["id"], Role.ORGANISER)
    r = c.post("/api/tournaments", json={"name": "大师队对引擎", "system": "team_round_robin",
                                         "boards": 2, "time": {"minutes": 15}},
               headers=org["headers"])
    base = f"/api/tournaments/{r.json()['id']}"
    r = c.post(f"{base}/teams", json={"name": "大师队", "members": [{"username": "wang"},
                                                                   {"username": "li"}]},
               headers=org["headers"])
    assert r.status_code == 201, r.text
    r = c.post(f"{base}/engines", json={"engine": "builtin"}, headers=org["headers"])
    assert r.status_code == 422 and "team" in r.json()["detail"]  # a team needs its name
    r = c.post(f"{base}/engines", json={"engine": "builtin", "name": "qisai", "team": "引擎队"},
               headers=org["headers"])
    assert r.status_code == 201, r.text
    c.post(f"{base}/start", headers=org["headers"])
    ev = c.post(f"{base}/rounds", headers=org["headers"]).json()
    (match,) = ev["rounds"][0]["matches"]
    heads = {wang["user"]["id"]: wang["headers"], li["user"]["id"]: li["headers"]}
    games = [b["game"] for b in match["boards"]]
    assert len(games) == 2 and all(games)
    for gid in games:
        g = c.get(f"/api/games/{gid}").json()
        first, second = g["players"]["first"], g["players"]["second"]
        human, engine = (first, second) if first.get("id") in heads else (second, first)
        assert engine["engine"] is True and human["id"] in heads
        if engine is first:
            wait_for(c, gid, lambda s: s["ply"] >= 1, "the engine's first move")
        c.post(f"/api/games/{gid}/actions", json={"type": "resign"}, headers=heads[human["id"]])
        wait_for(c, gid, lambda s: s["result"] is not None, "the resignation")
    ev = c.get(base).json()
    assert ev["status"] == "finished", ev
    top = ev["standings"][0]
    assert "引擎队" in str(top)


def test_a_match_of_two_games_against_the_engine_alternates_colours(
        register: Any, found_client: TestClient) -> None:
    c = found_client
    org, wang = register(c, "org"), register(c, "wang")
    make_role(c, org["user"]["id"], Role.ORGANISER)
    r = c.post("/api/tournaments", json={"name": "人机对抗赛", "system": "double_round_robin",
                                         "time": {"minutes": 15}}, headers=org["headers"])
    base = f"/api/tournaments/{r.json()['id']}"
    c.post(f"{base}/entries", json={"username": "wang"}, headers=org["headers"])
    c.post(f"{base}/engines", json={"engine": "builtin", "name": "qisai"}, headers=org["headers"])
    c.post(f"{base}/start", headers=org["headers"])
    colours = []
    for rnd in (1, 2):
        ev = c.post(f"{base}/rounds", headers=org["headers"]).json()
        (board,) = ev["rounds"][rnd - 1]["boards"]
        g = c.get(f"/api/games/{board['game']}").json()
        human_first = g["players"]["first"].get("id") == wang["user"]["id"]
        colours.append("first" if human_first else "second")
        if not human_first:
            wait_for(c, board["game"], lambda s: s["ply"] >= 1, "the engine's first move")
            pgn = c.get(f"/api/games/{board['game']}/record").text
            assert '[RedType "program"]' in pgn and '[BlackType "human"]' in pgn
        c.post(f"/api/games/{board['game']}/actions", json={"type": "resign"},
               headers=wang["headers"])
        wait_for(c, board["game"], lambda s: s["result"] is not None, "the resignation")
    assert sorted(colours) == ["first", "second"]
    ev = c.get(base).json()
    assert {r["name"]: r["points"] for r in ev["standings"]} == {"qisai": 2, "wang": 0}


def test_a_paused_game_of_two_engines_stands_still_until_resumed(
        register: Any, found_client: TestClient) -> None:
    import time

    from qisai.web.play.engine_driver import driver_of

    c = found_client
    org = register(c, "org")
    base = event(c, org)
    for name in ("A", "B"):
        r = c.post(f"{base}/engines", json={"engine": "builtin", "name": name},
                   headers=org["headers"])
        assert r.status_code == 201
    c.post(f"{base}/start", headers=org["headers"])
    ev = c.post(f"{base}/rounds", headers=org["headers"]).json()
    (board,) = ev["rounds"][0]["boards"]
    gid = board["game"]
    wait_for(c, gid, lambda s: s["ply"] >= 2, "both engines' first moves")
    r = c.post(f"/api/games/{gid}/actions", json={"type": "pause", "note": "power cut"},
               headers=org["headers"])
    assert r.status_code == 200, r.text
    # A move thought before the pause comes back and is dropped: wait until
    # the driver holds no move of this game (it marks a game busy while an
    # engine thinks for it).
    driver = driver_of(c.app.state.qisai.hub)  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while gid in driver._busy:
        assert time.monotonic() < deadline, "the engine's move in flight never came back"
        time.sleep(0.01)
    ply = c.get(f"/api/games/{gid}").json()["ply"]
    # The driver's tick is what starts an engine's move: ticked while the
    # game is paused, it starts none, and no move is played.
    for _ in range(3):
        c.portal.call(driver.tick)  # type: ignore[union-attr]
        assert gid not in driver._busy
    st = c.get(f"/api/games/{gid}").json()
    assert st["ply"] == ply and st["phase"] == "paused" and st["result"] is None
    c.post(f"/api/games/{gid}/actions", json={"type": "resume"}, headers=org["headers"])
    wait_for(c, gid, lambda s: s["ply"] >= ply + 2, "both engines after the resumption")
