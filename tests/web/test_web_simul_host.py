"""Simuls, issue 33 item 9, through the API: the host's extra time (as
lichess gives it: the entrants' clock, plus extra minutes, plus extra
seconds for each board), which needs a clock; Xiangqi colours only (never
"white"); the host's name shown to anyone, spectators too."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .test_web_simuls import host_and_entrants


def test_the_host_has_the_entrants_clock_plus_extra_time_per_board(
        register: Any, client: TestClient) -> None:
    host, entrants, simul = host_and_entrants(
        client, register, 3, time={"minutes": 5}, host_extra_minutes=1,
        host_extra_per_board=30, host_colour="red")
    sid = simul["id"]
    assert simul["host_extra"] == {"minutes": 1, "per_board": 30}
    for e in entrants:
        assert client.post(f"/api/simuls/{sid}/join", json={},
                           headers=e["headers"]).status_code == 200
    r = client.post(f"/api/simuls/{sid}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    for board in r.json()["boards"]:
        st = client.get(f"/api/games/{board['game_id']}").json()
        assert st["players"]["first"]["id"] == host["user"]["id"]
        # 5 minutes + 1 minute + 30 s x 3 boards for the host; 5 minutes for the entrant
        assert st["clocks"]["first"] == 300 + 60 + 90
        assert st["clocks"]["second"] == 300


def test_extra_time_needs_a_clock_and_is_bounded(register: Any, client: TestClient) -> None:
    host, _, _ = host_and_entrants(client, register, 1)
    for body, status in [({"host_extra_per_board": 30}, 422),
                         ({"time": {"minutes": 5}, "host_extra_per_board": 601}, 422),
                         ({"time": {"minutes": 5}, "host_extra_minutes": -1}, 422)]:
        r = client.post("/api/simuls", json={"name": "x", **body}, headers=host["headers"])
        assert r.status_code == status, (body, r.text)


def test_xiangqi_has_no_white_and_anyone_sees_the_host(register: Any,
                                                       client: TestClient) -> None:
    host, entrants, simul = host_and_entrants(client, register, 1)
    r = client.post("/api/simuls", json={"name": "x", "host_colour": "white"},
                    headers=host["headers"])
    assert r.status_code == 422
    r = client.get(f"/api/simuls/{simul['id']}")  # a visitor without a session
    assert r.status_code == 200 and r.json()["host_name"] == "liudahua"
    page = client.get(f"/simuls/{simul['id']}").text
    assert 'id="simul-host">liudahua<' in page
