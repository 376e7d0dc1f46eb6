"""The Go count on the game's state (issue 32.4): after two passes every
point's owner, the arithmetic as the seed writes it, and who confirms next
(4(4): the side to move first, then the other); a count nobody confirms
ends by the time limit (``count_limit``) with the board counted as marked,
and is no longer in play."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from .test_web_go import wait_for


def walled_game(client: TestClient, register: Any) -> tuple[str, Any]:
    black, white = register(client, "hei"), register(client, "bai")
    r = client.post("/api/games", json={"kind": "go", "ruleset": "go-casual", "size": 9,
                                        "color": "first", "time": None},
                    headers=black["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=white["headers"]).status_code == 200

    def act(who: dict[str, Any], **action: Any) -> Any:
        return client.post(f"/api/games/{gid}/actions", json=action, headers=who["headers"])

    ply = 0
    for row in range(1, 10):
        for who, col in ((black, "E"), (white, "F")):
            ply += 1
            assert act(who, type="move", ply=ply, move=f"{col}{row}").status_code == 200
    ply += 1
    assert act(black, type="move", ply=ply, move="B5").status_code == 200
    ply += 1
    assert act(white, type="move", ply=ply, move="C5").status_code == 200  # dead in Black's area
    assert act(black, type="pass", ply=ply + 1).status_code == 200
    assert act(white, type="pass", ply=ply + 2).status_code == 200
    return gid, (black, white, act)


def test_the_count_shows_owners_arithmetic_and_who_confirms(register: Any,
                                                            client: TestClient) -> None:
    gid, (black, white, act) = walled_game(client, register)
    st = client.get(f"/api/games/{gid}").json()
    assert st["phase"] == "scoring"
    pos = st["position"]
    # Black passed last but one: Black is to move, so Black confirms first (4(4))
    assert pos["confirm"] == {"done": [], "next": "first"}
    # Nothing marked yet: C5 is a White stone, alive until marked (4(5))
    assert "C5" not in pos["count"]["black"] and pos["count"]["dead"] == []
    assert act(black, type="mark_dead", points=["C5"]).status_code == 200
    pos = client.get(f"/api/games/{gid}").json()["position"]
    count = pos["count"]
    assert count["dead"] == ["C5"] and "C5" in count["black"] and "A1" in count["black"]
    assert "J9" in count["white"] and count["dame"] == [] and count["scoring"] == "area"
    assert [line["zh"] for line in count["lines"]] == [
        "黑方 10 子 + 35 空 = 45 子", "白方 9 子 + 27 空 = 36 子", "贴 3¾ 子：45 − 3¾ = 41¼ 子",
        "归本数 40½ 子（81 点的一半）：41¼ > 40½，黑胜 ¾ 子"]
    assert act(white, type="confirm_dead").status_code == 409  # not White's turn to confirm
    assert act(black, type="confirm_dead").status_code == 200
    pos = client.get(f"/api/games/{gid}").json()["position"]
    assert pos["confirm"] == {"done": ["first"], "next": "second"}
    assert act(white, type="confirm_dead").status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["result"]["winner"] == "first" and st["result"]["reason"] == "score"
    assert st["position"]["count"]["final"] is True and "confirm" not in st["position"]


def test_a_count_left_unconfirmed_ends_by_the_time_limit(register: Any, client: TestClient,
                                                          clock: Any) -> None:
    hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
    assert hub.count_limit == 600.0  # the setting's default (QISAI_COUNT_LIMIT)
    gid, (black, white, act) = walled_game(client, register)
    assert act(black, type="mark_dead", points=["C5"]).status_code == 200
    clock.advance(599)
    time.sleep(0.3)  # several ticks (0.05 s): under the limit nothing happens
    st = client.get(f"/api/games/{gid}").json()
    assert st["phase"] == "scoring" and st["result"] is None and st["status"] == "active"
    # as after a restart: the game is stored, not loaded; it is looked at all the same
    hub.forget(gid)
    assert gid not in hub.games
    clock.advance(61)  # past the limit, and past the next look at the stored games (60 s)
    # (the stored row is watched, not the API, which would load the game itself)
    from qisai.store import repo

    db = client.app.state.qisai.db  # type: ignore[attr-defined]
    deadline = time.monotonic() + 20
    while True:
        with db.session() as s:
            if repo.get_game(s, gid).status != "active":
                break
        assert time.monotonic() < deadline, "the count was not ruled by the time limit"
        time.sleep(0.05)
    st = wait_for(client, gid, lambda s: s["result"] is not None, "the count by the time limit")
    res = st["result"]
    assert res["winner"] == "first" and res["reason"] == "score"
    assert "胜负判别" in res["clause"]  # the count itself, with the marked stones
    assert st["status"] != "active"
    listed = client.get("/api/games", params={"status": "active"}).json()
    assert gid not in [g["id"] for g in listed]
    events = client.get(f"/api/games/{gid}/events").json()
    last = events[-1]
    assert last["kind"] == "adjudicate" and last["data"]["clause"] == "竞赛规定 4(4), 4(5)"
    assert "10 min" in last["data"]["note"] and "10 分钟" in last["data"]["note"]
