"""Knock-out colours in the arena now that it runs the competition layer's
event model (qisai.competition.events, one event model for the CLI and the
arena).

* A new knock-out's series starts with the match's colours: game 1's Red is
  the match's Red (the bracket's 猜先 at the pairing, 13.4; the red card
  holder with the card draw, local rules clause 9), the second game swaps
  (13.5).  The arena used to draw game 1 of a two-game match by a second lot.
* An event the arena stored before keeps its old game-1 colours, or its
  recorded results ("1-0" is a Red win) would be read for the other side.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from qisai.store import repo
from qisai.store.models import Role
from tests.web.conftest import event_rounds

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "events" / "arena_states.json"


def _organiser(client: TestClient, register: Any) -> dict[str, Any]:
    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    return org


def _knockout(client: TestClient, h: dict[str, str], body: dict[str, Any],
              names: list[str]) -> str:
    ev = client.post("/api/tournaments", json={"system": "knockout", **body},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for k, name in enumerate(names):
        assert client.post(f"{base}/entries", json={"name": name, "rating": 2500 - k},
                           headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    return base


def test_game_one_takes_the_matchs_colours(register: Any, client: TestClient) -> None:
    h = _organiser(client, register)["headers"]
    for body, n in (({"name": "Two games", "series": "two_games"}, 8),
                    ({"name": "Cards", "series": "two_games", "draw": "cards"}, 6),
                    ({"name": "Best of three", "series": "best_of_three"}, 8)):
        base = _knockout(client, h, body, [f"P{k}" for k in range(n)])
        ev = client.post(f"{base}/rounds", headers=h).json()
        matches = [m for m in ev["rounds"][0]["matches"] if m["black"] is not None]
        assert matches
        for m in matches:
            # 13.4 / local rules 9: the match's Red has Red in game 1
            assert m["next"]["game"] == 1
            assert (m["next"]["red"], m["next"]["black"]) == (m["red"], m["black"])
            url = f"{base}/rounds/1/matches/{m['match']}/games/1"
            assert client.put(url, json={"result": "=-="}, headers=h).status_code == 200
        ev = client.get(base).json()
        for m in ev["rounds"][0]["matches"]:
            if m["black"] is not None:  # 13.5: the second game swaps the colours
                assert m["next"]["game"] == 2
                assert (m["next"]["red"], m["next"]["black"]) == (m["black"], m["red"])


def test_a_stored_two_game_knockout_keeps_its_colours(register: Any,
                                                      client: TestClient) -> None:
    case = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]["knockout_two_games"]
    state, expected = case["state"], case["expected"]
    h = _organiser(client, register)["headers"]
    base = _knockout(client, h, {"name": "Stored", "series": "two_games"},
                     [p["name"] for p in state["players"]])
    tid = int(base.rsplit("/", 1)[1])
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        row = repo.get_tournament(s, tid)
        repo.save_tournament(s, tid, settings={**row.settings, "event": state})
    rounds = event_rounds(client, base)
    shown = {f"{r['number']}:{m['match'] - 1}": m for r in rounds for m in r["matches"]}
    for key, series in expected["series"].items():
        assert [[g["game"], g["kind"], g["red"], g["black"], g["result"]]
                for g in shown[key]["games"]] == series["games"]
    nxt = [[[2, m["match"] - 1, m["next"]["game"]], m["next"]["red"], m["next"]["black"],
            m["next"]["kind"]] for m in rounds[1]["matches"]]
    assert nxt == expected["next_games"]
    # game 1 was drawn against the bracket, and game 2 follows it, not the bracket
    m = rounds[1]["matches"][0]
    assert m["games"][0]["red"] == m["black"] and m["next"]["red"] == m["red"]
    # a result entered now goes on with the stored rule: game 2 decides the match
    url = f"{base}/rounds/2/matches/1/games/2"
    ev = client.put(url, json={"result": "1-0"}, headers=h).json()
    assert ev["rounds"][0]["number"] == 2  # the latest round in detail (issue 29)
    m = ev["rounds"][0]["matches"][0]
    assert [g["red"] for g in m["games"]] == [m["black"], m["red"]]
    assert m["winner"] is None and m["next"]["kind"] == "extra"
