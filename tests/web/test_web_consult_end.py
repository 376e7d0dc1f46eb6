"""Consultation boards that can end (issue 33 item 7): a group resigns and
offers, accepts or declines draws by its rule (the captain's word, or more
than half of the members present); who may not (a non-member, the
opponent, a spectator); the reserve capped at the side's time left so a
group with a move proposed never loses on time; an absent member costs the
reserve once, not on every split vote; votes in Chinese notation (7.5)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import FakeTime
from .test_web_consult import group_game, vote


@pytest.fixture
def trio(register: Any, client: TestClient) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    members = [register(client, n) for n in ("jia", "yi", "bing")]
    return members, register(client, "ding")


def act(client: TestClient, who: dict[str, Any] | None, gid: str, kind: str) -> Any:
    return client.post(f"/api/games/{gid}/actions", json={"type": kind},
                       headers=who["headers"] if who else {})


def state(client: TestClient, gid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/api/games/{gid}").json()
    return out


def wait_state(client: TestClient, gid: str, check: Any) -> dict[str, Any]:
    for _ in range(250):
        st = state(client, gid)
        if check(st):
            return st
        time.sleep(0.02)
    raise AssertionError(f"game {gid} never reached the state: {st}")


def test_the_group_resigns_by_majority_and_nobody_else_resigns_for_it(
        client: TestClient, trio: Any, register: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    outsider = register(client, "wu")
    # A member's resign (as a player would send it) is his support, not a 403.
    r = act(client, members[0], gid, "resign")
    assert r.status_code == 200, r.text
    assert r.json()["carried"] is False and r.json()["support"] == 1
    assert state(client, gid)["result"] is None
    assert act(client, members[0], gid, "resign").status_code == 409  # twice
    # Who may not: an outsider, the opponent (for the group), a visitor.
    r = client.post(f"/api/games/{gid}/group/motions", json={"type": "resign"},
                    headers=outsider["headers"])
    assert r.status_code == 403 and r.json()["zh"] == "你不是这一方的会商成员"
    assert act(client, outsider, gid, "resign").status_code == 403
    r = client.post(f"/api/games/{gid}/group/motions", json={"type": "resign"},
                    headers=opp["headers"])
    assert r.status_code == 403
    assert client.post(f"/api/games/{gid}/group/motions",
                       json={"type": "resign"}).status_code == 401
    assert client.post(f"/api/games/{gid}/group/motions", json={"type": "explode"},
                       headers=members[1]["headers"]).status_code == 422
    assert state(client, gid)["result"] is None
    # The second of three: more than half, the group (Red) resigns.
    r = client.post(f"/api/games/{gid}/group/motions", json={"type": "resign"},
                    headers=members[1]["headers"])
    assert r.status_code == 200 and r.json()["carried"] is True
    st = state(client, gid)
    assert st["result"]["pgn"] == "0-1"
    assert act(client, members[2], gid, "resign").status_code == 409  # over


def test_captain_mode_the_captain_alone_offers_and_the_opponent_accepts(
        client: TestClient, trio: Any) -> None:
    members, opp = trio
    cap = members[1]
    gid = group_game(client, members, opp, mode="captain", captain=cap["user"]["id"])
    # 23.1: a draw is offered right after one's own move.
    r = act(client, cap, gid, "offer_draw")
    assert r.status_code == 409 and state(client, gid)["result"] is None
    assert vote(client, cap, gid, "h2e2", confirm=True).json()["played"] == "h2e2"
    r = act(client, members[0], gid, "offer_draw")
    assert r.status_code == 403 and "captain" in r.json()["en"]
    r = act(client, cap, gid, "offer_draw")
    assert r.status_code == 200 and r.json()["carried"] is True
    assert act(client, opp, gid, "accept_draw").status_code == 200
    assert state(client, gid)["result"]["pgn"] == "1/2-1/2"


def test_the_group_accepts_the_opponents_draw_by_majority(
        client: TestClient, trio: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    assert vote(client, members[0], gid, "h2e2").status_code == 200
    assert vote(client, members[1], gid, "h2e2").json()["played"] == "h2e2"
    r = client.post(f"/api/games/{gid}/actions", headers=opp["headers"],
                    json={"type": "move", "ply": 2, "move": "h9g7", "offer_draw": True})
    assert r.status_code == 200, r.text
    assert act(client, members[2], gid, "accept_draw").json()["carried"] is False
    assert state(client, gid)["result"] is None
    view = client.get(f"/api/games/{gid}/group", headers=members[0]["headers"]).json()
    assert view["motions"] == {"accept_draw": 1}
    assert act(client, members[0], gid, "accept_draw").json()["carried"] is True
    assert state(client, gid)["result"]["pgn"] == "1/2-1/2"


def test_the_reserve_is_capped_at_the_time_left(
        client: TestClient, trio: Any, clock: FakeTime) -> None:
    """Half a minute on the clock, a 60 s reserve, one vote cast: the move
    is played before the flag (today the group lost on time at 30.9 s)."""
    members, opp = trio
    gid = group_game(client, members, opp, reserve=60)
    # The 10-minute game of group_game is too long: this one has 30 s.
    body = {"kind": "xiangqi", "color": "first", "time": {"minutes": 0.5},
            "members": [m["user"]["id"] for m in members], "reserve": 60}
    r = client.post("/api/consultations", json=body, headers=members[0]["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for who in members[1:]:
        client.post(f"/api/games/{gid}/group/answer", json={"accept": True},
                    headers=who["headers"])
    assert client.post(f"/api/games/{gid}/join", headers=opp["headers"]).status_code == 200
    assert vote(client, members[0], gid, "b2e2").json()["played"] is None
    view = client.get(f"/api/games/{gid}/group", headers=members[0]["headers"]).json()
    assert view["deadline"] - view["now"] == pytest.approx(28, abs=0.5)  # 30 s less 2 s
    clock.advance(28.5)
    st = wait_state(client, gid, lambda s: s["ply"] == 1 or s["result"])
    assert st["result"] is None and [m["move"] for m in st["moves"]] == ["b2e2"]


def test_an_absent_member_costs_the_reserve_once(
        client: TestClient, trio: Any, clock: FakeTime) -> None:
    members, opp = trio
    gid = group_game(client, members, opp, reserve=30)
    vote(client, members[0], gid, "h2e2")
    vote(client, members[1], gid, "b2e2")  # split; bing never votes
    clock.advance(31)
    wait_state(client, gid, lambda s: s["ply"] == 1)
    r = client.post(f"/api/games/{gid}/actions", headers=opp["headers"],
                    json={"type": "move", "ply": 2, "move": "h9g7"})
    assert r.status_code == 200
    view = client.get(f"/api/games/{gid}/group", headers=members[0]["headers"]).json()
    assert view["absent"] == [str(members[2]["user"]["id"])]
    # Split again: both members present have voted, bing is not waited for.
    vote(client, members[0], gid, "b0c2", ply=3)
    r = vote(client, members[1], gid, "h0g2", ply=3)
    assert r.json()["played"] == "b0c2"  # a 1-1 tie: the first proposed
    # bing votes again: present, waited for on the next split.
    opp_move = client.post(f"/api/games/{gid}/actions", headers=opp["headers"],
                           json={"type": "move", "ply": 4, "move": "b9c7"})
    assert opp_move.status_code == 200
    vote(client, members[2], gid, "i0i1", ply=5)
    assert vote(client, members[0], gid, "a0a1", ply=5).json()["played"] is None
    assert vote(client, members[1], gid, "g3g4", ply=5).json()["played"] == "i0i1"


def test_votes_in_chinese_notation_and_the_tally_in_both(
        client: TestClient, trio: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    r = vote(client, members[0], gid, "炮二平五")
    assert r.status_code == 200, r.text
    assert r.json()["tally"] == [["h2e2", 1]] and r.json()["texts"] == {"h2e2": "炮二平五"}
    r = vote(client, members[1], gid, "马二进三")
    assert r.json()["tally"] == [["h2e2", 1], ["h0g2", 1]]
    r = vote(client, members[2], gid, "车一平二")  # blocked by its own horse (clause 2)
    assert r.status_code == 400 and r.json()["clause"] == "7.5" and "车一平二" in r.json()["zh"]
    r = vote(client, members[2], gid, "炮二平五")
    assert r.json()["played"] == "h2e2"
