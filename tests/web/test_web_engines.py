"""Games against an external engine configured with ``--engine``: qisai's own
engine run as a separate UCI program, and Fairy-Stockfish when installed."""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app

FSF = next((p for p in ("/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish")
            if __import__("os").path.exists(p)), None)


@pytest.fixture
def engine_client(settings: Settings, clock: Any) -> Iterator[TestClient]:
    settings.engines = {
        "qisai-uci": shlex.join([sys.executable, "-m", "qisai.engines.builtin.xiangqi_server"])}
    if FSF:
        settings.engines["fsf"] = FSF
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.3
    with TestClient(app) as c:
        yield c


def play_against(client: TestClient, me: dict[str, Any], engine: str) -> None:
    g = client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine", "engine": engine,
                                        "color": "first"}, headers=me["headers"])
    assert g.status_code == 201, g.text
    gid = g.json()["id"]
    assert g.json()["players"]["second"]["name"] == f"qisai {engine}"
    r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1, "move": "h2e2"},
                    headers=me["headers"])
    assert r.status_code == 200
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        st = client.get(f"/api/games/{gid}").json()
        if st["ply"] >= 2:
            break
        time.sleep(0.05)
    assert st["ply"] == 2 and st["moves"][1]["side"] == "second" and st["result"] is None


def test_external_engine_answers(register: Any, engine_client: TestClient) -> None:
    me = register(engine_client, "human")
    assert engine_client.get("/api/engines").json()[:2] == ["builtin", "qisai-uci"]
    play_against(engine_client, me, "qisai-uci")
    r = engine_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine",
                                               "engine": "nonesuch"}, headers=me["headers"])
    assert r.status_code == 422 and "not configured" in r.json()["detail"]


@pytest.mark.engine
@pytest.mark.skipif(FSF is None, reason="needs fairy-stockfish")
def test_fairy_stockfish_answers(register: Any, engine_client: TestClient) -> None:
    play_against(engine_client, register(engine_client, "human2"), "fsf")
