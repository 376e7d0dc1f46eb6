"""Games against an external engine configured with ``--engine``: qisai's own
engine run as a separate UCI program, Fairy-Stockfish and GNU Go (GTP) when
installed, and broken engines: whatever goes wrong, the referee rules and
the game ends (a crash, a hang, garbage, an illegal move lose)."""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app

from .test_web_go import pass_until_scoring, wait_for

FAKE_GTP = r"""
import sys
mode = sys.argv[1]
size = 19
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "genmove":
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            sys.stdin.read()
        reply = {"garbage": "hello", "occupied": "C3", "resign": "resign"}[mode]
    elif cmd == "protocol_version":
        reply = "2"
    elif cmd == "list_commands":
        reply = "protocol_version\nname\nversion\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\nquit"
    elif cmd == "name":
        reply = "fake-" + mode
    else:
        reply = ""
    sys.stdout.write("= " + reply + "\n\n")
    sys.stdout.flush()
    if cmd == "quit":
        break
"""
"""A GTP engine that fails on ``genmove`` as its mode says: ``crash`` (the
process exits), ``hang`` (never answers), ``garbage`` (not a vertex),
``occupied`` (C3, where the human played first), ``resign``."""
FAKE_MODES = ("crash", "hang", "garbage", "occupied", "resign")


@pytest.fixture
def engine_client(settings: Settings, clock: Any, which: Callable[[str], str | None]
                  ) -> Iterator[TestClient]:
    settings.engines = {
        "qisai-uci": shlex.join([sys.executable, "-m", "qisai.engines.builtin.xiangqi_server"])}
    fsf = which("fairy-stockfish")
    if fsf:
        settings.engines["fsf"] = fsf
    settings.engines["gnugo"] = f"gtp:{which('gnugo') or 'gnugo'} --mode gtp --level 0"
    for mode in FAKE_MODES:
        settings.engines[f"fake-{mode}"] = "gtp:" + shlex.join([sys.executable, "-c", FAKE_GTP,
                                                                 mode])
    settings.engines["missing"] = "gtp:/nonexistent/engine --mode gtp"
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
    listed = engine_client.get("/api/engines").json()
    assert [{k: e[k] for k in ("name", "kinds")} for e in listed[:2]] == [
        {"name": "builtin", "kinds": ["xiangqi", "go"]}, {"name": "qisai-uci", "kinds": ["xiangqi"]}]
    go = [e["name"] for e in engine_client.get("/api/engines?kind=go").json()]
    assert go[0] == "builtin" and "qisai-uci" not in go and "gnugo" in go
    r = engine_client.post("/api/games", json={"kind": "go", "opponent": "engine",
                                               "engine": "qisai-uci"}, headers=me["headers"])
    assert r.status_code == 422 and "does not play go" in r.json()["detail"]
    play_against(engine_client, me, "qisai-uci")
    r = engine_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine",
                                               "engine": "nonesuch"}, headers=me["headers"])
    assert r.status_code == 422 and "not configured" in r.json()["detail"]


@pytest.mark.engine
def test_fairy_stockfish_answers(fairy: str, register: Any, engine_client: TestClient) -> None:
    play_against(engine_client, register(engine_client, "human2"), "fsf")


def wait_result(client: TestClient, gid: str, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        st: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if st["result"] is not None:
            return st
        time.sleep(0.05)
    raise AssertionError(f"game {gid} did not end: {st}")


def go_against(client: TestClient, me: dict[str, Any], engine: str, **body: Any) -> str:
    """Create a 5x5 Go game against ``engine`` with Black's C3 played."""
    body = {"kind": "go", "ruleset": "go-casual", "size": 5, "opponent": "engine",
            "engine": engine, "color": "first", **body}
    r = client.post("/api/games", json=body, headers=me["headers"])
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    r = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1, "move": "C3"},
                    headers=me["headers"])
    assert r.status_code == 200, r.text
    return gid


@pytest.mark.parametrize(("mode", "reason", "words"), [
    ("crash", "time_forfeit", "EngineTerminatedError"),
    ("garbage", "illegal_move", "hello"),
    ("occupied", "illegal_move", "C3"),
    ("resign", "resignation", None),
])
def test_a_failing_go_engine_loses_with_the_reason(register: Any, engine_client: TestClient,
                                                   mode: str, reason: str, words: str | None
                                                   ) -> None:
    me = register(engine_client, f"victim-{mode}")
    gid = go_against(engine_client, me, f"fake-{mode}")
    st = wait_result(engine_client, gid)
    res = st["result"]
    assert res["winner"] == "first" and res["reason"] == reason, res
    assert res["clause"]  # every ruling names the clause it rests on
    if words is not None:
        assert words in res["en"]
        events = engine_client.get(f"/api/games/{gid}/events").json()
        assert events[-1]["kind"] == "adjudicate" and events[-1]["data"]["winner"] == "first"
    assert st["ply"] == 1 and st["status"] == "finished"


def test_a_silent_or_missing_engine_does_not_hang_the_game(register: Any,
                                                          engine_client: TestClient) -> None:
    hub = engine_client.app.state.qisai.hub  # type: ignore[attr-defined]
    hub.engine_timeout = 0.5  # without clocks: how long it may stay silent
    me = register(engine_client, "patient")
    st = wait_result(engine_client, go_against(engine_client, me, "fake-hang"))
    assert st["result"]["reason"] == "time_forfeit" and "EngineTimeoutError" in st["result"]["en"]
    st = wait_result(engine_client, go_against(engine_client, me, "missing"))
    assert st["result"]["reason"] == "late_arrival" and st["result"]["winner"] == "first"
    # The server still answers while and after engines fail.
    assert engine_client.get("/api/engines").status_code == 200


@pytest.mark.engine
def test_gnu_go_plays_passes_and_agrees_on_the_dead_stones(gnugo: str, register: Any,
                                                          engine_client: TestClient) -> None:
    me = register(engine_client, "gnugo-fan")
    # A clock, so GNU Go is told the time (kgs-time_settings, time_left).
    gid = go_against(engine_client, me, "gnugo", ruleset="chinese", time={"minutes": 5})
    wait_for(engine_client, gid, lambda s: s["ply"] >= 2, "GNU Go's first move")
    st = pass_until_scoring(engine_client, me, "first", gid)
    assert st["phase"] == "scoring"
    # Confirm (4(4)): GNU Go confirms first when it is to move; when it
    # marks its dead stones after our confirmation, ours lapses: confirm again.
    for _ in range(10):
        r = engine_client.post(f"/api/games/{gid}/actions", json={"type": "confirm_dead"},
                               headers=me["headers"])
        assert r.status_code in (200, 400, 409), r.text
        try:
            wait_result(engine_client, gid, 2)
            break
        except AssertionError:
            continue
    st = wait_result(engine_client, gid)
    assert st["result"]["reason"] == "score"
    events = engine_client.get(f"/api/games/{gid}/events").json()
    kinds = [e["kind"] for e in events]
    assert kinds[-2:] == ["confirm_dead", "confirm_dead"] and kinds.count("pass") >= 2
    assert {e["data"]["side"] for e in events[-2:]} == {"first", "second"}
    # The stones counted dead are GNU Go's own opinion of the final position.
    from qisai.engines.gtp import SimpleGtpEngine
    from qisai.go.coords import gtp_name, parse_gtp
    from qisai.go.rules import Color

    with SimpleGtpEngine.start([gnugo, "--mode", "gtp", "--level", "0"]) as ref:
        ref.boardsize(5)
        ref.komi(7.5)
        for mv in st["moves"]:
            color = Color.BLACK if mv["side"] == "first" else Color.WHITE
            ref.play(color, parse_gtp(mv["move"], 5))
        dead = sorted(gtp_name(p, 5) for p in ref.final_status_list("dead"))
    assert st["position"]["dead"] == dead


def test_resigning_while_the_engine_thinks_stops_it(register: Any,
                                                    engine_client: TestClient) -> None:
    hub = engine_client.app.state.qisai.hub  # type: ignore[attr-defined]
    me = register(engine_client, "quitter")
    gid = go_against(engine_client, me, "fake-hang")
    deadline = time.monotonic() + 20
    while getattr(hub._seats.get(gid), "_engine", None) is None:  # the engine runs
        assert time.monotonic() < deadline, "the engine was not started"
        time.sleep(0.02)
    pid = hub._seats[gid]._engine.pid
    time.sleep(0.2)  # and is asked for its move
    r = engine_client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                           headers=me["headers"])
    assert r.status_code == 200
    while gid in hub._seats and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gid not in hub._seats  # its process was stopped, not left waiting
    import os

    with pytest.raises(ProcessLookupError):
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.02)
    st = engine_client.get(f"/api/games/{gid}").json()
    assert st["result"]["reason"] == "resignation" and st["result"]["winner"] == "second"
    events = engine_client.get(f"/api/games/{gid}/events").json()
    assert events[-1]["kind"] == "resign"  # and no ruling against the silent engine after it


def test_an_engine_playing_on_an_occupied_point_is_judged_by_the_profile(
        register: Any, engine_client: TestClient) -> None:
    # Chinese rules: the move is void and counts as a pass, with no warning
    # (10, 11(1): 判着手无效，弃权一次); the engine's board is rebuilt from the
    # referee's, and a second void move is no more than a second pass.
    me = register(engine_client, "steady")
    gid = go_against(engine_client, me, "fake-occupied", ruleset="chinese")
    st = wait_for(engine_client, gid, lambda s: s["ply"] >= 2, "the void move")
    assert st["warnings"]["second"] == 0 and st["position"]["last"] == "pass"
    assert not st["rulings"]
    r = engine_client.post(f"/api/games/{gid}/actions",
                           json={"type": "move", "ply": 3, "move": "D4"}, headers=me["headers"])
    assert r.status_code == 200, r.text
    st = wait_for(engine_client, gid, lambda s: s["ply"] >= 4, "the second void move")
    assert st["result"] is None and st["warnings"]["second"] == 0
    assert st["moves"][3]["move"] == "C3" and st["position"]["last"] == "pass"
    r = engine_client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                           headers=me["headers"])
    assert r.status_code == 200, r.text


def test_engine_specs_name_their_game() -> None:
    from typer.testing import CliRunner

    from qisai.web.seats.opponents import engine_kinds, parse_spec

    assert parse_spec("gtp:gnugo --mode gtp").argv == ("gnugo", "--mode", "gtp")
    assert parse_spec("gtp:gnugo --mode gtp").kind == "go"
    assert parse_spec("ucci:eleeye").protocol == "ucci"
    assert parse_spec("/usr/games/fairy-stockfish").protocol == "uci"
    assert parse_spec("C:/engines/x.exe").argv == ("C:/engines/x.exe",)  # not a protocol
    engines = {"g": "gtp:gnugo", "x": "ucci:eleeye", "bad": "gtp:"}
    assert engine_kinds("builtin", engines) == ("xiangqi", "go")
    assert engine_kinds("g", engines) == ("go",) and engine_kinds("x", engines) == ("xiangqi",)
    assert engine_kinds("bad", engines) == () and engine_kinds("nope", engines) == ()
    with pytest.raises(ValueError, match="empty"):
        parse_spec("gtp:  ")
    from .test_web_cli import make_app

    r = CliRunner().invoke(make_app(), ["serve", "--engine", "g=gtp:"])
    assert r.exit_code == 2 and "empty" in r.output
