"""The REST API: accounts, roles, CSRF, games, moves, exactly-once, errors."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"  # b0b9 mates


def new_game(client: TestClient, who: dict[str, Any], **body: Any) -> dict[str, Any]:
    body.setdefault("color", "first")
    r = client.post("/api/games", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def play(client: TestClient, who: dict[str, Any], game_id: str, **action: Any) -> Any:
    return client.post(f"/api/games/{game_id}/actions", json=action, headers=who["headers"])


def test_register_login_logout_and_me(register: Any, client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "wang", "password": "wangs own pw"})
    assert r.status_code == 201
    assert client.get("/api/me").json()["username"] == "wang"  # the cookie logs in
    csrf = r.json()["csrf"]
    assert client.post("/api/auth/logout").status_code == 403  # cookie without CSRF token
    assert client.post("/api/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert client.get("/api/me").status_code == 401
    bad = client.post("/api/auth/login", json={"username": "wang", "password": "wrongpass"})
    assert bad.status_code == 401 and "wrong user name or password" in bad.json()["detail"]
    ok = client.post("/api/auth/login", json={"username": "WANG", "password": "wangs own pw"})
    assert ok.status_code == 200 and ok.json()["user"]["role"] == "player"
    taken = client.post("/api/auth/register", json={"username": "Wang", "password": "wangs own pw"})
    assert taken.status_code == 409 and "username" in taken.json()["detail"]


def test_validation_errors_name_the_field(register: Any, client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "x", "password": "short"})
    assert r.status_code == 422
    assert "username" in r.json()["detail"] and "password" in r.json()["detail"]
    r = client.post("/api/auth/register", json={"username": "a b<c>", "password": "wangs own pw"})
    assert r.status_code == 422 and "username" in r.json()["detail"]


def test_login_is_rate_limited(register: Any, client: TestClient) -> None:
    register(client, "li")
    codes = [client.post("/api/auth/login", json={"username": "li", "password": "badbadbad"}
                         ).status_code for _ in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]


def test_passwords_are_stored_as_argon2_hashes(register: Any, client: TestClient) -> None:
    register(client, "zhao", "my secret pw")
    from qisai.store import repo

    db = client.app.state.qisai.db  # type: ignore[attr-defined]
    with db.session() as s:
        stored = repo.find_user(s, "zhao").password_hash  # type: ignore[union-attr]
    assert stored.startswith("$argon2id$") and "my secret pw" not in stored


def test_only_administrators_change_roles(register: Any, client: TestClient) -> None:
    a = register(client, "org")
    b = register(client, "pl")
    r = client.put(f"/api/users/{b['user']['id']}/role", json={"role": "arbiter"},
                   headers=a["headers"])
    assert r.status_code == 403 and "admin" in r.json()["detail"]
    from qisai.store import repo
    from qisai.store.models import Role

    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, a["user"]["id"], Role.ORGANISER)
    r = client.put(f"/api/users/{b['user']['id']}/role", json={"role": "arbiter"},
                   headers=a["headers"])
    assert r.status_code == 403  # an organiser no longer gives site roles (issue 14.7)
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, a["user"]["id"], Role.ADMIN)
    r = client.put(f"/api/users/{b['user']['id']}/role", json={"role": "arbiter"},
                   headers=a["headers"])
    assert r.status_code == 200 and r.json()["role"] == "arbiter"
    r = client.put("/api/users/999/role", json={"role": "arbiter"}, headers=a["headers"])
    assert r.status_code == 404


def test_guest_plays_casual_but_not_rated(register: Any, client: TestClient) -> None:
    form = client.get("/api/auth/csrf").json()["csrf"]
    g = client.post("/api/auth/guest", headers={"X-CSRF-Token": form}).json()
    client.cookies.clear()
    hdr = {"Authorization": f"Bearer {g['token']}"}
    assert g["user"]["guest"] is True
    r = client.post("/api/games", json={"kind": "xiangqi", "rated": True}, headers=hdr)
    assert r.status_code == 422 and "guests" in r.json()["detail"]
    r = client.post("/api/games", json={"kind": "xiangqi"}, headers=hdr)
    assert r.status_code == 201 and r.json()["status"] == "waiting"
    assert r.json()["invite"].endswith(f"/games/{r.json()['id']}")


def test_bad_game_settings_are_422_with_the_field(register: Any, client: TestClient) -> None:
    a = register(client, "a1")
    r = client.post("/api/games", json={"kind": "xiangqi", "ruleset": "japanese"},
                    headers=a["headers"])
    assert r.status_code == 422 and "not a xiangqi rule profile" in r.json()["detail"]
    r = client.post("/api/games", json={"kind": "xiangqi", "time": {"minutes": -3}},
                    headers=a["headers"])
    assert r.status_code == 422 and "time.minutes" in r.json()["detail"]
    r = client.post("/api/games", json={"kind": "xiangqi", "fen": "rubbish"}, headers=a["headers"])
    assert r.status_code == 422 and "start position" in r.json()["detail"]


def test_a_game_is_played_move_by_move_with_exactly_once_moves(register: Any, client: TestClient,
                                                               clock: Any) -> None:
    red, black, other = register(client, "red"), register(client, "black"), register(client, "xx")
    g = new_game(client, red, kind="xiangqi", time={"minutes": 10, "increment": 0})
    gid = g["id"]
    assert g["you"] == "first"
    r = play(client, red, gid, type="move", ply=1, move="h2e2")
    assert r.status_code == 409 and "not started" in r.json()["detail"]
    j = client.post(f"/api/games/{gid}/join", headers=black["headers"])
    assert j.status_code == 200 and j.json()["you"] == "second" and j.json()["phase"] == "playing"
    assert client.post(f"/api/games/{gid}/join", headers=other["headers"]).status_code == 409

    clock.advance(3)
    first = play(client, red, gid, type="move", ply=1, move="h2e2", id="m1")
    assert first.status_code == 200 and first.json()["duplicate"] is False
    again = play(client, red, gid, type="move", ply=1, move="h2e2", id="m1")
    assert again.status_code == 200 and again.json()["duplicate"] is True
    state = client.get(f"/api/games/{gid}").json()
    assert state["ply"] == 1 and [m["move"] for m in state["moves"]] == ["h2e2"]
    assert state["moves"][0]["text"] == "炮二平五"
    # Wrong user, wrong turn, stale and future plies, malformed input.
    r = play(client, other, gid, type="move", ply=2, move="h9g7")
    assert r.status_code == 403 and "not a player" in r.json()["detail"]
    r = play(client, red, gid, type="move", ply=2, move="b2e2")
    assert r.status_code == 409
    r = play(client, black, gid, type="move", ply=1, move="h9g7")
    assert r.status_code == 409 and "already played" in r.json()["detail"]
    r = play(client, black, gid, type="move", ply=5, move="h9g7")
    assert r.status_code == 409 and "next ply is 2" in r.json()["detail"]
    r = play(client, black, gid, type="move", move="h9g7")
    assert r.status_code == 400 and "ply" in r.json()["detail"]
    r = play(client, black, gid, type="teleport")
    assert r.status_code == 400 and "unknown action" in r.json()["detail"]
    r = play(client, black, gid, type="move", ply=2, move="h9h1")  # casual: refused, no loss
    assert r.status_code == 400 and "cannot move" in r.json()["detail"]
    clock.advance(5)
    assert play(client, black, gid, type="move", ply=2, move="h9g7").status_code == 200
    state = client.get(f"/api/games/{gid}").json()
    assert state["ply"] == 2 and state["clocks"]["first"] == 597.0
    assert state["clocks"]["second"] == 595.0 and state["clocks"]["running"] == "first"
    events = client.get(f"/api/games/{gid}/events").json()
    assert [e["kind"] for e in events] == ["start", "move", "move"]
    assert [e["ply"] for e in events] == [None, 1, 2]
    # Resignation ends it with a reason and a clause.
    r = play(client, black, gid, type="resign")
    assert r.status_code == 200
    res = client.get(f"/api/games/{gid}").json()["result"]
    assert res["reason"] == "resignation" and res["pgn"] == "1-0" and res["clause"] == "4.1.9"
    assert "认输" in res["zh"]
    r = play(client, red, gid, type="move", ply=3, move="h0g2")
    assert r.status_code == 409 and "over" in r.json()["detail"]
    summary = client.get("/api/games", params={"user_id": red["user"]["id"]}).json()
    assert summary[0]["result"] == "1-0" and summary[0]["status"] == "finished"


def test_checkmate_gives_the_verdict_and_rated_games_move_ratings(register: Any, client: TestClient) -> None:
    red, black = register(client, "r2"), register(client, "b2")
    g = new_game(client, red, kind="xiangqi", ruleset="cxa", fen=MATE_IN_ONE, rated=True,
                 time={"minutes": 5})
    client.post(f"/api/games/{g['id']}/join", headers=black["headers"])
    assert play(client, red, g["id"], type="move", ply=1, move="b0b9").status_code == 200
    res = client.get(f"/api/games/{g['id']}").json()["result"]
    assert res["reason"] == "checkmate" and res["winner"] == "first" and "4.1.1" in res["clause"]
    prof = client.get(f"/api/users/{red['user']['id']}").json()
    assert prof["user"]["rating"] == 1510.0 and prof["history"][0]["after"] == 1510.0
    assert client.get(f"/api/users/{black['user']['id']}").json()["user"]["rating"] == 1490.0


def test_draw_offer_and_acceptance(register: Any, client: TestClient) -> None:
    red, black = register(client, "r3"), register(client, "b3")
    g = new_game(client, red, kind="xiangqi")
    client.post(f"/api/games/{g['id']}/join", headers=black["headers"])
    play(client, red, g["id"], type="move", ply=1, move="h2e2")
    assert play(client, red, g["id"], type="offer_draw").status_code == 200
    assert client.get(f"/api/games/{g['id']}").json()["offer"] == "first"
    assert play(client, black, g["id"], type="accept_draw").status_code == 200
    res = client.get(f"/api/games/{g['id']}").json()["result"]
    assert res["outcome"] == "draw" and res["reason"] == "agreement"


def test_flag_fall_is_ruled_by_the_ticker(register: Any, client: TestClient, clock: Any) -> None:
    import time

    red, black = register(client, "r4"), register(client, "b4")
    g = new_game(client, red, kind="xiangqi", time={"minutes": 1})
    client.post(f"/api/games/{g['id']}/join", headers=black["headers"])
    clock.advance(61)
    deadline = time.monotonic() + 60  # a hang bound: the ticker rules at once
    res = None
    while time.monotonic() < deadline:
        res = client.get(f"/api/games/{g['id']}").json()["result"]
        if res:
            break
        time.sleep(0.05)
    assert res is not None and res["reason"] == "time_forfeit" and res["winner"] == "second"
    kinds = [e["kind"] for e in client.get(f"/api/games/{g['id']}/events").json()]
    assert kinds == ["start", "tick"]


def test_unknown_game_is_404(register: Any, client: TestClient) -> None:
    assert client.get("/api/games/nope").status_code == 404
    a = register(client, "a5")
    assert play(client, a, "nope", type="resign").status_code == 404


def test_pgn_download_has_the_moves_in_chinese_clocks_and_result(register: Any,
                                                                  client: TestClient) -> None:
    red, black = register(client, "r6"), register(client, "b6")
    g = new_game(client, red, kind="xiangqi", time={"minutes": 10})
    client.post(f"/api/games/{g['id']}/join", headers=black["headers"])
    play(client, red, g["id"], type="move", ply=1, move="h2e2")
    play(client, black, g["id"], type="move", ply=2, move="h9g7")
    play(client, red, g["id"], type="resign")
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    text = r.text
    assert '[Red "r6"]' in text and '[Black "b6"]' in text and '[Result "0-1"]' in text
    assert "炮二平五" in text and "马8进7" in text and "[%clk 0:10:00]" in text
    from qisai.xiangqi.pgn import parse_pgn

    back = parse_pgn(text)[0]
    assert [m.iccs() for m in back.mainline_moves()] == ["h2e2", "h9g7"]
    # One writer, the referee's (issue 34.3): the download replays into the
    # same game, Red's resignation (4.1.9) giving 0-1, with the arena's
    # headers beside the referee's own.
    from qisai.referee.records import xiangqi_from_pgn

    game = xiangqi_from_pgn(text)
    assert [m.move for m in game.moves] == ["h2e2", "h9g7"]
    assert game.result is not None and game.result.pgn_result == "0-1"
    assert game.result.reason.value == back.headers["Termination"] == "resignation"
    assert back.headers["Site"] == "qisai" and back.headers["RedType"] == "human"
    assert "FEN" not in back.headers  # the standard start needs none


def test_playing_the_built_in_engine(register: Any, client: TestClient) -> None:
    import time

    me = register(client, "human")
    r = client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine", "rated": True},
                    headers=me["headers"])
    assert r.status_code == 422 and "not rated" in r.json()["detail"]
    g = new_game(client, me, kind="xiangqi", opponent="engine", color="second")
    assert g["players"]["first"]["engine"] is True and g["you"] == "second"
    gid = g["id"]

    def wait_ply(n: int) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            st: dict[str, Any] = client.get(f"/api/games/{gid}").json()
            if st["ply"] >= n:
                return st
            time.sleep(0.05)
        raise AssertionError(f"the engine did not reach ply {n}")

    st = wait_ply(1)  # the engine has Red and moves first
    assert st["to_move"] == "second"
    frm, tos = next(iter(st["position"]["legal"].items()))
    assert play(client, me, gid, type="move", ply=2, move=frm + tos[0]).status_code == 200
    st = wait_ply(3)
    assert st["moves"][2]["side"] == "first" and st["result"] is None
    events = client.get(f"/api/games/{gid}/events").json()
    assert [e["kind"] for e in events] == ["start", "move", "move", "move"]


def test_arbiter_records_fouls_and_adjudicates(register: Any, client: TestClient) -> None:
    red, black, arb = register(client, "r7"), register(client, "b7"), register(client, "arb")
    g = new_game(client, red, kind="xiangqi", ruleset="cxa", time={"minutes": 10})
    client.post(f"/api/games/{g['id']}/join", headers=black["headers"])
    r = play(client, arb, g["id"], type="foul", side="first", clause="9.1", note="touch-move")
    assert r.status_code == 403 and "arbiter" in r.json()["detail"]
    r = play(client, red, g["id"], type="foul", side="second", clause="9.1")
    assert r.status_code == 403  # players cannot record fouls either
    from qisai.store import repo
    from qisai.store.models import Role

    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, arb["user"]["id"], Role.ARBITER)
    r = play(client, arb, g["id"], type="foul", side="first", clause="5", note="touch-move")
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{g['id']}").json()["fouls"] == {"first": 1, "second": 0}
    r = play(client, arb, g["id"], type="adjudicate", outcome="draw", reason="no_win_possible",
             clause="4.2.1")
    assert r.status_code == 200, r.text
    res = client.get(f"/api/games/{g['id']}").json()["result"]
    assert res["outcome"] == "draw" and res["clause"] == "4.2.1"
    events = client.get(f"/api/games/{g['id']}/events").json()
    assert [e["kind"] for e in events] == ["start", "foul", "adjudicate"]
    r = play(client, arb, g["id"], type="adjudicate", outcome="sideways", reason="x", clause="1")
    assert r.status_code in (400, 409)
