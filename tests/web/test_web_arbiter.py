"""The arbiter on a game: warnings, fouls and decisions through the API and
the game socket, with their clauses in the game's rulings and verdict; who
may use them (the arbiter role, not a player, not an arbiter playing in the
game); and the controls on the game page, shown to arbiters only."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role

from .test_web_socket import receive_until


def make_role(client: TestClient, user: dict[str, Any], role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user["user"]["id"], role)


def go_game(client: TestClient, black: dict[str, Any], white: dict[str, Any]) -> str:
    r = client.post("/api/games", json={"kind": "go", "ruleset": "chinese", "size": 9,
                                        "color": "first", "time": {"minutes": 10}},
                    headers=black["headers"])
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=white["headers"]).status_code == 200
    return gid


def act(client: TestClient, who: dict[str, Any], gid: str, **action: Any) -> Any:
    return client.post(f"/api/games/{gid}/actions", json=action, headers=who["headers"])


def test_only_an_arbiter_outside_the_game_rules_on_it(register: Any, client: TestClient) -> None:
    black, white, arb = register(client, "hei1"), register(client, "bai1"), register(client, "cai")
    gid = go_game(client, black, white)
    for who in (black, white, arb):  # players, and a player-role spectator
        r = act(client, who, gid, type="warning", side="first", clause="竞赛规定 12(2)")
        assert r.status_code == 403 and "arbiter role" in r.json()["detail"]
    make_role(client, black, Role.ARBITER)
    r = act(client, black, gid, type="warning", side="second", clause="竞赛规定 12(2)")
    assert r.status_code == 403 and "you play in this game" in r.json()["detail"]
    make_role(client, arb, Role.ARBITER)
    r = act(client, arb, gid, type="warning", side="first", clause="竞赛规定 12(2)",
            note="talking during play")
    assert r.status_code == 200, r.text
    st = client.get(f"/api/games/{gid}").json()
    assert st["warnings"] == {"first": 1, "second": 0}
    assert st["rulings"] == [{"kind": "warning", "side": "first", "clause": "竞赛规定 12(2)",
                              "note": "talking during play", "at": st["rulings"][0]["at"],
                              # the clause's place in the manual's Go text (issue 22)
                              "links": [{"clause": "竞赛规定 12(2)",
                                         "zh": "/manual/zh/rules/go.html#go-12",
                                         "en": "/manual/en/rules/go.html#go-12"}]}]
    # Go 12(2): a second warning in the game loses it; the verdict names the clause.
    r = act(client, arb, gid, type="warning", side="first", clause="竞赛规定 8(2)")
    assert r.status_code == 200
    res = client.get(f"/api/games/{gid}").json()["result"]
    assert res["reason"] == "two_warnings" and res["winner"] == "second"
    assert "12(2)" in res["clause"]
    r = act(client, arb, gid, type="foul", side="second", clause="x")
    assert r.status_code == 409  # the game is over


def test_arbiter_over_the_socket_reaches_players(register: Any, client: TestClient) -> None:
    red, black, arb = register(client, "hong2"), register(client, "hei2"), register(client, "cai2")
    make_role(client, arb, Role.ADMIN)  # a site administrator may do what an arbiter may
    r = client.post("/api/games", json={"kind": "xiangqi", "ruleset": "cxa", "color": "first"},
                    headers=red["headers"])
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    url = f"/ws/games/{gid}"
    with client.websocket_connect(url, headers=arb["headers"]) as wa, \
            client.websocket_connect(url, headers=red["headers"]) as wr:
        st = receive_until(wa, "state")["state"]
        assert st["you"] is None and st["rulings"] == []
        receive_until(wr, "state")
        # A player's socket cannot record a foul (403), the arbiter's can.
        wr.send_json({"type": "foul", "side": "second", "clause": "9.1", "id": "x"})
        err = receive_until(wr, "error")
        assert err["status"] == 403 and err["id"] == "x"
        wa.send_json({"type": "foul", "side": "first", "clause": "9.1", "note": "touch-move",
                      "id": "f1"})
        upd = receive_until(wr, "update")
        assert upd["notices"][0]["type"] == "foul" and upd["notices"][0]["clause"] == "9.1"
        assert upd["state"]["rulings"][0]["clause"] == "9.1"
        assert receive_until(wa, "ack")["id"] == "f1"
        wa.send_json({"type": "adjudicate", "outcome": "win", "winner": "second",
                      "reason": "misconduct", "clause": "4.1.10", "note": "refused the ruling",
                      "id": "d"})
        upd = receive_until(wr, "update")
        res = upd["state"]["result"]
        assert res["winner"] == "second" and res["reason"] == "misconduct"
        assert res["clause"] == "4.1.10" and "refused the ruling" in res["en"]
        # A decision without its clause is refused (400): every ruling rests on one.
        wa.send_json({"type": "adjudicate", "outcome": "draw", "reason": "adjudication",
                      "id": "e"})
        assert receive_until(wa, "error")["status"] in (400, 409)
    kinds = [e["kind"] for e in client.get(f"/api/games/{gid}/events").json()]
    assert kinds == ["start", "foul", "adjudicate"]


def test_the_page_shows_the_controls_to_arbiters_only(register: Any, client: TestClient) -> None:
    black, white, arb = register(client, "hei3"), register(client, "bai3"), register(client, "cai3")
    gid = go_game(client, black, white)
    make_role(client, arb, Role.ARBITER)
    page = client.get(f"/games/{gid}", headers=arb["headers"]).text
    assert 'id="arbiter"' in page and 'id="arb-warning"' in page and 'id="arb-decide"' in page
    for who in (black, white):
        assert 'id="arbiter"' not in client.get(f"/games/{gid}", headers=who["headers"]).text
    assert 'id="arbiter"' not in client.get(f"/games/{gid}").text
    make_role(client, black, Role.ARBITER)  # an arbiter playing the game gets no controls
    assert 'id="arbiter"' not in client.get(f"/games/{gid}", headers=black["headers"]).text
