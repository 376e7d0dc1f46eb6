"""Casual comfort (issue 17 item 3): takeback by agreement and the rematch
in casual games; neither in rated or event games, where a move made stands
(落子无悔) and the server refuses both; who may ask and answer.

Run on SQLite, and on PostgreSQL when ``QISAI_TEST_POSTGRES_URL`` is set.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from qisai.xiangqi import Board, Move

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def new_game(client: TestClient, who: dict[str, Any], **body: Any) -> dict[str, Any]:
    body.setdefault("color", "first")
    r = client.post("/api/games", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def act(client: TestClient, who: dict[str, Any], gid: str, **action: Any) -> Any:
    return client.post(f"/api/games/{gid}/actions", json=action, headers=who["headers"])


def state(client: TestClient, gid: str, who: dict[str, Any] | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=(who or {}).get("headers", {}))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def fen_after(*moves: str) -> str:
    """The position after ``moves`` from the start, by the rules core."""
    b = Board()
    for m in moves:
        b.push(Move.from_iccs(m))
    return str(b.fen())


def two_players(client: TestClient, register: Any, **body: Any) -> tuple[Any, Any, str]:
    red, black = register(client, "red"), register(client, "black")
    g = new_game(client, red, kind="xiangqi", **body)
    assert client.post(f"/api/games/{g['id']}/join", headers=black["headers"]).status_code == 200
    return red, black, g["id"]


def test_takeback_of_one_and_of_two_plies_by_agreement(register: Any, client: TestClient,
                                                       clock: Any) -> None:
    red, black, gid = two_players(client, register, time={"minutes": 10, "increment": 0})
    outsider = register(client, "xx")
    assert state(client, gid)["comfort"] == {"casual": True, "takeback": None,
                                             "rematch_offer": None, "rematch": None}
    # Nothing to take back before one's own move.
    r = act(client, red, gid, type="takeback_offer")
    assert r.status_code == 409 and r.json()["code"] == "takeback_nothing"
    clock.advance(3)
    assert act(client, red, gid, type="move", ply=1, move="h2e2").status_code == 200
    # A spectator may neither ask nor answer.
    for kind in ("takeback_offer", "takeback_accept", "takeback_decline"):
        r = act(client, outsider, gid, type=kind)
        assert r.status_code == 403 and r.json()["code"] == "not_a_player", r.text
    # Answering an offer nobody made is refused; asking twice is one offer.
    assert act(client, black, gid, type="takeback_accept").json()["code"] == "takeback_none"
    assert act(client, red, gid, type="takeback_offer").status_code == 200
    assert act(client, red, gid, type="takeback_offer").json()["duplicate"] is True
    assert state(client, gid)["comfort"]["takeback"] == "first"
    # The proposer cannot accept his own offer.
    assert act(client, red, gid, type="takeback_accept").json()["code"] == "takeback_none"
    clock.advance(2)
    r = act(client, black, gid, type="takeback_accept")
    assert r.status_code == 200 and r.json()["plies"] == 1
    st = state(client, gid)
    assert st["ply"] == 0 and st["moves"] == [] and st["to_move"] == "first"
    assert st["position"]["fen"].split(" ")[0] == START.split(" ")[0]
    assert st["comfort"]["takeback"] is None
    # The clocks go back with the position: Red's clock runs on from the
    # start (5 s gone), Black's is untouched.
    assert abs(st["clocks"]["first"] - 595) < 0.01 and st["clocks"]["second"] == 600

    # Two plies: Red moves, Black replies, Red asks: both go.
    assert act(client, red, gid, type="move", ply=1, move="b2e2").status_code == 200
    assert act(client, black, gid, type="move", ply=2, move="h9g7").status_code == 200
    assert act(client, red, gid, type="takeback_offer").status_code == 200
    r = act(client, black, gid, type="takeback_accept")
    assert r.status_code == 200 and r.json()["plies"] == 2
    assert state(client, gid)["ply"] == 0

    # A declined offer changes nothing; a move lapses an offer.
    assert act(client, red, gid, type="move", ply=1, move="h2e2").status_code == 200
    assert act(client, red, gid, type="takeback_offer").status_code == 200
    assert act(client, black, gid, type="takeback_decline").status_code == 200
    st = state(client, gid)
    assert st["ply"] == 1 and st["comfort"]["takeback"] is None
    assert act(client, red, gid, type="takeback_offer").status_code == 200
    assert act(client, black, gid, type="move", ply=2, move="h9g7").status_code == 200
    assert state(client, gid)["comfort"]["takeback"] is None
    assert act(client, black, gid, type="takeback_accept").json()["code"] == "takeback_none"
    # Play goes on from the position after the takeback, by the rules core.
    assert act(client, red, gid, type="move", ply=3, move="h0g2").status_code == 200
    assert state(client, gid)["position"]["fen"] == fen_after("h2e2", "h9g7", "h0g2")

    # The log keeps the takeback: a reload from the database (a restart)
    # replays to the same game; the record has only the moves that stand.
    hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
    before = state(client, gid)
    hub.forget(gid)
    after = state(client, gid)
    assert after["position"] == before["position"] and after["ply"] == 3
    assert [m["move"] for m in after["moves"]] == ["h2e2", "h9g7", "h0g2"]
    kinds = [e["kind"] for e in client.get(f"/api/games/{gid}/events").json()]
    assert kinds.count("takeback_accept") == 2 and "takeback_decline" in kinds
    pgn = client.get(f"/api/games/{gid}/record").text
    assert "炮二平五" in pgn and "炮八平五" not in pgn


def test_rated_games_have_no_takeback_or_rematch(register: Any, client: TestClient) -> None:
    red, black, gid = two_players(client, register, rated=True)
    assert state(client, gid)["comfort"]["casual"] is False
    assert act(client, red, gid, type="move", ply=1, move="h2e2").status_code == 200
    for who, kind in ((red, "takeback_offer"), (black, "takeback_accept"),
                      (black, "takeback_decline"), (red, "rematch")):
        r = act(client, who, gid, type=kind)
        assert r.status_code == 403, r.text
        body = r.json()
        assert body["code"] == "comfort_rated" and "落子无悔" in body["zh"]
        assert "rated" in body["detail"].lower()
    assert act(client, black, gid, type="resign").status_code == 200
    assert act(client, red, gid, type="rematch").json()["code"] == "comfort_rated"
    assert state(client, gid)["ply"] == 1
    kinds = [e["kind"] for e in client.get(f"/api/games/{gid}/events").json()]
    assert not [k for k in kinds if "takeback" in k or "rematch" in k]


def test_event_games_have_no_takeback_or_rematch(register: Any, client: TestClient) -> None:
    from qisai.store import repo
    from qisai.store.models import Role

    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    wang, li = register(client, "wang"), register(client, "li")
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Live", "system": "round_robin"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in ("wang", "li"):
        client.post(f"{base}/entries", json={"username": name}, headers=h)
    client.post(f"{base}/start", headers=h)
    ev = client.post(f"{base}/rounds", headers=h).json()
    gid = ev["rounds"][0]["boards"][0]["game"]
    st = state(client, gid)
    assert st["comfort"]["casual"] is False
    first = wang if st["players"]["first"]["name"] == "wang" else li
    second = li if first is wang else wang
    assert act(client, first, gid, type="move", ply=1, move="h2e2").status_code == 200
    for who, kind in ((first, "takeback_offer"), (second, "takeback_accept"),
                      (first, "rematch")):
        r = act(client, who, gid, type=kind)
        assert r.status_code == 403 and r.json()["code"] == "comfort_event", r.text
    assert state(client, gid)["ply"] == 1


def test_rematch_swaps_colours_once_both_ask(register: Any, client: TestClient) -> None:
    red, black, gid = two_players(client, register, time={"minutes": 5})
    outsider = register(client, "xx")
    r = act(client, red, gid, type="rematch")
    assert r.status_code == 409 and r.json()["code"] == "rematch_not_over"
    assert act(client, red, gid, type="move", ply=1, move="h2e2").status_code == 200
    assert act(client, black, gid, type="resign").status_code == 200
    assert act(client, outsider, gid, type="rematch").status_code == 403
    r = act(client, black, gid, type="rematch")
    assert r.status_code == 200 and "rematch" not in r.json()
    assert state(client, gid)["comfort"]["rematch_offer"] == "second"
    r = act(client, red, gid, type="rematch")
    assert r.status_code == 200
    new = r.json()["rematch"]
    assert act(client, black, gid, type="rematch").json()["rematch"] == new  # made once
    st = state(client, new, black)
    assert st["you"] == "first" and st["players"]["first"]["name"] == "black"
    assert st["players"]["second"]["name"] == "red"
    assert st["status"] == "active" and st["phase"] == "playing"
    assert st["clocks"]["first"] == 300 and st["comfort"]["casual"] is True
    assert state(client, gid)["comfort"]["rematch"] == new


def test_takeback_and_rematch_against_the_engine_are_at_once(register: Any,
                                                             client: TestClient) -> None:
    me = register(client, "human")
    g = new_game(client, me, kind="xiangqi", opponent="engine", color="first")
    gid = g["id"]

    def wait_ply(game: str, n: int) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            st = state(client, game)
            if st["ply"] >= n and st["engine_status"] is None:
                return st
            time.sleep(0.05)
        raise AssertionError(f"the engine did not reach ply {n}")

    assert act(client, me, gid, type="move", ply=1, move="h2e2").status_code == 200
    wait_ply(gid, 2)
    r = act(client, me, gid, type="takeback_offer")
    assert r.status_code == 200 and r.json()["plies"] == 2
    st = state(client, gid)
    assert st["ply"] == 0 and st["to_move"] == "first"
    assert act(client, me, gid, type="move", ply=1, move="b2e2").status_code == 200
    st = wait_ply(gid, 2)
    assert st["moves"][0]["move"] == "b2e2"
    assert act(client, me, gid, type="resign").status_code == 200
    r = act(client, me, gid, type="rematch")
    assert r.status_code == 200
    new = r.json()["rematch"]
    st = wait_ply(new, 1)  # the engine has Red now and moves first
    assert st["players"]["first"]["engine"] is True and state(client, new, me)["you"] == "second"


def test_takeback_on_the_socket_and_its_rate(register: Any, client: TestClient) -> None:
    from qisai.web.security import RateLimiter
    from tests.web.test_web_socket import receive_until

    red, black, gid = two_players(client, register)
    url = f"/ws/games/{gid}"
    with client.websocket_connect(url, headers=red["headers"]) as wr, \
            client.websocket_connect(url, headers=black["headers"]) as wb, \
            client.websocket_connect(url) as spec:
        for ws in (wr, wb, spec):
            receive_until(ws, "state")
        wr.send_json({"type": "move", "ply": 1, "move": "h2e2", "id": "m"})
        receive_until(wr, "ack")
        # Anonymous spectators cannot act at all (401).
        spec.send_json({"type": "takeback_offer", "id": "s"})
        err = receive_until(spec, "error")
        assert err["status"] == 401 and err["id"] == "s"
        def notice(ws: Any, kind: str) -> dict[str, Any]:
            for _ in range(10):
                upd: dict[str, Any] = receive_until(ws, "update")
                if upd["notices"] and upd["notices"][0]["type"] == kind:
                    return upd
            raise AssertionError(f"no {kind} notice")

        wr.send_json({"type": "takeback_offer", "id": "t"})
        upd = notice(wb, "takeback_offer")
        assert upd["notices"][0]["type"] == "takeback_offer"
        assert upd["notices"][0]["zh"] == "红方请求悔棋"
        assert upd["state"]["comfort"]["takeback"] == "first"
        assert receive_until(wr, "ack")["id"] == "t"
        wb.send_json({"type": "takeback_accept", "id": "a"})
        upd = notice(wr, "takeback_accept")
        assert upd["notices"][0]["type"] == "takeback_accept" and upd["state"]["ply"] == 0
        assert upd["state"]["last_move"] is None
        # Offers and answers are limited like moves.
        hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
        hub.move_limiter = RateLimiter(1, 60.0, burst=1)
        assert act(client, red, gid, type="takeback_offer").json()["code"] == "takeback_nothing"
        r = act(client, red, gid, type="takeback_offer")
        assert r.status_code == 429 and r.json()["code"] == "too_fast"
