"""The strong engines found at start-up, offered by level (issue 17.5):
Fairy-Stockfish by Skill Level, GNU Go by --level, each named in the
game's state and in its PGN/SGF as the engine names itself (read here from
the programs), and run in the server's bounded engine pool."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app

from .test_web_go import wait_for


@pytest.fixture
def found_client(settings: Settings, clock: Any) -> Iterator[TestClient]:
    settings.discover_engines = True
    app = create_app(settings, time_source=clock, tick_period=0.05)
    app.state.qisai.hub.engine_think = 0.2
    with TestClient(app) as c:
        yield c


def fairy_name(path: str) -> str:
    out = subprocess.run([path], input="uci\nquit\n", capture_output=True, text=True,
                         timeout=30, check=True).stdout
    return next(line[len("id name "):] for line in out.splitlines()
                if line.startswith("id name "))


def gnugo_name(path: str) -> str:
    return subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30,
                          check=True).stdout.splitlines()[0].strip()


def cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def test_without_discovery_only_the_configured_engines_are_offered(client: TestClient) -> None:
    listed = client.get("/api/engines").json()
    assert [e["name"] for e in listed] == ["builtin"]
    assert listed[0]["engine"] == "qisai" and listed[0]["level"] is None


@pytest.mark.engine
def test_found_engines_are_offered_by_level(fairy: str, gnugo: str,
                                            found_client: TestClient) -> None:
    xq = {e["name"]: e for e in found_client.get("/api/engines?kind=xiangqi").json()}
    assert list(xq)[0] == "builtin"
    fsf = xq["fairy-stockfish-skill-5"]
    assert fsf["engine"] == fairy_name(fairy) and fsf["kinds"] == ["xiangqi"]
    assert fsf["level"] == {"zh": "技能等级 5", "en": "Skill Level 5"}
    assert not any(n.startswith("gnugo") for n in xq)
    go = {e["name"]: e for e in found_client.get("/api/engines?kind=go").json()}
    assert go["gnugo-level-1"]["engine"] == gnugo_name(gnugo)
    assert go["gnugo-level-10"]["level"]["en"] == "level 10"


@pytest.mark.engine
def test_levels_are_checked_when_a_game_is_made(fairy: str, gnugo: str, register: Any,
                                                found_client: TestClient) -> None:
    me = register(found_client, "picky")
    r = found_client.post("/api/games", json={"kind": "go", "opponent": "engine",
                                              "engine": "fairy-stockfish-skill-5"},
                          headers=me["headers"])
    assert r.status_code == 422 and "does not play go" in r.json()["detail"]
    r = found_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine",
                                              "engine": "fairy-stockfish-skill-99"},
                          headers=me["headers"])
    assert r.status_code == 422 and "not configured" in r.json()["detail"]
    # Nobody without a session makes a game against a found engine either.
    r = found_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine",
                                              "engine": "fairy-stockfish-skill-5"})
    assert r.status_code == 401


@pytest.mark.engine
def test_a_game_against_fairy_stockfish_at_a_level_names_it_in_the_pgn(
        fairy: str, register: Any, found_client: TestClient) -> None:
    from qisai.xiangqi.pgn import parse_pgn

    me = register(found_client, "red-player")
    r = found_client.post("/api/games", json={"kind": "xiangqi", "opponent": "engine",
                                              "engine": "fairy-stockfish-skill-0",
                                              "color": "first"}, headers=me["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    expected = f"{fairy_name(fairy)} (Skill Level 0)"
    second = r.json()["players"]["second"]
    assert second["name"] == expected and second["title"] == fairy_name(fairy)
    assert second["level"] == {"zh": "技能等级 0", "en": "Skill Level 0"}
    r = found_client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1,
                                                             "move": "h2e2"},
                          headers=me["headers"])
    assert r.status_code == 200, r.text
    st = wait_for(found_client, gid, lambda s: s["ply"] >= 2, "Fairy-Stockfish's reply")
    assert st["moves"][1]["side"] == "second"
    # The process that played was set to the level (the pool keys it so).
    pool = found_client.app.state.qisai.hub.pool  # type: ignore[attr-defined]
    keys = [e.key for e in (*pool._idle, *pool._busy)]
    assert any("Skill Level=0" in k for k in keys), keys
    found_client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                      headers=me["headers"])
    wait_for(found_client, gid, lambda s: s["result"] is not None, "the resignation")
    record = found_client.get(f"/api/games/{gid}/record")
    assert record.status_code == 200
    (game,) = parse_pgn(record.text)
    assert game.headers["Black"] == expected and game.headers["BlackType"] == "program"
    assert game.headers["Red"] == "red-player" and game.headers["Result"] == "0-1"
    # The page names the engine too (its state embedded for the board).
    page = found_client.get(f"/games/{gid}")
    assert fairy_name(fairy) in page.text and "Skill Level 0" in page.text
    # ... and the player's page, as the opponent (in the page's language).
    mine = found_client.get(f"/users/{me['user']['id']}", headers={"Accept-Language": "zh"})
    assert f"{fairy_name(fairy)} (技能等级 0)" in mine.text


@pytest.mark.engine
def test_a_go_game_against_gnu_go_names_it_in_the_sgf(gnugo: str, register: Any,
                                                      found_client: TestClient) -> None:
    import sgfmill.sgf

    from qisai.go.sgf import read_sgf

    me = register(found_client, "black-player")
    r = found_client.post("/api/games", json={"kind": "go", "ruleset": "go-casual", "size": 5,
                                              "opponent": "engine", "engine": "gnugo-level-1",
                                              "color": "first"}, headers=me["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    r = found_client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1,
                                                             "move": "C3"},
                          headers=me["headers"])
    assert r.status_code == 200, r.text
    wait_for(found_client, gid, lambda s: s["ply"] >= 2, "GNU Go's reply")
    # The level is on GNU Go's own command line.
    pool = found_client.app.state.qisai.hub.pool  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while not pool.pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [cmdline(pid) for pid in pool.pids()]
    assert any(line[-2:] == ["--level", "1"] or "--level" in line and
               line[line.index("--level") + 1] == "1" for line in lines), lines
    found_client.post(f"/api/games/{gid}/actions", json={"type": "resign"},
                      headers=me["headers"])
    wait_for(found_client, gid, lambda s: s["result"] is not None, "the resignation")
    text = found_client.get(f"/api/games/{gid}/record").text
    expected = f"{gnugo_name(gnugo)} (level 1)"
    ours = read_sgf(text)
    assert ours.root.get("PW") == expected and ours.root.get("PB") == "black-player"
    theirs = sgfmill.sgf.Sgf_game.from_bytes(text.encode())
    assert theirs.get_player_name("w") == expected and theirs.get_winner() == "w"
    assert theirs.get_size() == 5 and len(theirs.get_main_sequence()) >= 3


@pytest.mark.engine
def test_configured_engines_are_probed_and_keep_their_names(
        fairy: str, gnugo: str, settings: Settings, clock: Any, register: Any) -> None:
    """``--engine`` still adds any engine by command: at start-up it is asked
    its name; a name it shares with a found level wins over the level; one
    that does not start is still offered by its command (and fails in its
    game, as before)."""
    settings.discover_engines = True
    settings.engines = {"fsf": fairy, "gnugo-level-1": f"gtp:{gnugo} --mode gtp --level 2",
                        "missing": "gtp:/nonexistent/engine"}
    app = create_app(settings, time_source=clock, tick_period=0.05)
    with TestClient(app) as c:
        listed = {e["name"]: e for e in c.get("/api/engines").json()}
        assert list(listed)[:4] == ["builtin", "fsf", "gnugo-level-1", "missing"]
        assert listed["fsf"]["engine"] == fairy_name(fairy)
        assert listed["fsf"]["level"] == {"zh": "按配置", "en": "as configured"}
        assert listed["gnugo-level-1"]["level"]["en"] == "as configured"  # the user's, level 2
        assert listed["missing"]["engine"] is None and listed["missing"]["kinds"] == ["go"]
        assert "fairy-stockfish-skill-20" in listed
        me = register(c, "configured")
        r = c.post("/api/games", json={"kind": "xiangqi", "opponent": "engine", "engine": "fsf",
                                       "color": "first"}, headers=me["headers"])
        assert r.status_code == 201
        assert r.json()["players"]["second"]["name"] == f"{fairy_name(fairy)} (as configured)"


@pytest.mark.parametrize(("args", "env", "on"), [
    ([], None, True), (["--no-discover-engines"], None, False), ([], "0", False),
    (["--discover-engines"], "0", True)])
def test_serve_finds_engines_unless_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                args: list[str], env: str | None,
                                                on: bool) -> None:
    import gc

    import typer
    import uvicorn
    from typer.testing import CliRunner

    from qisai.cli.arena import register

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    monkeypatch.setattr(gc, "freeze", lambda: None)  # serve tunes the collector: not here
    monkeypatch.setattr(gc, "set_threshold", lambda *a: None)
    monkeypatch.setenv("QISAI_DATA_DIR", str(tmp_path / "d"))  # serve sets it: restored after
    if env is None:
        monkeypatch.delenv("QISAI_DISCOVER_ENGINES", raising=False)
    else:
        monkeypatch.setenv("QISAI_DISCOVER_ENGINES", env)
    app = typer.Typer()
    register(app)
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path / "d"), *args])
    assert r.exit_code == 0, r.output
    assert served[0].state.qisai.settings.discover_engines is on
    # Settings made elsewhere (tests, embedding) find nothing unless asked.
    monkeypatch.delenv("QISAI_DISCOVER_ENGINES", raising=False)
    assert Settings.from_env(tmp_path / "e").discover_engines is False
