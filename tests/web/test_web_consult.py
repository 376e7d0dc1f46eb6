"""Consultation boards (会商 / 联棋, issue 21 item 3) through the API and the
game socket: creating a group side, majority and captain decisions, the
reserve running out, refusals (non-member, out of turn, twice, illegal)
that change nothing, who sees the group's talk, and the record naming all
members."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.store.models import Role

from .conftest import FakeTime
from .test_web_arbiter import make_role
from .test_web_socket import receive_until


def group_game(client: TestClient, members: list[dict[str, Any]], opponent: dict[str, Any],
               **extra: Any) -> str:
    body = {"kind": "xiangqi", "color": "first", "time": {"minutes": 10},
            "members": [m["user"]["id"] for m in members], **extra}
    r = client.post("/api/consultations", json=body, headers=members[0]["headers"])
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    accept(client, gid, members[1:])
    r = client.post(f"/api/games/{gid}/join", headers=opponent["headers"])
    assert r.status_code == 200, r.text
    return gid


def accept(client: TestClient, gid: str, invited: list[dict[str, Any]]) -> None:
    """Each invited member accepts (issue 31: a member joins by his own answer)."""
    for who in invited:
        r = client.post(f"/api/games/{gid}/group/answer", json={"accept": True},
                        headers=who["headers"])
        assert r.status_code == 200, r.text


def vote(client: TestClient, who: dict[str, Any], gid: str, move: str, ply: int = 1,
         **extra: Any) -> Any:
    return client.post(f"/api/games/{gid}/group/votes", json={"ply": ply, "move": move, **extra},
                       headers=who["headers"])


@pytest.fixture
def trio(register: Any, client: TestClient) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    members = [register(client, n) for n in ("jia", "yi", "bing")]
    return members, register(client, "ding")


def test_majority_move_is_played_once_more_than_half_agree(
        client: TestClient, trio: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    r = vote(client, members[0], gid, "h2e2")
    assert r.status_code == 200 and r.json()["played"] is None
    assert r.json()["tally"] == [["h2e2", 1]]
    r = vote(client, members[1], gid, "b2e2")
    assert r.json()["played"] is None
    assert client.get(f"/api/games/{gid}").json()["moves"] == []
    # The third vote gives h2e2 two of three: more than half, played at once.
    r = vote(client, members[2], gid, "h2e2")
    assert r.status_code == 200 and r.json()["played"] == "h2e2"
    st = client.get(f"/api/games/{gid}").json()
    assert [m["move"] for m in st["moves"]] == ["h2e2"]
    assert st["to_move"] == "second"


def test_refusals_change_nothing(client: TestClient, trio: Any, register: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    outsider = register(client, "wu")
    r = vote(client, outsider, gid, "h2e2")
    assert r.status_code == 403 and r.json()["zh"] == "你不是这一方的会商成员"
    r = vote(client, opp, gid, "h2e2")  # the opponent is no member either
    assert r.status_code == 403
    # Out of turn: ply 2 is the opponent's.
    r = vote(client, members[0], gid, "h7e7", ply=2)
    assert r.status_code == 409 and r.json()["en"] == "it is not your side's turn to move"
    # An illegal move gets the rule book's reason (a horse may not jump so).
    r = vote(client, members[0], gid, "h0h5")
    assert r.status_code == 400 and r.json()["zh"]
    assert vote(client, members[0], gid, "h2e2").status_code == 200
    r = vote(client, members[0], gid, "b2e2")
    assert r.status_code == 409 and r.json()["zh"] == "你已经投过票"
    view = client.get(f"/api/games/{gid}/group", headers=members[1]["headers"]).json()
    assert view["tally"] == [["h2e2", 1]] and view["voted"] == [str(members[0]["user"]["id"])]
    assert client.get(f"/api/games/{gid}").json()["moves"] == []
    # Nobody moves for the group directly: members hold no seat.
    r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1, "move": "h2e2"},
                    headers=members[1]["headers"])
    assert r.status_code == 403
    # Bounds: a move too long, a ply out of range.
    assert vote(client, members[1], gid, "x" * 9).status_code == 422
    assert vote(client, members[1], gid, "h2e2", ply=0).status_code == 422


def test_captain_confirms_and_others_only_advise(client: TestClient, trio: Any) -> None:
    members, opp = trio
    cap = members[1]["user"]["id"]
    gid = group_game(client, members, opp, mode="captain", captain=cap)
    assert vote(client, members[0], gid, "h2e2").json()["played"] is None
    assert vote(client, members[2], gid, "h2e2").json()["played"] is None  # all but captain
    r = vote(client, members[0], gid, "b2e2", confirm=True)
    assert r.status_code == 409 and r.json()["en"] == "only the captain confirms the move"
    r = vote(client, members[1], gid, "b2e2", confirm=True)
    assert r.json()["played"] == "b2e2"
    assert [m["move"] for m in client.get(f"/api/games/{gid}").json()["moves"]] == ["b2e2"]


def test_reserve_running_out_decides_by_votes_cast(
        client: TestClient, trio: Any, clock: FakeTime) -> None:
    members, opp = trio
    gid = group_game(client, members, opp, reserve=30)
    assert vote(client, members[0], gid, "c3c4").json()["played"] is None
    clock.advance(31)  # the group's reserved seconds are over: the tick decides
    for _ in range(200):
        moves = client.get(f"/api/games/{gid}").json()["moves"]
        if moves:
            break
        time.sleep(0.02)
    assert [m["move"] for m in moves] == ["c3c4"]


def test_group_talk_is_seen_by_members_and_arbiters_only(
        client: TestClient, trio: Any, register: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    arb, outsider = register(client, "caipan"), register(client, "kan")
    make_role(client, arb, Role.ARBITER)
    r = client.post(f"/api/games/{gid}/group/talk", json={"text": "炮二平五？"},
                    headers=members[0]["headers"])
    assert r.status_code == 200
    for who in (members[2],):
        talk = client.get(f"/api/games/{gid}/group", headers=who["headers"]).json()["talk"]
        assert [m["text"] for m in talk] == ["炮二平五？"]
    r = client.get(f"/api/games/{gid}/group?side=first", headers=arb["headers"])
    assert r.status_code == 200 and r.json()["talk"][0]["text"] == "炮二平五？"
    for who in (opp, outsider):
        r = client.get(f"/api/games/{gid}/group?side=first", headers=who["headers"])
        assert r.status_code == 403
        r = client.post(f"/api/games/{gid}/group/talk", json={"text": "hi"},
                        headers=who["headers"])
        assert r.status_code == 403
    # An arbiter who is a member plays in the game: he may not rule on it (17.4).
    make_role(client, members[2], Role.ARBITER)
    r = client.post(f"/api/games/{gid}/actions", headers=members[2]["headers"],
                    json={"type": "warning", "side": "second", "clause": "x"})
    assert r.status_code == 403 and "you play in this game" in r.json()["detail"]
    # Bounds.
    r = client.post(f"/api/games/{gid}/group/talk", json={"text": "x" * 501},
                    headers=members[0]["headers"])
    assert r.status_code == 422


def test_socket_votes_and_talk_reach_the_group_only(
        client: TestClient, trio: Any) -> None:
    members, opp = trio
    gid = group_game(client, members, opp)
    with client.websocket_connect(f"/ws/games/{gid}", headers=members[0]["headers"]) as a, \
            client.websocket_connect(f"/ws/games/{gid}", headers=opp["headers"]) as o:
        receive_until(a, "state")
        receive_until(o, "state")
        o.send_json({"type": "group_vote", "ply": 1, "move": "h2e2", "id": "x"})
        err = receive_until(o, "error")
        assert err["status"] == 403 and err["id"] == "x"
        a.send_json({"type": "group_talk", "text": "走中炮", "id": "t"})
        assert receive_until(a, "group_talk")["message"]["text"] == "走中炮"
        a.send_json({"type": "group_vote", "ply": 1, "move": "h2e2", "id": "v"})
        assert receive_until(a, "group_vote")["tally"] == [["h2e2", 1]]
        vote(client, members[1], gid, "h2e2")
        assert receive_until(a, "group_vote")["played"] == "h2e2"
        # The opponent sees the move, never the group's talk or votes.
        seen = []
        while True:
            msg = o.receive_json()
            seen.append(msg["type"])
            if msg["type"] == "update" and msg["state"].get("to_move") == "second":
                break
        assert "group_talk" not in seen and "group_vote" not in seen


def test_record_names_all_members_and_joining_against_own_group_is_refused(
        client: TestClient, trio: Any, register: Any) -> None:
    members, opp = trio
    body = {"kind": "xiangqi", "color": "second", "members": [m["user"]["id"] for m in members]}
    r = client.post("/api/consultations", json=body, headers=members[0]["headers"])
    gid = r.json()["id"]
    accept(client, gid, members[1:])
    r = client.post(f"/api/games/{gid}/join", headers=members[1]["headers"])
    assert r.status_code == 409
    assert client.post(f"/api/games/{gid}/join", headers=opp["headers"]).status_code == 200
    pgn = client.get(f"/api/games/{gid}/record").text
    assert '[Black "jia、yi、bing"]' in pgn and '[Red "ding"]' in pgn
    # issue 32.8: the page names the group's side by its members, never "group-…"
    second = client.get(f"/api/games/{gid}").json()["players"]["second"]
    assert second["display_name"] == "jia、yi、bing" and "group-" not in second["display_name"]


def test_bad_groups_are_refused(client: TestClient, trio: Any, register: Any) -> None:
    members, _ = trio
    ids = [m["user"]["id"] for m in members]
    h = members[0]["headers"]
    cases = [{"members": ids[1:]},                        # creator not a member
             {"members": [ids[0]]},                       # fewer than 2
             {"members": [ids[0], ids[0]]},               # listed twice
             {"members": ids, "mode": "captain"},         # captain mode, no captain
             {"members": ids, "captain": 999999},         # captain not a member
             {"members": ids + [999999]},                 # no such account
             {"members": ids, "reserve": 0},
             {"members": list(range(1, 60))}]             # too many
    for body in cases:
        r = client.post("/api/consultations", json=body, headers=h)
        assert r.status_code == 422, (body, r.text)
    assert client.post("/api/consultations", json={"members": ids}).status_code == 401


def test_go_group_votes_a_point_and_the_sgf_names_all_members(
        client: TestClient, trio: Any) -> None:
    members, opp = trio
    body = {"kind": "go", "ruleset": "go-casual", "color": "first",
            "members": [m["user"]["id"] for m in members[:2]]}
    r = client.post("/api/consultations", json=body, headers=members[0]["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    accept(client, gid, members[1:2])
    assert client.post(f"/api/games/{gid}/join", headers=opp["headers"]).status_code == 200
    r = vote(client, members[0], gid, "Z99")
    assert r.status_code == 400  # not a point of the board
    assert vote(client, members[0], gid, "D4").json()["played"] is None
    # Two members: D4 needs both (more than half of two).
    assert vote(client, members[1], gid, "D4").json()["played"] == "D4"
    sgf = client.get(f"/api/games/{gid}/record").text
    assert "PB[jia、yi]" in sgf and "PW[ding]" in sgf and ";B[" in sgf


def test_a_group_plays_against_the_engine(client: TestClient, trio: Any) -> None:
    from .test_web_go import wait_for

    members, _ = trio
    body = {"kind": "xiangqi", "color": "first", "opponent": "engine", "engine": "builtin",
            "members": [m["user"]["id"] for m in members[:2]]}
    # the engine is checked as for a game of one player (play/new_games.py)
    r = client.post("/api/consultations", json=body | {"engine": "nosuch"},
                    headers=members[0]["headers"])
    assert r.status_code == 422 and "not configured on this server" in r.json()["detail"]
    r = client.post("/api/consultations", json=body, headers=members[0]["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    accept(client, gid, members[1:2])
    vote(client, members[0], gid, "h2e2")
    assert vote(client, members[1], gid, "h2e2").json()["played"] == "h2e2"
    st = wait_for(client, gid, lambda s: s["ply"] >= 2, "the engine's reply")
    assert st["moves"][1]["side"] == "second"


def test_a_simul_group_entrant_names_accounts_only() -> None:
    from qisai.competition.simul import SimulEntrant
    from qisai.referee.consultation import ConsultationError
    from qisai.web.exhibitions.group_games import member_ids

    e = SimulEntrant("group:3", "第三组", members=("user:7", "user:9"))
    assert member_ids(e.members) == [7, 9]
    with pytest.raises(ConsultationError, match="user:ID"):
        member_ids(("user:7", "engine:fairy-stockfish"))
