"""Simul entrants that are consultation groups or engines, and an engine as
simul host (issue 21 items 3 and 4) through the API: a group formed by its
members' own requests (nobody is listed without asking) whose members vote
the board's move by majority; an engine entrant (added by the organiser
only) that answers the host's move from the engine pool; an engine host
that opens on every board and answers an entrant, started by the
organiser; Fairy-Stockfish at a level as host, named with its version and
level on the simul page and in the PGN; the bounds (group size, engine
entrants) and who may do what."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.competition.simul import MAX_ENGINES
from qisai.store.models import Role
from qisai.web import Settings, create_app

from .test_web_engine_levels import fairy_name
from .test_web_go import wait_for
from .test_web_simuls import make_role


@pytest.fixture
def fast_client(settings: Settings, clock: Any) -> Iterator[TestClient]:
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.05  # keep engine time tiny
    with TestClient(app) as c:
        yield c


@pytest.fixture
def found_client(settings: Settings, clock: Any) -> Iterator[TestClient]:
    settings.discover_engines = True  # Fairy-Stockfish levels, found at start-up
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.05
    with TestClient(app) as c:
        yield c


def organiser_simul(c: TestClient, register: Any, name: str = "org", **body: Any
                    ) -> tuple[dict[str, Any], dict[str, Any]]:
    org = register(c, name)
    make_role(c, org["user"]["id"], Role.ORGANISER)
    r = c.post("/api/simuls", json={"name": "人机车轮战", "max_boards": 5, **body},
               headers=org["headers"])
    assert r.status_code == 201, r.text
    return org, r.json()


def move(c: TestClient, who: dict[str, Any], gid: str, ply: int, mv: str) -> Any:
    return c.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": ply, "move": mv},
                  headers=who["headers"])


def vote(c: TestClient, who: dict[str, Any], gid: str, ply: int, mv: str) -> Any:
    return c.post(f"/api/games/{gid}/group/votes", json={"ply": ply, "move": mv},
                  headers=who["headers"])


def test_a_group_entrant_joins_by_consent_and_its_members_vote_the_move(
        register: Any, client: TestClient) -> None:
    c = client
    host, simul = organiser_simul(c, register, "liudahua")
    base = f"/api/simuls/{simul['id']}"
    jia, yi, bing, ding = (register(c, n) for n in ("jia", "yi", "bing", "ding"))
    # the founder cannot list another account: only his own request counts
    r = c.post(f"{base}/groups", json={"name": "五人组", "members": [ding["user"]["id"]]},
               headers=jia["headers"])
    assert r.status_code == 422
    r = c.post(f"{base}/groups", json={"name": "五人组"}, headers=jia["headers"])
    assert r.status_code == 200, r.text
    group = r.json()["entrants"][0]
    assert group["key"] == "group:1" and group["members"] == [f"user:{jia['user']['id']}"]
    for who in (yi, bing):
        assert c.post(f"{base}/groups/1/join", headers=who["headers"]).status_code == 200
    view = c.get(base, headers=ding["headers"]).json()
    keys = view["entrants"][0]["members"]
    assert f"user:{ding['user']['id']}" not in keys and len(keys) == 3
    # one board per account: a member cannot also join alone or found a group
    r = c.post(f"{base}/join", json={}, headers=yi["headers"])
    assert r.status_code == 409 and "另一台" in r.json()["detail"]
    r = c.post(f"{base}/groups", json={"name": "又一组"}, headers=yi["headers"])
    assert r.status_code == 409 and "already play a board" in r.json()["detail"]
    assert c.post(f"{base}/groups/1/join", headers=host["headers"]).status_code == 409
    assert c.post(f"{base}/groups/9/join", headers=ding["headers"]).status_code == 409
    assert c.post(f"{base}/groups/1/join").status_code == 401
    assert c.post(f"{base}/join", json={}, headers=ding["headers"]).status_code == 200
    started = c.post(f"{base}/start", headers=host["headers"]).json()
    assert started["status"] == "started"
    board = started["boards"][0]
    assert board["members"] == keys and board["name"] == "五人组"
    assert c.get(base, headers=bing["headers"]).json()["my_board"] == 1
    gid = board["game_id"]
    g = c.get(f"/api/games/{gid}").json()
    assert g["players"]["first"]["id"] == host["user"]["id"]
    # the host opens; the group's side is voted, never moved directly
    assert move(c, host, gid, 1, "h2e2").status_code == 200
    assert move(c, yi, gid, 2, "h7e7").status_code in (403, 409)
    r = vote(c, ding, gid, 2, "h7e7")  # not a member: his own board is board 2
    assert r.status_code == 403
    assert vote(c, host, gid, 2, "h7e7").status_code == 403
    r = vote(c, yi, gid, 2, "h7e7")
    assert r.status_code == 200 and r.json()["played"] is None
    assert vote(c, yi, gid, 2, "b7e7").status_code == 409  # voting twice
    r = vote(c, bing, gid, 2, "h7e7")  # two of three: the majority
    assert r.status_code == 200 and r.json()["played"] == "h7e7"
    st = c.get(f"/api/games/{gid}").json()
    assert [m["move"] for m in st["moves"]] == ["h2e2", "h7e7"] and st["to_move"] == "first"
    pgn = c.get(f"/api/games/{gid}/record").text
    assert all(n in pgn for n in ("jia", "yi", "bing"))
    # a member who is a site arbiter rules on no board his group plays (17.4);
    # the same arbiter may rule on board 2
    make_role(c, bing["user"]["id"], Role.ARBITER)
    rule = {"type": "warning", "side": "first", "clause": "17.4", "note": "x"}
    r = c.post(f"/api/games/{gid}/actions", json=rule, headers=bing["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]
    r = c.post(f"/api/games/{started['boards'][1]['game_id']}/actions", json=rule,
               headers=bing["headers"])
    assert r.status_code == 200, r.text


def test_group_bounds_leave_and_a_lone_group_cannot_start(register: Any,
                                                          client: TestClient) -> None:
    c = client
    host, simul = organiser_simul(c, register, "host", max_boards=1)
    base = f"/api/simuls/{simul['id']}"
    jia, yi = register(c, "jia"), register(c, "yi")
    r = c.post(f"{base}/groups", json={"name": "x" * 41}, headers=jia["headers"])
    assert r.status_code == 422
    assert c.post(f"{base}/groups", json={"name": "甲组"}, headers=jia["headers"]).status_code == 200
    # full (1 board): a second group is refused with the limit
    r = c.post(f"{base}/groups", json={"name": "乙组"}, headers=yi["headers"])
    assert r.status_code == 409 and "车轮战已满（1 台）" in r.json()["detail"]
    r = c.post(f"{base}/start", headers=host["headers"])
    assert r.status_code == 409 and "须至少 2 人" in r.json()["detail"]
    assert c.post(f"{base}/groups/1/join", headers=yi["headers"]).status_code == 200
    assert c.post(f"{base}/groups/leave", headers=yi["headers"]).status_code == 200
    assert c.post(f"{base}/groups/leave", headers=yi["headers"]).status_code == 409
    assert c.post(f"{base}/groups/leave", headers=jia["headers"]).status_code == 200
    assert c.get(base).json()["entrants"] == []  # the empty group is withdrawn


def test_an_engine_entrant_answers_the_hosts_move(register: Any,
                                                  fast_client: TestClient) -> None:
    c = fast_client
    host, simul = organiser_simul(c, register, "host")
    base = f"/api/simuls/{simul['id']}"
    other = register(c, "wang")
    r = c.post(f"{base}/engines", json={"engine": "builtin"}, headers=other["headers"])
    assert r.status_code == 403 and "only the organiser" in r.json()["detail"]
    assert c.post(f"{base}/engines", json={"engine": "builtin"}).status_code == 401
    r = c.post(f"{base}/engines", json={"engine": "no-such"}, headers=host["headers"])
    assert r.status_code == 422 and "not offered" in r.json()["detail"]
    assert c.post(f"{base}/engines", json={"engine": "x" * 65},
                  headers=host["headers"]).status_code == 422
    r = c.post(f"{base}/engines", json={"engine": "builtin", "name": "机器"},
               headers=host["headers"])
    assert r.status_code == 200, r.text
    assert r.json()["entrants"][0]["engine"]["id"] == "builtin"
    assert c.post(f"{base}/engines", json={"engine": "builtin", "name": "机器"},
                  headers=host["headers"]).status_code == 409
    assert c.post(f"{base}/join", json={}, headers=other["headers"]).status_code == 200
    started = c.post(f"{base}/start", headers=host["headers"]).json()
    b1 = started["boards"][0]
    assert b1["engine"]["name"] == "qisai builtin" and started["boards"][1]["name"] == "wang"
    gid = b1["game_id"]
    assert move(c, other, gid, 1, "h2e2").status_code == 403  # not his board
    assert move(c, host, gid, 1, "h2e2").status_code == 200
    st = wait_for(c, gid, lambda s: s["ply"] >= 2, "the engine entrant's answer")
    assert st["moves"][1]["side"] == "second"
    pgn = c.get(f"/api/games/{gid}/record").text
    assert '[BlackType "program"]' in pgn and "人机车轮战" in pgn


def test_engine_entrants_are_bounded(register: Any, fast_client: TestClient) -> None:
    c = fast_client
    host, simul = organiser_simul(c, register, "host", max_boards=40)
    base = f"/api/simuls/{simul['id']}"
    for k in range(MAX_ENGINES):
        r = c.post(f"{base}/engines", json={"engine": "builtin", "name": f"机{k}"},
                   headers=host["headers"])
        assert r.status_code == 200, r.text
    r = c.post(f"{base}/engines", json={"engine": "builtin", "name": "one more"},
               headers=host["headers"])
    assert r.status_code == 409 and f"at most {MAX_ENGINES} engine entrants" in r.json()["detail"]


def test_an_engine_host_opens_on_three_boards_and_answers_an_entrant(
        register: Any, fast_client: TestClient) -> None:
    c = fast_client
    org = register(c, "org")
    make_role(c, org["user"]["id"], Role.ORGANISER)
    r = c.post("/api/simuls", json={"name": "x", "host_engine": "no-such"},
               headers=org["headers"])
    assert r.status_code == 422
    r = c.post("/api/simuls", json={"name": "x", "host_engine": "builtin",
                                    "host_blindfold": True}, headers=org["headers"])
    assert r.status_code == 422
    r = c.post("/api/simuls", json={"name": "引擎车轮战", "host_engine": "builtin"},
               headers=org["headers"])
    assert r.status_code == 201, r.text
    simul = r.json()
    assert simul["you"] == "organiser" and simul["host"]["engine"]["name"] == "qisai builtin"
    base = f"/api/simuls/{simul['id']}"
    people = [register(c, n) for n in ("a1", "a2", "a3")]
    for p in people:
        assert c.post(f"{base}/join", json={}, headers=p["headers"]).status_code == 200
    r = c.post(f"{base}/start", headers=people[0]["headers"])
    assert r.status_code == 403
    started = c.post(f"{base}/start", headers=org["headers"]).json()
    assert started["status"] == "started" and len(started["boards"]) == 3
    gids = [b["game_id"] for b in started["boards"]]
    for gid in gids:  # the engine host (Red) opens on every board
        st = wait_for(c, gid, lambda s: s["ply"] >= 1, "the engine host's first move")
        assert st["moves"][0]["side"] == "first"
        assert st["players"]["first"]["id"] == simul["host_id"]
    # nobody moves for the engine host; the entrant answers and it replies
    assert move(c, org, gids[0], 2, "h7e7").status_code == 403
    assert move(c, people[0], gids[0], 2, "h7e7").status_code == 200
    st = wait_for(c, gids[0], lambda s: s["ply"] >= 3, "the engine host's answer")
    assert st["moves"][2]["side"] == "first"
    assert '[RedType "program"]' in c.get(f"/api/games/{gids[0]}/record").text
    # the referee rules on its boards as on people's: a resignation ends it
    c.post(f"/api/games/{gids[1]}/actions", json={"type": "resign"},
           headers=people[1]["headers"])
    wait_for(c, gids[1], lambda s: s["result"] is not None, "the resignation")
    assert c.get(base).json()["score"]["zh"] == "1胜0和0负"


def test_fairy_stockfish_as_engine_host_is_named_with_its_level(
        fairy: str, register: Any, found_client: TestClient) -> None:
    c = found_client
    org = register(c, "org")
    make_role(c, org["user"]["id"], Role.ORGANISER)
    r = c.post("/api/simuls", json={"name": "FSF 车轮战",
                                    "host_engine": "fairy-stockfish-skill-0"},
               headers=org["headers"])
    assert r.status_code == 201, r.text
    simul = r.json()
    label = simul["host"]["engine"]["name"]
    assert fairy_name(fairy) in label and "Skill Level 0" in label
    base = f"/api/simuls/{simul['id']}"
    a, b = register(c, "a1"), register(c, "a2")
    for p in (a, b):
        assert c.post(f"{base}/join", json={}, headers=p["headers"]).status_code == 200
    started = c.post(f"{base}/start", headers=org["headers"]).json()
    for board in started["boards"]:
        wait_for(c, board["game_id"], lambda s: s["ply"] >= 1, "Fairy-Stockfish's opening")
    pgn = c.get(f"/api/games/{started['boards'][0]['game_id']}/record").text
    assert fairy_name(fairy) in pgn and "Skill Level 0" in pgn


def answer(ws: Any, msg_id: str) -> dict[str, Any]:
    """The ack or error of message ``msg_id`` (board updates in between skipped)."""
    for _ in range(50):
        got: dict[str, Any] = ws.receive_json()
        if got.get("type") in ("ack", "error") and got.get("id") == msg_id:
            return got
    raise AssertionError(f"no answer to {msg_id}")


def test_group_members_vote_on_the_simul_socket_and_others_may_not(
        register: Any, client: TestClient) -> None:
    c = client
    host, simul = organiser_simul(c, register, "host")
    base = f"/api/simuls/{simul['id']}"
    jia, yi, ding = register(c, "jia"), register(c, "yi"), register(c, "ding")
    c.post(f"{base}/groups", json={"name": "甲乙"}, headers=jia["headers"])
    c.post(f"{base}/groups/1/join", headers=yi["headers"])
    c.post(f"{base}/join", json={}, headers=ding["headers"])
    started = c.post(f"{base}/start", headers=host["headers"]).json()
    gid = started["boards"][0]["game_id"]
    assert move(c, host, gid, 1, "h2e2").status_code == 200
    # the member's page links his board's game page (its group panel and talk)
    page = c.get(f"/simuls/{simul['id']}", headers=jia["headers"]).text
    assert f'href="/games/{gid}"' in page and 'id="group-board"' in page
    assert 'id="group-board"' not in c.get(f"/simuls/{simul['id']}", headers=ding["headers"]).text
    url = f"/ws/simuls/{simul['id']}"
    with c.websocket_connect(url, headers=jia["headers"]) as wj, \
            c.websocket_connect(url, headers=ding["headers"]) as wd:
        wd.send_json({"type": "group_vote", "board": 1, "ply": 2, "move": "h7e7", "id": "d"})
        err = answer(wd, "d")
        assert err["status"] == 403 and err["board"] == 1
        wj.send_json({"type": "group_vote", "board": 1, "ply": 2, "move": "h7e7", "id": "j"})
        ack = answer(wj, "j")
        assert ack["board"] == 1 and ack["played"] is None
        wj.send_json({"type": "group_vote", "board": 1, "ply": 2, "move": "h7e7", "id": "j2"})
        assert answer(wj, "j2")["status"] == 409  # voting twice
        wj.send_json({"type": "group_talk", "board": 1, "text": "跟上", "id": "t"})
        assert answer(wj, "t")["type"] == "ack"
    # yi's vote makes two of two: the majority plays it
    r = vote(c, yi, gid, 2, "h7e7")
    assert r.status_code == 200 and r.json()["played"] == "h7e7"


def test_the_simul_page_names_the_engines(register: Any, fast_client: TestClient) -> None:
    c = fast_client
    org = register(c, "org")
    make_role(c, org["user"]["id"], Role.ORGANISER)
    sid = c.post("/api/simuls", json={"name": "人机", "host_engine": "builtin"},
                 headers=org["headers"]).json()["id"]
    c.post(f"/api/simuls/{sid}/engines", json={"engine": "builtin", "name": "对手机"},
           headers=org["headers"])
    page = c.get(f"/simuls/{sid}", headers=org["headers"]).text
    assert 'id="simul-host-engine">qisai builtin<' in page
    assert "对手机 · <span class=\"engine\">qisai builtin</span>" in page
    assert 'id="start-simul"' in page  # the organiser starts an engine's display
    other = register(c, "wang")
    page = c.get(f"/simuls/{sid}", headers=other["headers"]).text
    assert 'id="start-simul"' not in page and 'id="form-group"' in page


def test_an_engine_host_plays_on_after_a_restart(register: Any, settings: Settings,
                                                  clock: Any) -> None:
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.05
    with TestClient(app) as c:
        org = register(c, "org")
        make_role(c, org["user"]["id"], Role.ORGANISER)
        sid = c.post("/api/simuls", json={"name": "重启", "host_engine": "builtin"},
                     headers=org["headers"]).json()["id"]
        a = register(c, "a1")
        c.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"])
        gid = c.post(f"/api/simuls/{sid}/start", headers=org["headers"]).json()["boards"][0][
            "game_id"]
        wait_for(c, gid, lambda s: s["ply"] >= 1, "the engine host's opening")
    # a new server process: the display's engine host is driven again
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.05
    with TestClient(app) as c:
        assert move(c, a, gid, 2, "h7e7").status_code == 200
        st = wait_for(c, gid, lambda s: s["ply"] >= 3, "the engine host after the restart")
        assert st["moves"][2]["side"] == "first"


def test_the_seeds_25_amateurs_on_five_boards_against_a_blindfold_host(
        register: Any, settings: Settings, clock: Any) -> None:
    # Seed 001: 柳大华, blindfold, against 25 online amateurs on five boards.
    settings.login_per_minute = 100  # 26 registrations from one address
    with TestClient(create_app(settings, time_source=clock, tick_period=0.05)) as c:
        host, simul = organiser_simul(c, register, "liudahua", host_blindfold=True)
        base = f"/api/simuls/{simul['id']}"
        groups = [[register(c, f"g{g}m{m}") for m in range(5)] for g in range(1, 6)]
        for g, members in enumerate(groups, start=1):
            r = c.post(f"{base}/groups", json={"name": f"第{g}组"}, headers=members[0]["headers"])
            assert r.status_code == 200, r.text
            for m in members[1:]:
                assert c.post(f"{base}/groups/{g}/join", headers=m["headers"]).status_code == 200
        started = c.post(f"{base}/start", headers=host["headers"]).json()
        assert [len(b["members"]) for b in started["boards"]] == [5] * 5
        for board, members in zip(started["boards"], groups, strict=True):
            gid = board["game_id"]
            assert move(c, host, gid, 1, "h2e2").status_code == 200
            # three of five: more than half, played at once
            played = [vote(c, m, gid, 2, "h7e7").json()["played"] for m in members[:3]]
            assert played == [None, None, "h7e7"]
            assert vote(c, members[3], gid, 2, "b7e7").status_code == 409  # decided
            pgn = c.get(f"/api/games/{gid}/record").text
            assert '[RedBlindfold "true"]' in pgn
            assert all(m["user"]["username"] in pgn for m in members)
        view = c.get(base, headers=host["headers"]).json()
        assert view["waiting"] == [1, 2, 3, 4, 5]
