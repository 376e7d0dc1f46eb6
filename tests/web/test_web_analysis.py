"""The analysis board's API (issue 17 item 4): positions after a line of
moves, every move checked by the rules cores (the rule of an illegal one,
its clause); a finished game as the board's main line, none while in play;
an engine's evaluation and best line from Fairy-Stockfish and GNU Go in
processes of the engine pool (never the web process), for a session only,
one at a time per person; bounded inputs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.go import Board as GoBoard
from qisai.go.coords import parse_gtp
from qisai.go.sgf import read_sgf
from qisai.go.sgf import replay as sgf_replay
from qisai.web import Settings, create_app
from qisai.xiangqi import Board, Move

MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"  # b0b9 mates (Red)


def pos(client: TestClient, **body: Any) -> Any:
    return client.post("/api/analysis/position", json=body)


def test_xiangqi_positions_are_checked_by_the_rules_core(client: TestClient) -> None:
    r = pos(client, moves=["h2e2", "h9g7", "h0g2"])
    assert r.status_code == 200, r.text
    data = r.json()
    b = Board()
    for m in ("h2e2", "h9g7", "h0g2"):
        b.push(Move.from_iccs(m))
    assert data["fen"] == b.fen() and data["to_move"] == "second"
    assert data["texts"] == ["炮二平五", "马8进7", "马二进三"]
    legal = sorted(f + t for f, ts in data["legal"].items() for t in ts)
    assert legal == sorted(m.iccs() for m in b.legal_moves())
    # A blocked horse is refused with its rule and the move's number.
    r = pos(client, moves=["h2e2", "h9g7", "b0d1"])
    assert r.status_code == 422
    assert r.json()["code"] == "horse_leg" and r.json()["clause"] == "2.2"
    assert r.json()["ply"] == 3
    # A position given by FEN; checkmate is the end of the line.
    r = pos(client, fen=MATE_IN_ONE, moves=["b0b9"])
    assert r.status_code == 200 and r.json()["over"] is True and r.json()["check"] is True
    assert r.json()["texts"] == ["车八进九"]


def test_bad_inputs_are_bounded_and_explained(client: TestClient) -> None:
    r = pos(client, fen="rnbakabnr/9/9 w")
    assert r.status_code == 400 and r.json()["code"] == "analysis_fen"
    assert pos(client, fen="x" * 121).status_code == 422  # over the FEN bound
    assert pos(client, moves=["h2e2"] * 601).status_code == 422  # over the line bound
    r = pos(client, moves=["h2e2" * 5])
    assert r.status_code == 400 and r.json()["code"] == "analysis_input"
    r = pos(client, kind="go", size=26)
    assert r.status_code == 422
    r = pos(client, kind="go", sgf="(;SZ[9]AB[zz]")
    assert r.status_code == 400 and r.json()["code"] == "analysis_sgf"
    r = pos(client, kind="go", sgf="(;" + "C[x]" * 20000 + ")")
    assert r.status_code == 422  # over the SGF bound (64 KiB)


def test_go_positions_from_a_size_or_an_sgf(client: TestClient) -> None:
    r = pos(client, kind="go", size=9, moves=["E5", "D5", "pass"])
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["grid"][4] == "...wb...." and data["to_move"] == "second"
    assert data["last"] == "pass"
    # The line comes back as SGF that replays to the same board.
    board = sgf_replay(read_sgf(data["sgf"]))
    assert board.get(parse_gtp("E5", 9)) is not None and board.to_move.name == "WHITE"
    # An SGF's set-up is the root: White's stones around A1 make it suicide.
    sgf = "(;FF[4]GM[1]SZ[9]AW[ah][bi]PL[B])"
    r = pos(client, kind="go", sgf=sgf, moves=["A1"])
    assert r.status_code == 422 and r.json()["code"] == "go_suicide"
    assert "10" in r.json()["clause"]
    r = pos(client, kind="go", sgf=sgf, moves=[])
    assert r.json()["forbidden"]["A1"] == "suicide"
    r = pos(client, kind="go", size=9, moves=["E5", "E5"])
    assert r.status_code == 422 and r.json()["code"] == "go_occupied" and r.json()["ply"] == 2


def test_a_game_is_analysed_only_once_over(register: Any, client: TestClient) -> None:
    red, black = register(client, "red"), register(client, "black")
    g = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                    headers=red["headers"]).json()
    gid = g["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": 1, "move": "h2e2"},
                headers=red["headers"])
    r = client.get(f"/api/analysis/games/{gid}")
    assert r.status_code == 409 and r.json()["code"] == "analysis_in_play"
    assert "still in play" in client.get(f"/analysis?game={gid}").text
    client.post(f"/api/games/{gid}/actions", json={"type": "resign"}, headers=black["headers"])
    r = client.get(f"/api/analysis/games/{gid}")
    assert r.status_code == 200 and r.json()["moves"] == ["h2e2"]
    assert r.json()["result"] == "1-0"
    assert client.get("/api/analysis/games/nosuchgame").status_code == 404
    page = client.get(f"/analysis?game={gid}")
    assert page.status_code == 200 and "analysis.js" in page.text


@pytest.fixture
def engine_client(settings: Settings, clock: Any, which: Any) -> Iterator[TestClient]:
    fsf = which("fairy-stockfish")
    if fsf:
        settings.engines["fsf"] = fsf
    gnugo = which("gnugo")
    if gnugo:
        settings.engines["gnugo"] = f"gtp:{gnugo} --mode gtp --level 1"
    app = create_app(settings, time_source=clock, tick_period=0.05)
    with TestClient(app) as c:
        yield c


def test_engine_analysis_needs_a_session_and_a_known_engine(register: Any,
                                                             engine_client: TestClient) -> None:
    c = engine_client
    r = c.post("/api/analysis/engine", json={"moves": []})
    assert r.status_code == 401
    me = register(c, "me")
    r = c.post("/api/analysis/engine", json={"engine": "nosuch"}, headers=me["headers"])
    assert r.status_code == 404 and r.json()["code"] == "analysis_engine"
    r = c.post("/api/analysis/engine", json={"seconds": 60}, headers=me["headers"])
    assert r.status_code == 422  # at most 5 s a search
    r = c.post("/api/analysis/engine", json={"moves": ["b0d1"]}, headers=me["headers"])
    assert r.status_code == 422 and r.json()["code"] == "horse_leg"
    # One analysis at a time per person.
    from qisai.web.analysis.engine import analyst

    a = analyst(c.app.state.qisai.hub)  # type: ignore[attr-defined]
    a.running.add(f"u{me['user']['id']}")
    r = c.post("/api/analysis/engine", json={"engine": "builtin"}, headers=me["headers"])
    assert r.status_code == 429 and r.json()["code"] == "analysis_busy"
    a.running.clear()


def test_fairy_stockfish_finds_the_mate_in_a_pooled_process(register: Any, fairy: str,
                                                             engine_client: TestClient) -> None:
    c = engine_client
    me = register(c, "me")
    assert c.get("/api/analysis/engines?kind=xiangqi").json()[0] == "fsf"
    r = c.post("/api/analysis/engine", json={"fen": MATE_IN_ONE, "seconds": 0.5},
               headers=me["headers"])
    assert r.status_code == 200, r.text
    line = r.json()
    assert line["engine"] == "fsf" and line["mate"] == 1 and line["source"] == "uci info"
    b = Board(MATE_IN_ONE)
    b.push(Move.from_iccs(line["pv"][0]))
    assert b.is_checkmate()  # the rules core agrees it mates
    # Black to move after a quiet Red move: the score is turned to Red's view.
    r = c.post("/api/analysis/engine", json={"fen": MATE_IN_ONE, "moves": ["d0d1"],
                                             "seconds": 0.5}, headers=me["headers"])
    line = r.json()
    assert r.status_code == 200, r.text
    assert (line["mate"] or 0) > 0 or (line["cp"] or 0) > 300
    # The line is legal from the position, and written in Chinese notation.
    b = Board(MATE_IN_ONE)
    b.push(Move.from_iccs("d0d1"))
    for m in line["pv"]:
        mv = Move.from_iccs(m)
        assert b.is_legal(mv)
        b.push(mv)
    assert len(line["pv_text"]) == len(line["pv"]) >= 1
    # The engine ran in a process of the pool, not in this one.
    pool = c.app.state.qisai.hub.pool  # type: ignore[attr-defined]
    pids = pool.pids()
    assert pids and os.getpid() not in pids
    commands = [open(f"/proc/{p}/cmdline", "rb").read() for p in pids]
    assert any(b"fairy-stockfish" in cmd for cmd in commands)


def test_gnu_go_gives_a_legal_line_and_its_score_lead(register: Any, gnugo: str,
                                                      engine_client: TestClient) -> None:
    c = engine_client
    me = register(c, "me")
    for moves in (["E5", "D5", "E4"], ["E5", "D5"]):  # the same pooled process twice
        r = c.post("/api/analysis/engine", json={"kind": "go", "size": 9, "moves": moves,
                                                 "engine": "gnugo", "seconds": 1},
                   headers=me["headers"])
        assert r.status_code == 200, r.text
        line = r.json()
        assert line["source"] == "genmove" and line["best"] == line["pv"][0]
        # the line is legal move by move from the position (the rules core replays
        # it), so GNU Go's board was the position and was taken back after
        b = GoBoard(9)
        for m in moves + line["pv"]:
            point = parse_gtp(m, 9)
            if point is None:
                b.pass_move()
                continue
            assert b.legal_reason(point) is None, (moves, line["pv"])
            b.play(point)
        # estimate_score ("W+24.5 (...)") is Black's or White's lead: the score
        # lead is the side to move's
        estimate = line["estimate"]
        lead = float(estimate[2:]) * (1 if estimate[0] == "B" else -1)
        to_move_black = len(moves) % 2 == 0
        assert line["score_lead"] == (lead if to_move_black else -lead)


def test_the_strongest_level_of_each_found_engine_analyses(settings: Settings,
                                                            clock: Any) -> None:
    """Issue 32.5: the engines found installed (hub.levels, as discovery
    offers them, weakest first) analyse at their strongest level; an
    Elo-limited or weaker level is not offered for analysis (404)."""
    from qisai.web.analysis.engine import analyst, engine_labels, engines_for
    from qisai.web.seats.lineup import Offered
    from qisai.web.seats.opponents import EngineSpec

    app = create_app(settings, time_source=clock, tick_period=0.05)
    hub = app.state.qisai.hub
    fsf = EngineSpec("uci", ("/usr/games/fairy-stockfish",))
    for key, options in (("skill-0", (("Skill Level", 0),)), ("skill-20", (("Skill Level", 20),)),
                         ("elo-2850", (("UCI_LimitStrength", True), ("UCI_Elo", 2850)))):
        hub.levels[f"fairy-stockfish-{key}"] = Offered(
            f"fairy-stockfish-{key}", "xiangqi", fsf, options, "Fairy-Stockfish 14", key, key)
    for n in (1, 10):
        spec = EngineSpec("gtp", ("/usr/games/gnugo", "--mode", "gtp", "--level", str(n)))
        hub.levels[f"gnugo-level-{n}"] = Offered(f"gnugo-level-{n}", "go", spec, (),
                                                 "GNU Go 3.8", f"等级 {n}", f"level {n}")
    assert engines_for(hub, "xiangqi") == ["fairy-stockfish-skill-20", "builtin"]
    assert engines_for(hub, "go") == ["gnugo-level-10", "builtin"]
    assert engine_labels(hub, "go")[0] == {"name": "gnugo-level-10", "zh": "GNU Go 3.8 · 等级 10",
                                           "en": "GNU Go 3.8 · level 10"}
    import asyncio

    from qisai.web.analysis.engine import AnalysisError
    from qisai.xiangqi import Board as XBoard

    for weaker in ("fairy-stockfish-skill-0", "fairy-stockfish-elo-2850"):
        with pytest.raises(AnalysisError) as err:
            asyncio.run(analyst(hub).run("u1", "xiangqi", weaker, XBoard(), None, 0.1))
        assert err.value.status == 404


def test_analyze_lines_of_katago_and_leela_zero() -> None:
    from qisai.web.analysis.engine import parse_analyze_line

    # The forms KataGo's and Leela Zero's GTP extensions print (one line,
    # several candidates; KataGo winrates 0-1, also in e-notation; Leela
    # Zero's in hundredths of a percent).
    kata = ("info move Q16 visits 31 utility 0.02 winrate 0.4875 scoreMean -0.6 "
            "scoreLead -0.55 prior 0.12 order 0 pv Q16 D4 Q3 "
            "info move pass visits 2 winrate 4.5e-05 scoreLead -13 order 1 pv pass R19 "
            "ownership 0.1 -0.2")
    found = parse_analyze_line(kata)
    assert [c["move"] for c in found] == ["Q16", "pass"]
    assert found[0]["visits"] == 31 and found[0]["winrate"] == 0.4875
    assert found[0]["score_lead"] == -0.55 and found[0]["pv"] == ["Q16", "D4", "Q3"]
    assert found[1]["winrate"] == 4.5e-05 and found[1]["pv"] == ["pass", "R19"]
    leela = "info move D16 visits 12 winrate 4712 prior 1830 lcb 4501 order 0 pv D16 Q4"
    found = parse_analyze_line(leela, leela=True)
    assert found == [{"move": "D16", "visits": 12, "winrate": 0.4712, "pv": ["D16", "Q4"]}]
    assert parse_analyze_line("= ") == [] and parse_analyze_line("info visits x") == []


def test_qisai_go_engine_suggests_by_genmove_and_undo(register: Any,
                                                      engine_client: TestClient) -> None:
    c = engine_client
    me = register(c, "me")
    b = GoBoard(9)
    lines = [["E5", "D5"], ["E5", "D5", "C3"]]
    for moves in lines:  # the same pooled process twice: undo left its board right
        r = c.post("/api/analysis/engine", json={"kind": "go", "size": 9, "moves": moves,
                                                 "engine": "builtin", "seconds": 0.3},
                   headers=me["headers"])
        assert r.status_code == 200, r.text
        line = r.json()
        assert line["source"] == "genmove" and line["engine"] == "builtin"
        b = GoBoard(9)
        for m in moves:
            b.play(parse_gtp(m, 9))
        assert line["best"] == "PASS" or b.legal_reason(parse_gtp(line["best"], 9)) is None


def test_pikafish_found_installed_analyses_at_its_strongest_level(register: Any,
                                                                   settings: Settings,
                                                                   clock: Any) -> None:
    """Issue 32.5: a Pikafish found installed (``pikafish`` on PATH or
    QISAI_PIKAFISH; CI has none, so this skips there) is offered for
    analysis at its strongest level and finds the mate in one in a process
    of the pool, its line legal in the rules core."""
    import asyncio
    import shutil
    from pathlib import Path

    from qisai.engines.discovery import discover
    from qisai.web.analysis.engine import engines_for
    from qisai.web.seats.lineup import found_offers

    named = os.environ.get("QISAI_PIKAFISH", "")
    program = shutil.which(named) if named else shutil.which("pikafish")
    if not program:
        pytest.skip("Pikafish is not installed (put pikafish on PATH or set QISAI_PIKAFISH)")
    found = asyncio.run(discover(only=["pikafish"], path=str(Path(program).parent)))
    assert found.found, found.skipped
    app = create_app(settings, time_source=clock, tick_period=0.05)
    hub = app.state.qisai.hub
    hub.levels.update(found_offers(found, {}))
    name = engines_for(hub, "xiangqi")[0]
    assert name.startswith("pikafish-") and "elo" not in name
    with TestClient(app) as c:
        me = register(c, "me")
        r = c.post("/api/analysis/engine", json={"fen": MATE_IN_ONE, "seconds": 1.0,
                                                 "engine": name}, headers=me["headers"])
        assert r.status_code == 200, r.text
        line = r.json()
        assert line["engine"] == name and line["mate"] == 1
        b = Board(MATE_IN_ONE)
        for m in line["pv"]:
            mv = Move.from_iccs(m)
            assert b.is_legal(mv)
            b.push(mv)
        assert Board(MATE_IN_ONE).is_legal(Move.from_iccs(line["pv"][0]))
        after = Board(MATE_IN_ONE)
        after.push(Move.from_iccs(line["pv"][0]))
        assert after.is_checkmate()
        pids = c.app.state.qisai.hub.pool.pids()  # type: ignore[attr-defined]
        assert any(b"pikafish" in open(f"/proc/{p}/cmdline", "rb").read() for p in pids)
