"""Issue 17: refusals reach the page as a sentence in Chinese and English
with the clause (never with ids or timestamps); the state says which
actions are allowed now and which Go points are forbidden; engines answer
draw offers; engine games' records name the engine."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from .test_web_api import new_game, play
from .test_web_go import wait_for

TIMESTAMP = re.compile(r"\d{6,}(\.\d+)?")


def started(client: TestClient, register: Any, **body: Any) -> tuple[dict[str, Any],
                                                                      dict[str, Any], str]:
    red, black = register(client, "red"), register(client, "black")
    gid = new_game(client, red, **body)["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    return red, black, gid


def assert_clean(body: dict[str, Any], gid: str) -> None:
    for key in ("detail", "zh", "en"):
        assert gid not in body[key], body
        assert not TIMESTAMP.search(body[key]), body


def test_refusals_are_sentences_in_both_languages_with_the_clause(
        register: Any, client: TestClient) -> None:
    red, black, gid = started(client, register, kind="xiangqi", ruleset="casual")
    # A blocked horse (b0-d1: the elephant on c0 stands on its leg).
    r = play(client, red, gid, type="move", ply=1, move="b0d1")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "horse_leg" and "蹩马腿" in body["zh"] and "horse" in body["en"]
    assert body["clause"] == "2.2"
    assert_clean(body, gid)
    # A draw offer before one's own move (23.1).
    r = play(client, red, gid, type="offer_draw")
    assert r.status_code == 409
    body = r.json()
    assert body["code"] == "offer_after_own_move" and body["clause"] == "23.1"
    assert "提和" in body["zh"] and "offered" in body["en"]
    assert_clean(body, gid)
    # Out of turn.
    r = play(client, black, gid, type="move", ply=1, move="h9g7")
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    assert_clean(r.json(), gid)
    # The page asks why before it would send a move it cannot show as legal.
    why = client.get(f"/api/games/{gid}/why", params={"move": "b0d1"}).json()
    assert why["legal"] is False and why["code"] == "horse_leg"
    assert client.get(f"/api/games/{gid}/why", params={"move": "b0c2"}).json() == {"legal": True}


def test_a_move_into_check_and_facing_generals_are_named(register: Any,
                                                        client: TestClient) -> None:
    # Black's general on e9 is checked by the chariot on e1; Red's general on d0.
    fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 b"
    _, _, gid = started(client, register, kind="xiangqi", ruleset="casual", fen=fen)
    why = client.get(f"/api/games/{gid}/why", params={"move": "e9e8"}).json()
    assert why["code"] == "into_check" and why["clause"] == "4.1.6"
    why = client.get(f"/api/games/{gid}/why", params={"move": "e9d9"}).json()
    assert why["code"] == "facing" and "对面" in why["zh"]
    assert client.get(f"/api/games/{gid}/why", params={"move": "e9f9"}).json()["legal"] is True


def test_the_state_says_which_actions_are_allowed_now(register: Any,
                                                      client: TestClient) -> None:
    red, black, gid = started(client, register, kind="xiangqi", ruleset="cxa")
    st = client.get(f"/api/games/{gid}", headers=red["headers"]).json()
    assert st["allowed"]["first"]["offer_draw"]["code"] == "offer_after_own_move"
    assert st["allowed"]["first"]["claim"]["code"] == "claim_false"
    assert st["allowed"]["second"]["claim"]["code"] == "claim_own_turn"
    assert play(client, red, gid, type="move", ply=1, move="h2e2").status_code == 200
    st = client.get(f"/api/games/{gid}", headers=red["headers"]).json()
    assert "offer_draw" not in st["allowed"]["first"]
    assert st["allowed"]["second"]["offer_draw"]["code"] == "offer_after_own_move"
    assert play(client, red, gid, type="offer_draw").status_code == 200
    assert play(client, black, gid, type="decline_draw").status_code == 200
    assert play(client, black, gid, type="move", ply=2, move="h9g7").status_code == 200
    assert play(client, red, gid, type="move", ply=3, move="h0g2").status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    # 23.1: offers alternate; offering again after a refusal would be a foul.
    assert st["allowed"]["first"]["offer_draw"]["code"] == "offer_twice"


def test_go_forbidden_points_come_with_the_state(register: Any, client: TestClient) -> None:
    red, black, gid = started(client, register, kind="go", ruleset="go-casual", size=9)
    for ply, (who, mv) in enumerate([(red, "E5"), (black, "A2"), (red, "E6"), (black, "B1")], 1):
        assert play(client, who, gid, type="move", ply=ply, move=mv).status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["position"]["forbidden"] == {"A1": "suicide"}
    why = client.get(f"/api/games/{gid}/why", params={"move": "A1"}).json()
    assert why["code"] == "go_suicide" and "禁着点" in why["zh"] and why["clause"] == "竞赛规定 10"
    r = play(client, red, gid, type="move", ply=5, move="A1")
    assert r.status_code == 400 and r.json()["code"] == "go_suicide"
    assert_clean(r.json(), gid)


def test_engine_games_name_the_engine_in_the_record(register: Any, client: TestClient) -> None:
    me = register(client, "me")
    g = new_game(client, me, kind="xiangqi", opponent="engine", engine="builtin")
    pgn = client.get(f"/api/games/{g['id']}/record").text
    assert '[Black "qisai builtin"]' in pgn and '"?"' not in pgn
    g = new_game(client, me, kind="go", opponent="engine", engine="builtin", size=9,
                 ruleset="go-casual")
    sgf = client.get(f"/api/games/{g['id']}/record").text
    assert "PW[qisai builtin]" in sgf


def test_the_builtin_engine_answers_a_draw_offer(register: Any, client: TestClient) -> None:
    client.app.state.qisai.hub.engine_think = 0.2  # type: ignore[attr-defined]
    me = register(client, "me")
    g = new_game(client, me, kind="xiangqi", opponent="engine", engine="builtin")
    gid = g["id"]
    assert "offer_draw" in g["actions"]
    # The offer goes with the move (23.1: right after it), before the engine can move.
    r = play(client, me, gid, type="move", ply=1, move="h2e2", offer_draw=True)
    assert r.status_code == 200, r.text
    # The engine declines (a level opening is not a drawn game: issue 32.7), then moves.
    wait_for(client, gid, lambda s: s["offer"] is None and (s["result"] or s["ply"] >= 2),
             "the engine's answer")
    events = [e["kind"] for e in client.get(f"/api/games/{gid}/events").json()]
    assert "decline_draw" in events and "accept_draw" not in events


def test_engines_answer_draw_offers_from_their_own_score() -> None:
    import asyncio
    import shlex
    import sys

    from qisai.referee.verdict import Side
    from qisai.web.seats.draws import accepts_draw
    from qisai.web.seats.opponents import UciXiangqiSeat, XiangqiRequest, parse_spec
    from qisai.xiangqi import Board

    losing = Board("3k5/9/9/9/9/9/9/9/R8/4K4 b")  # Black (the engine) a chariot down
    winning = Board("3k5/9/9/9/9/9/9/9/r8/4K4 b")  # Black a chariot up
    level = Board("5k3/9/9/2r6/9/9/6R2/9/9/3K5 b")  # a chariot each: level

    async def answers(seat: Any, board: Any, margin: int = 30) -> bool:
        return await accepts_draw(seat, XiangqiRequest(board, 0.2, 20.0), Side.SECOND, "xiangqi",
                                  margin)

    spec = parse_spec(shlex.join([sys.executable, "-m", "qisai.engines.builtin.xiangqi_server"]))

    async def uci() -> tuple[bool, bool, bool, bool]:
        seat = UciXiangqiSeat(spec, "qisai-uci")
        try:
            # neither a lost nor a won ending is drawn; a level one is, within the margin
            return (await answers(seat, losing), await answers(seat, winning),
                    await answers(seat, level), await answers(seat, level, margin=-1))
        finally:
            await seat.close()

    assert asyncio.run(uci()) == (False, False, True, False)


def test_socket_errors_and_no_clock_and_rule_names(register: Any, client: TestClient) -> None:
    red, black, gid = started(client, register, kind="go", ruleset="go-casual", size=9,
                              time=None)
    st = client.get(f"/api/games/{gid}").json()
    assert st["clocks"] is None  # "No clock": not the profile's two hours
    with client.websocket_connect(f"/ws/games/{gid}", headers=red["headers"]) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "move", "ply": 1, "move": "E5", "id": "x"})
        while ws.receive_json()["type"] != "ack":
            pass
        ws.send_json({"type": "move", "ply": 2, "move": "E4", "id": "y"})
        err = ws.receive_json()
        while err["type"] != "error":
            err = ws.receive_json()
    assert err["code"] == "not_your_turn" and err["zh"] == "现在不是你走棋" and err["en"]
    assert gid not in err["message"] and not TIMESTAMP.search(err["message"])
    page = client.get("/", headers={"Accept-Language": "zh-CN"}).text
    assert ">casual<" not in page
    assert client.get("/favicon.ico").status_code == 200
