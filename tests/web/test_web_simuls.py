"""Simultaneous displays and blindfold seats through the API and the
display's socket (issue 21 items 1 and 2): who may create, join, leave and
start; the size limit; one server game per board with the host's colour
and the Go handicap; only the host moves for the host; the running score
"1胜0和0负"; records with the simul's name and board number and the
blindfold seat; typed moves read by the notation parser (a typo changes
nothing); an arbiter never rules on a board he plays (17.4)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def host_and_entrants(client: TestClient, register: Any, n: int, **settings: Any
                      ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    host = register(client, "liudahua")
    make_role(client, host["user"]["id"], Role.ORGANISER)
    body = {"name": "成都车轮战", "max_boards": n, **settings}
    r = client.post("/api/simuls", json=body, headers=host["headers"])
    assert r.status_code == 201, r.text
    simul = r.json()
    entrants = [register(client, f"amateur{i}") for i in range(1, n + 1)]
    return host, entrants, simul


def test_create_join_full_leave_start_and_only_the_host_starts(register: Any,
                                                               client: TestClient) -> None:
    host, (a, b), simul = host_and_entrants(client, register, 2)
    sid = simul["id"]
    assert simul["you"] == "host" and simul["status"] == "open"
    # a player (not an organiser) may not hold one
    r = client.post("/api/simuls", json={"name": "x"}, headers=a["headers"])
    assert r.status_code == 403 and "organiser" in r.json()["detail"]
    assert client.post(f"/api/simuls/{sid}/join", json={},
                       headers=host["headers"]).status_code == 409  # the host cannot join
    assert client.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"]).status_code == 200
    r = client.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"])
    assert r.status_code == 409 and "已报名" in r.json()["detail"]
    r = client.post(f"/api/simuls/{sid}/join", json={"blindfold": True}, headers=b["headers"])
    assert r.status_code == 200 and r.json()["entrants"][1]["blindfold"] is True
    late = register(client, "late")
    r = client.post(f"/api/simuls/{sid}/join", json={}, headers=late["headers"])
    assert r.status_code == 409 and "车轮战已满（2 台）" in r.json()["detail"]
    assert "the simul is full (2 boards)" in r.json()["detail"]
    # leave and come back; nobody else can start it
    assert client.post(f"/api/simuls/{sid}/leave", headers=a["headers"]).status_code == 200
    assert client.post(f"/api/simuls/{sid}/leave", headers=a["headers"]).status_code == 409
    assert client.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"]).status_code == 200
    r = client.post(f"/api/simuls/{sid}/start", headers=b["headers"])
    assert r.status_code == 403 and "only the host" in r.json()["detail"]
    r = client.post(f"/api/simuls/{sid}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["status"] == "started"
    # boards in joining order: b joined first after a left and came back
    assert [x["name"] for x in started["boards"]] == ["amateur2", "amateur1"]
    assert started["waiting"] == [1, 2] and started["order"] == [1, 2]
    assert client.post(f"/api/simuls/{sid}/start", headers=host["headers"]).status_code == 409
    r = client.post(f"/api/simuls/{sid}/join", json={}, headers=late["headers"])
    assert r.status_code == 409 and "已开始" in r.json()["detail"]
    assert client.post(f"/api/simuls/{sid}/leave", headers=a["headers"]).status_code == 409
    # each board is a server game: the host Red, the entrant Black, no clock
    g1 = client.get(f"/api/games/{started['boards'][0]['game_id']}").json()
    assert g1["players"]["first"]["id"] == host["user"]["id"]
    assert g1["players"]["second"]["id"] == b["user"]["id"]
    assert g1["status"] == "active" and g1["clocks"] is None
    assert g1["blindfold"] == ["second"] and g1["simul"]["board"] == 1


def test_bounds_of_the_settings(register: Any, client: TestClient) -> None:
    host = register(client, "org")
    make_role(client, host["user"]["id"], Role.ORGANISER)
    h = host["headers"]
    for bad in ({"name": "x", "max_boards": 0}, {"name": "x", "max_boards": 501},
                {"name": ""}, {"name": "x" * 81}, {"name": "x", "rules": "nope"},
                {"name": "x", "handicap": 3}, {"name": "x", "game": "go", "host_colour": "red"},
                {"name": "x", "game": "go", "handicap": 2, "host_colour": "black"},
                {"name": "x", "size": 9}):
        r = client.post("/api/simuls", json=bad, headers=h)
        assert r.status_code == 422, (bad, r.text)
    assert client.get("/api/simuls/999").status_code == 404
    assert client.get("/api/simuls/99999999999999999999").status_code == 422  # DbId bound
    # the seed's 108 boards and the 120 fit
    r = client.post("/api/simuls", json={"name": "x", "max_boards": 120}, headers=h)
    assert r.status_code == 201
    assert client.post("/api/simuls", json={"name": "x"}).status_code == 401


def test_only_the_host_moves_for_the_host_typed_moves_and_the_score(register: Any,
                                                                    client: TestClient) -> None:
    host, (a, b, c), simul = host_and_entrants(client, register, 3)
    sid = simul["id"]
    for who, blind in ((a, False), (b, False), (c, True)):
        r = client.post(f"/api/simuls/{sid}/join", json={"blindfold": blind},
                        headers=who["headers"])
        assert r.status_code == 200
    boards = client.post(f"/api/simuls/{sid}/start", headers=host["headers"]).json()["boards"]
    g1, g2, g3 = (x["game_id"] for x in boards)
    # an entrant cannot move on another board, nor for the host on his own
    r = client.post(f"/api/games/{g2}/actions", json={"type": "move", "ply": 1, "move": "h2e2"},
                    headers=a["headers"])
    assert r.status_code == 403
    r = client.post(f"/api/games/{g1}/actions", json={"type": "move", "ply": 1, "move": "h7e7"},
                    headers=a["headers"])
    # Red (the host) moves first: under the CXA profile a move out of turn
    # loses the game for Black (4.1.6); nothing is played for the host
    g = client.get(f"/api/games/{g1}").json()
    assert g["ply"] == 0 and g["result"]["pgn"] == "1-0" and "4.1.6" in g["result"]["clause"]
    # the host types 炮二平五 on board 3; the blindfold entrant hears it
    r = client.post(f"/api/games/{g3}/typed", json={"text": "炮二平五", "ply": 1},
                    headers=host["headers"])
    assert r.status_code == 200 and r.json()["move"] == "h2e2"
    said = client.get(f"/api/games/{g3}/announce?lang=zh").json()
    assert said["text"] == "第三台，炮二平五" and said["side"] == "first"
    assert client.get(f"/api/games/{g3}/announce?lang=en").json()["text"] == "board 3, C2.5"
    assert client.get(f"/api/games/{g3}/announce?ply=2").status_code == 400
    # a typo or an illegal move: nothing played; the blindfold seat is told
    # only that it cannot be played (issue 31.7: no square, no legal moves)
    r = client.post(f"/api/games/{g3}/typed", json={"text": "马8进9九", "ply": 2},
                    headers=c["headers"])
    assert r.status_code == 422 and r.json()["code"] == "typed_move"
    r = client.post(f"/api/games/{g3}/typed", json={"text": "车1进5", "ply": 2},
                    headers=c["headers"])
    assert r.status_code == 422 and "blindfold" in r.json()["en"]  # its own pawn blocks it
    assert "车" not in r.json()["zh"]
    assert client.get(f"/api/games/{g3}").json()["ply"] == 1
    r = client.post(f"/api/games/{g3}/typed", json={"text": "马8进7", "ply": 2},
                    headers=a["headers"])
    assert r.status_code == 403  # not his board
    r = client.post(f"/api/games/{g3}/typed", json={"text": "x" * 33, "ply": 2},
                    headers=c["headers"])
    assert r.status_code == 422
    r = client.post(f"/api/games/{g3}/typed", json={"text": "马8进7", "ply": 2},
                    headers=c["headers"])
    assert r.status_code == 200 and r.json()["move"] == "h9g7"
    # results from the host's side: board 1 the host won (above), board 3
    # the host resigns
    view = client.get(f"/api/simuls/{sid}").json()
    assert view["score"]["zh"] == "1胜0和0负" and view["score"]["playing"] == 2
    assert client.post(f"/api/games/{g3}/actions", json={"type": "resign"},
                       headers=host["headers"]).status_code == 200
    view = client.get(f"/api/simuls/{sid}").json()
    assert view["score"]["zh"] == "1胜0和1负"
    assert view["score"]["en"] == "1 wins, 0 draws, 1 losses"
    assert view["waiting"] == [2] and view["order"] == [2, 1, 3]
    # the records: the simul's name, the board number, the blindfold seat
    pgn = client.get(f"/api/games/{g3}/record").text
    assert '[Event "成都车轮战 (车轮战 simul)"]' in pgn and '[Board "3"]' in pgn
    assert '[Round "3"]' in pgn and '[BlackBlindfold "true"]' in pgn
    assert "RedBlindfold" not in pgn and "炮二平五" in pgn and "马8进7" in pgn
    # the results reach the players' profiles
    games = client.get(f"/api/users/{a['user']['id']}").json()["games"]
    assert [g["id"] for g in games] == [g1] and games[0]["status"] == "finished"


def test_go_simul_with_handicap_and_the_sgf(register: Any, client: TestClient) -> None:
    host, (a,), simul = host_and_entrants(client, register, 1, game="go", handicap=2, size=9,
                                          rules="go-casual")
    sid = simul["id"]
    assert simul["settings"]["host_colour"] == "white"
    client.post(f"/api/simuls/{sid}/join", json={"blindfold": True}, headers=a["headers"])
    gid = client.post(f"/api/simuls/{sid}/start", headers=host["headers"]).json()["boards"][0][
        "game_id"]
    g = client.get(f"/api/games/{gid}").json()
    assert g["players"]["second"]["id"] == host["user"]["id"]  # the host gives stones: White
    assert sum(line.count("b") for line in g["position"]["grid"]) == 2
    assert g["to_move"] == "second"  # White moves first after the stones (Go 7.2)
    r = client.post(f"/api/games/{gid}/typed", json={"text": "e5", "ply": 1},
                    headers=host["headers"])
    assert r.status_code == 200 and r.json()["move"] == "E5"
    assert client.get(f"/api/games/{gid}/announce").json()["text"] == "第一台，白 E5"
    r = client.post(f"/api/games/{gid}/typed", json={"text": "Z99", "ply": 2},
                    headers=a["headers"])
    assert r.status_code == 422
    assert client.post(f"/api/games/{gid}/typed", json={"text": "停", "ply": 2},
                       headers=a["headers"]).status_code == 200
    sgf = client.get(f"/api/games/{gid}/record").text
    assert "EV[成都车轮战 (车轮战 simul)]" in sgf and "RO[1]" in sgf
    assert "Black played blindfold" in sgf


def test_the_arbiter_never_rules_on_a_board_he_plays(register: Any, client: TestClient) -> None:
    host, (a,), simul = host_and_entrants(client, register, 1)
    sid = simul["id"]
    client.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"])
    gid = client.post(f"/api/simuls/{sid}/start", headers=host["headers"]).json()["boards"][0][
        "game_id"]
    make_role(client, host["user"]["id"], Role.ADMIN)  # a site administrator rules on games
    rule = {"type": "warning", "side": "second", "clause": "17.4", "note": "x"}
    r = client.post(f"/api/games/{gid}/actions", json=rule, headers=host["headers"])
    assert r.status_code == 403 and "17.4" in r.json()["detail"]
    arb = register(client, "arb")
    make_role(client, arb["user"]["id"], Role.ARBITER)
    r = client.post(f"/api/games/{gid}/actions", json=rule, headers=arb["headers"])
    assert r.status_code == 200, r.text


def test_blindfold_seat_of_any_game(register: Any, client: TestClient) -> None:
    red, black, other = register(client, "red1"), register(client, "black1"), register(client, "other1")
    gid = client.post("/api/games", json={"color": "first", "time": None},
                      headers=red["headers"]).json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    r = client.post(f"/api/games/{gid}/blindfold", json={"on": True}, headers=other["headers"])
    assert r.status_code == 403
    assert client.post(f"/api/games/{gid}/blindfold", json={"on": True}).status_code == 401
    r = client.post(f"/api/games/{gid}/blindfold", json={"on": True}, headers=red["headers"])
    assert r.json() == {"blindfold": ["first"]}
    assert client.get(f"/api/games/{gid}").json()["blindfold"] == ["first"]
    client.post(f"/api/games/{gid}/typed", json={"text": "C2.5", "ply": 1}, headers=red["headers"])
    # not an exhibition board: announced without a board number
    assert client.get(f"/api/games/{gid}/announce").json()["text"] == "炮二平五"
    assert '[RedBlindfold "true"]' in client.get(f"/api/games/{gid}/record").text
    r = client.post(f"/api/games/{gid}/blindfold", json={"on": False}, headers=red["headers"])
    assert r.json() == {"blindfold": []}


def test_the_display_socket(register: Any, client: TestClient) -> None:
    host, (a, b), simul = host_and_entrants(client, register, 2)
    sid = simul["id"]
    for who in (a, b):
        client.post(f"/api/simuls/{sid}/join", json={}, headers=who["headers"])
    client.post(f"/api/simuls/{sid}/start", headers=host["headers"])
    url = f"/ws/simuls/{sid}"
    with client.websocket_connect(url, headers=host["headers"]) as wh, \
            client.websocket_connect(url, headers=a["headers"]) as wa, \
            client.websocket_connect(url) as spec:
        assert wh.receive_json()["simul"]["you"] == "host"
        first = [wh.receive_json(), wh.receive_json()]
        assert {m["board"] for m in first} == {1, 2}
        assert wa.receive_json()["simul"]["my_board"] == 1
        assert wa.receive_json()["board"] == 1  # only his own board in full
        spec.receive_json()
        spec.receive_json(), spec.receive_json()
        wh.send_json({"type": "move", "board": 2, "ply": 1, "move": "h2e2", "id": "m1"})
        got = [wh.receive_json() for _ in range(2)]
        ack = next(m for m in got if m["type"] == "ack")
        assert ack["board"] == 2 and ack["ply"] == 1
        upd = next(m for m in got if m["type"] == "board")
        assert upd["board"] == 2 and upd["msg"]["state"]["ply"] == 1
        assert spec.receive_json()["board"] == 2
        prog = wa.receive_json()  # the host's progress round the ring
        assert prog == {"type": "progress", "board": 2, "ply": 1, "host_to_move": False,
                        "over": False}
        # an entrant on another board, a spectator, a board that is not there
        wa.send_json({"type": "move", "board": 2, "ply": 2, "move": "h9g7", "id": "x"})
        err = wa.receive_json()
        assert err["type"] == "error" and err["status"] == 403
        spec.send_json({"type": "move", "board": 1, "ply": 1, "move": "h2e2"})
        assert spec.receive_json()["status"] == 401
        wh.send_json({"type": "move", "board": 9, "ply": 1, "move": "h2e2"})
        assert wh.receive_json()["status"] == 400
        wh.send_json({"type": "typed", "board": 1, "ply": 1, "text": "炮二平"})
        err = wh.receive_json()
        assert err["status"] == 422 and err["board"] == 1
        # a board ends: everyone gets the new score
        wa.send_json({"type": "resign", "board": 1, "id": "r"})
        seen = [wa.receive_json() for _ in range(3)]
        score = next(m for m in seen if m["type"] == "score")
        assert score["simul"]["score"]["zh"] == "1胜0和0负"


def test_pages_rated_guests_and_socket_frames(register: Any, client: TestClient) -> None:
    host, (a,), simul = host_and_entrants(client, register, 1, rated=True)
    sid = simul["id"]
    # a rated display: guests may not join (register first)
    client.cookies.clear()
    form = client.get("/api/auth/csrf").json()["csrf"]
    g = client.post("/api/auth/guest", headers={"X-CSRF-Token": form}).json()
    client.cookies.clear()
    r = client.post(f"/api/simuls/{sid}/join", json={},
                    headers={"Authorization": f"Bearer {g['token']}"})
    assert r.status_code == 403 and "guests" in r.json()["detail"]
    # a hostile name cannot end the page's JSON block
    h = host["headers"]
    evil = client.post("/api/simuls", json={"name": "</script><script>alert(1)</script>"},
                       headers=h).json()
    page = client.get(f"/simuls/{evil['id']}").text
    assert "</script><script>alert(1)" not in page and "\\u003C/script\\u003E" in page
    assert client.get("/simuls").status_code == 200
    assert 'id="new-simul"' not in client.get("/simuls").text  # anonymous: no form
    assert client.get("/simuls/424242").status_code == 404
    # the display's socket: only JSON text frames; an unknown display
    client.post(f"/api/simuls/{sid}/join", json={}, headers=a["headers"])
    client.post(f"/api/simuls/{sid}/start", headers=h)
    with client.websocket_connect(f"/ws/simuls/{sid}") as ws:
        ws.receive_json(), ws.receive_json()
        ws.send_text("not json")
        assert ws.receive_json() == {"type": "error", "status": 400, "message": "not JSON"}
        ws.send_bytes(b"\x00")
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 1003
    with client.websocket_connect("/ws/simuls/424242") as ws:
        assert ws.receive_json()["status"] == 404


def test_a_blindfold_host_and_alternate_colours(register: Any, client: TestClient) -> None:
    host, (a, b), simul = host_and_entrants(client, register, 2, host_blindfold=True,
                                            host_colour="alternate")
    sid = simul["id"]
    for who in (a, b):
        client.post(f"/api/simuls/{sid}/join", json={}, headers=who["headers"])
    boards = client.post(f"/api/simuls/{sid}/start", headers=host["headers"]).json()["boards"]
    assert [x["host_colour"] for x in boards] == ["red", "black"]
    g1 = client.get(f"/api/games/{boards[0]['game_id']}").json()
    g2 = client.get(f"/api/games/{boards[1]['game_id']}").json()
    # the host's seat is blindfold on every board, whatever his colour there
    assert g1["blindfold"] == ["first"] and g1["players"]["first"]["id"] == host["user"]["id"]
    assert g2["blindfold"] == ["second"] and g2["players"]["second"]["id"] == host["user"]["id"]
    view = client.get(f"/api/simuls/{sid}", headers=host["headers"]).json()
    assert view["waiting"] == [1] and view["order"] == [1, 2]  # board 2: the entrant is Red
    r = client.post(f"/api/games/{g2['id']}/typed", json={"text": "炮二平五", "ply": 1},
                    headers=b["headers"])
    assert r.status_code == 200
    r = client.post(f"/api/games/{g2['id']}/typed", json={"text": "馬8進7", "ply": 2},
                    headers=host["headers"])
    assert r.status_code == 200 and r.json()["move"] == "h9g7"
    said = client.get(f"/api/games/{g2['id']}/announce?lang=zh-Hant&ply=1").json()
    assert said["text"] == "第二台，炮二平五"  # 炮 is the same in traditional characters
    said = client.get(f"/api/games/{g2['id']}/announce?lang=zh-Hant").json()
    assert said["text"] == "第二台，馬8進7" and said["side"] == "second"
    pgn = client.get(f"/api/games/{g2['id']}/record").text
    assert '[BlackBlindfold "true"]' in pgn and '[Board "2"]' in pgn
