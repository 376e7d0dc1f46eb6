"""Go through the API: moves, two passes, dead stones agreed, the count;
against qisai's built-in engine too, which takes part in the agreement
(4(4)); and the page offers only the actions of the rule profile."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from qisai.go.board import Board
from qisai.go.coords import gtp_name, parse_gtp
from qisai.go.deadstones import estimate_dead
from qisai.go.rules import Color
from qisai.referee.events import Event, EventType
from qisai.referee.go_game import GoGame
from qisai.referee.rulesets import ruleset
from qisai.referee.verdict import Side
from qisai.web.seats.opponents import agreement_actions, agreement_due


def test_go_two_passes_dead_stones_and_count(register: Any, client: TestClient) -> None:
    black, white = register(client, "hei"), register(client, "bai")
    r = client.post("/api/games", json={"kind": "go", "ruleset": "chinese", "size": 5,
                                        "color": "first", "time": {"minutes": 10}},
                    headers=black["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", headers=white["headers"])

    def act(who: dict[str, Any], **action: Any) -> Any:
        return client.post(f"/api/games/{gid}/actions", json=action, headers=who["headers"])

    assert act(black, type="move", ply=1, move="C3").status_code == 200
    assert act(white, type="move", ply=2, move="A1").status_code == 200
    # An occupied point: under the Chinese rules the move is void, counts as a
    # pass, with no warning (10, 11(1): 判着手无效，弃权一次).
    r = act(black, type="move", ply=3, move="C3")
    assert r.status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["position"]["grid"][2][2] == "b" and st["position"]["grid"][4][0] == "w"
    assert st["position"]["last"] == "pass" and st["warnings"]["first"] == 0
    assert act(white, type="pass", ply=4).status_code == 200
    st = client.get(f"/api/games/{gid}").json()
    assert st["phase"] == "scoring"
    assert act(white, type="mark_dead", points=["A1"]).status_code == 200
    assert client.get(f"/api/games/{gid}").json()["position"]["dead"] == ["A1"]
    r = act(white, type="confirm_dead")  # the side to move (Black) confirms first: 4(4)
    assert r.status_code == 409 and "confirms first" in r.json()["detail"]
    assert act(black, type="confirm_dead").status_code == 200
    assert act(white, type="confirm_dead").status_code == 200
    res = client.get(f"/api/games/{gid}").json()["result"]
    assert res["reason"] == "score" and res["winner"] == "first" and res["unit"] == "子"
    sgf = client.get(f"/api/games/{gid}/record").text
    assert "SZ[5]" in sgf and ";B[cc]" in sgf and ";W[ae]" in sgf and "RE[B+" in sgf


# --------------------------------------------------------------- engines
def wait_for(client: TestClient, gid: str, pred: Any, what: str, seconds: float = 30
             ) -> dict[str, Any]:
    """Poll the game until ``pred(state)``; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while True:
        st: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if pred(st):
            return st
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: {st}")
        time.sleep(0.02)


def board_of(st: dict[str, Any]) -> Board:
    """The position of a Go state, rebuilt from its moves."""
    board = Board(st["position"]["size"])
    for mv in st["moves"]:
        point = parse_gtp(mv["move"], board.size)
        if point is None:
            board.pass_move()
        else:
            board.play(point)
    return board


def pass_until_scoring(client: TestClient, who: dict[str, Any], side: str, gid: str
                       ) -> dict[str, Any]:
    """Pass in every turn of ``who`` (playing ``side``) until the dead-stone phase."""
    st = client.get(f"/api/games/{gid}").json()
    for _ in range(40):
        if st["phase"] != "playing":
            return st
        ply = st["ply"]
        if st["to_move"] == side:
            r = client.post(f"/api/games/{gid}/actions", json={"type": "pass", "ply": ply + 1},
                            headers=who["headers"])
            assert r.status_code == 200, r.text
            ply += 1
        st = wait_for(client, gid, lambda s, p=ply: s["phase"] != "playing" or s["ply"] > p,
                      "the engine's answer")
    raise AssertionError(f"no dead-stone phase after 40 passes: {st}")


def test_go_against_the_built_in_engine_to_the_count(register: Any, client: TestClient) -> None:
    client.app.state.qisai.hub.engine_think = 0.05  # type: ignore[attr-defined]
    me = register(client, "kuroishi")
    r = client.post("/api/games", json={"kind": "go", "ruleset": "go-casual", "size": 5,
                                        "opponent": "engine", "color": "first"},
                    headers=me["headers"])
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"]
    assert g["players"]["second"]["engine"] is True
    assert "offer_draw" not in g["actions"] and "pass" in g["actions"]

    def act(**action: Any) -> Any:
        return client.post(f"/api/games/{gid}/actions", json=action, headers=me["headers"])

    assert act(type="move", ply=1, move="C3").status_code == 200
    wait_for(client, gid, lambda s: s["ply"] >= 2, "the engine's first move")
    st = pass_until_scoring(client, me, "first", gid)
    assert st["phase"] == "scoring"
    # The engine's opinion is qisai's estimate of the final position.
    board = board_of(st)
    own = sorted(gtp_name(p, 5) for p in estimate_dead(board))
    st = wait_for(client, gid, lambda s: s["position"]["dead"] == own, "the engine's marking")
    # Mark a group the engine holds alive: it does not accept that marking
    # but proposes its own again, when it is its turn to confirm or when we
    # confirm ours (4(4): the side to move confirms first).
    alive = next(gtp_name(p, 5) for c in (Color.WHITE, Color.BLACK) for p in board.stones(c)
                 if gtp_name(p, 5) not in own)
    assert act(type="mark_dead", points=[alive]).status_code == 200
    if client.get(f"/api/games/{gid}").json()["to_move"] == "first":
        assert act(type="confirm_dead").status_code == 200
    st = wait_for(client, gid, lambda s: s["position"]["dead"] == own, "the engine's own marking")
    events = client.get(f"/api/games/{gid}/events").json()
    marks = [e for e in events if e["kind"] == "mark_dead"]
    assert marks[-1]["data"]["side"] == "second" and alive in marks[-1]["data"]["points"]
    # Now we accept the engine's marking; it confirms in its turn and the count ends the game.
    assert act(type="confirm_dead").status_code == 200
    st = wait_for(client, gid, lambda s: s["result"] is not None, "the count")
    assert st["result"]["reason"] == "score" and st["phase"] == "over"
    kinds = [e["kind"] for e in client.get(f"/api/games/{gid}/events").json()]
    assert kinds.count("confirm_dead") >= 2 and kinds[-1] == "confirm_dead"


def scoring_game() -> GoGame:
    """A 5x5 game in its dead-stone phase: Black C1 C2 C3 C4 C5 (a wall),
    White D3, a lone black stone at E1 (Black to move: White passed last)."""
    game = GoGame(ruleset("go-casual", board_size=5), now=None)
    game.start(at=0)
    t = 1.0
    for b, w in (("C1", "D3"), ("C2", "A1"), ("C3", "pass"), ("C4", "pass"), ("C5", "pass"),
                 ("E1", "pass"), ("pass", "pass")):
        for side, mv in ((Side.FIRST, b), (Side.SECOND, w)):
            if game.phase.value != "playing":
                break
            game.apply(Event(EventType.PASS if mv == "pass" else EventType.MOVE, t, side,
                             move=None if mv == "pass" else mv))
            t += 1
    assert game.phase.value == "scoring"
    return game


def test_engine_dead_stone_agreement_follows_4_4() -> None:
    game = scoring_game()
    first = game.to_move
    engine = first.other  # the engine confirms second
    a1 = frozenset({parse_gtp("A1", 5)})
    assert agreement_due(game, engine)
    # At the start it proposes its opinion (the A1 stone) and waits.
    acts = agreement_actions(game, engine, {p for p in a1 if p is not None})
    assert [(e.type, e.points) for e in acts] == [(EventType.MARK_DEAD, ("A1",))]
    game.mark_dead(engine, ["A1"], at=100)
    assert not agreement_due(game, engine)  # the other side confirms first
    # The opponent marks D3 too: still his turn, the engine waits ...
    game.mark_dead(first, ["D3"], at=101)
    assert agreement_actions(game, engine, a1) == []  # type: ignore[arg-type]
    # ... he confirms a marking the engine disagrees with: it proposes its own.
    game.confirm_dead(first, at=102)
    acts = agreement_actions(game, engine, a1)  # type: ignore[arg-type]
    assert [(e.type, e.points) for e in acts] == [(EventType.MARK_DEAD, ("D3",))]
    game.mark_dead(engine, ["D3"], dead=False, at=103)
    assert sorted(game.dead) == sorted(a1)
    # He confirms the engine's marking: it accepts, and the count follows.
    game.confirm_dead(first, at=104)
    acts = agreement_actions(game, engine, a1)  # type: ignore[arg-type]
    assert [e.type for e in acts] == [EventType.CONFIRM_DEAD]
    game.apply(Event(EventType.CONFIRM_DEAD, 105, engine))
    assert game.is_over and game.result is not None and game.result.reason.value == "score"


def test_engine_confirms_first_when_it_is_to_move() -> None:
    game = scoring_game()
    engine = game.to_move
    # A partial group in its opinion counts as the whole group (C1..C5).
    c1 = frozenset({parse_gtp("C1", 5)})
    acts = agreement_actions(game, engine, c1)  # type: ignore[arg-type]
    assert [e.type for e in acts] == [EventType.MARK_DEAD, EventType.CONFIRM_DEAD]
    for e in acts:
        game.apply(Event(e.type, 200, e.side, points=e.points))
    assert len(game.dead) == 5 and not agreement_due(game, engine)
    # An empty opinion with nothing marked: it confirms at once.
    game = scoring_game()
    acts = agreement_actions(game, game.to_move, frozenset())
    assert [e.type for e in acts] == [EventType.CONFIRM_DEAD]


def test_go_page_shows_only_the_actions_of_the_profile(register: Any, client: TestClient) -> None:
    a, b = register(client, "aka"), register(client, "ao")
    go = client.post("/api/games", json={"kind": "go", "size": 9, "color": "first"},
                     headers=a["headers"]).json()
    client.post(f"/api/games/{go['id']}/join", headers=b["headers"])
    page = client.get(f"/games/{go['id']}").text
    assert 'id="offer-draw"' not in page and 'id="accept-draw"' not in page
    assert 'id="pass"' in page and 'id="confirm-dead"' in page
    assert client.get(f"/api/games/{go['id']}").json()["actions"] == [
        "move", "resign", "pass", "mark_dead", "confirm_dead", "dispute_dead"]
    # The Go rules have no draw by agreement: the referee refuses an offer.
    r = client.post(f"/api/games/{go['id']}/actions", json={"type": "offer_draw"},
                    headers=a["headers"])
    assert r.status_code in (400, 409)
    xq = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                     headers=a["headers"]).json()
    page = client.get(f"/games/{xq['id']}").text
    assert 'id="offer-draw"' in page and 'id="pass"' not in page
    assert "offer_draw" in xq["actions"] and "claim" in xq["actions"]
