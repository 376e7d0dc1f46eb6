"""The legal moves a game's state lists (issue 29.4): listed once per
position and shared by every socket and page of the game, they must still
be exactly the position's legal moves after every move, a takeback and a
reload, and no caller may change what the next one is given.

The truth is Fairy-Stockfish's own move generator (``go perft 1``), and the
44 moves of the opening position (象棋 perft 1 = 44).
"""

from __future__ import annotations

import random
import subprocess
from typing import Any

from fastapi.testclient import TestClient

START_MOVES = 44
"""Legal moves of the Xiangqi opening position (perft 1)."""


def fsf_moves(fairy: str, fen: str) -> set[str]:
    """The legal moves of ``fen`` by Fairy-Stockfish, in ICCS (ranks 0-9;
    the engine counts ranks 1-10: ``a1a2``, ``a10a9``)."""
    full = fen if len(fen.split()) >= 6 else f"{fen} - - 0 1"
    out = subprocess.run([fairy], input=f"uci\nsetoption name UCI_Variant value xiangqi\n"
                         f"position fen {full}\ngo perft 1\nquit\n",
                         capture_output=True, text=True, timeout=30).stdout
    moves = set()
    for line in out.splitlines():
        move, _, count = line.partition(": ")
        if count.strip() != "1" or not move[:1].isalpha():
            continue
        i = next(j for j in range(1, len(move)) if move[j].isalpha())
        moves.add(f"{move[0]}{int(move[1:i]) - 1}{move[i]}{int(move[i + 1:]) - 1}")
    return moves


def listed(state: dict[str, Any]) -> set[str]:
    """The legal moves a state lists, as ICCS moves."""
    return {frm + to for frm, tos in state["position"]["legal"].items() for to in tos}


def get(client: TestClient, gid: str, who: dict[str, Any] | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=(who or {}).get("headers", {}))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_the_listed_moves_are_the_positions_own_after_moves_takeback_and_reload(
        register: Any, client: TestClient, fairy: str) -> None:
    red, black = register(client, "red"), register(client, "black")
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                    headers=red["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert client.post(f"/api/games/{gid}/join", headers=black["headers"]).status_code == 200
    st = get(client, gid)
    assert len(listed(st)) == START_MOVES
    assert listed(st) == fsf_moves(fairy, st["position"]["fen"])
    rng = random.Random(29)
    players = (red, black)
    for ply in range(1, 13):
        who = players[(ply - 1) % 2]
        move = rng.choice(sorted(listed(get(client, gid, who))))
        r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": ply,
                                                            "move": move},
                        headers=who["headers"])
        assert r.status_code == 200, r.text
        if ply == 6:  # a takeback by agreement: the position before comes back
            before = get(client, gid)["position"]
            assert client.post(f"/api/games/{gid}/actions", json={"type": "takeback_offer"},
                               headers=who["headers"]).status_code == 200
            other = players[ply % 2]
            assert client.post(f"/api/games/{gid}/actions", json={"type": "takeback_accept"},
                               headers=other["headers"]).status_code == 200
            back = get(client, gid)
            assert back["ply"] == 5 and back["position"]["fen"] != before["fen"]
            assert listed(back) == fsf_moves(fairy, back["position"]["fen"])
            r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": ply,
                                                                "move": move},
                            headers=who["headers"])
            assert r.status_code == 200, r.text
        for viewer in (None, red, black):  # a spectator and both players: the same list
            st = get(client, gid, viewer)
            assert listed(st) == fsf_moves(fairy, st["position"]["fen"]), (ply, viewer)
    # a reload from the log (a restart) lists the same moves
    hub = client.app.state.qisai.hub  # type: ignore[attr-defined]
    before = get(client, gid)
    hub.forget(gid)
    after = get(client, gid)
    assert after["position"] == before["position"]
    # a caller that changes its copy changes nobody else's
    live = hub.games[gid]
    mine = live.snapshot(None)["position"]["legal"]
    first = next(iter(mine))
    mine[first].clear()
    mine.clear()
    assert listed(live.snapshot(None)) == listed(after) != set()
    # the game over: no move is listed
    assert client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                       headers=red["headers"]).status_code == 200
    assert get(client, gid)["position"]["legal"] == {}
