"""The xboard/CECP client: parsing, a fake engine's faults ruled by the
referee through the match runner, and real games against MaxQi and Sjaak II
(skipped when they are not installed)."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from qisai.competition.match import (
    EngineSpec,
    MatchConfig,
    MatchReport,
    load_openings,
    parse_time_control,
    run_match,
)
from qisai.engines.clients import protocol_name, start_xiangqi_engine
from qisai.engines.errors import EngineProtocolError, EngineStartError
from qisai.engines.play import Adjudication, Fault
from qisai.engines.results import Coordinates, Limit, Score
from qisai.engines.xboard import (
    SimpleXboardEngine,
    XboardEngine,
    parse_features,
    parse_post,
    xboard_option,
)
from qisai.referee.records import xiangqi_from_pgn
from qisai.referee.rulesets import XiangqiRules
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.xiangqi.board import Board
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pgn import parse_pgn
from qisai.xiangqi.squares import Move

from .conftest import FAKES

FAKE = str(FAKES / "xboard_fake.py")


def fake_spec(mode: str, token: str = "") -> EngineSpec:
    """A fake CECP engine as a match entry (``token`` marks its process)."""
    return EngineSpec(mode, (sys.executable, FAKE, mode, *([token] if token else [])), "xboard")


def uci_good() -> EngineSpec:
    return EngineSpec("uci-good", (sys.executable, str(FAKES / "xiangqi_fake.py"), "good"), "uci")


def processes_with(token: str) -> list[int]:
    """Pids of live processes whose command line holds ``token``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read()
            with open(f"/proc/{entry}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in cmdline and state != "Z":
            found.append(int(entry))
    return found


def reimports(report: MatchReport) -> None:
    profile = report.config.profile()
    assert isinstance(profile, XiangqiRules)
    for record in report.games:
        game = xiangqi_from_pgn(record.record, rules=profile)
        assert game.result == record.report.result
        assert [m.move for m in game.moves] == [m.move for m in record.report.game.moves]


def play(config: MatchConfig) -> MatchReport:
    # The pytest timeout bounds a hang; these games take a second or two.
    return asyncio.run(run_match(config))


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hung engine is given up soon.  (The wait for a protocol-1 engine's
    features stays xboard's 2 s: a fake engine, a Python program, can take
    most of that to start on a loaded machine.)"""
    monkeypatch.setattr(XboardEngine, "stop_grace", 0.3)


# ------------------------------------------------------------------ parsing
def test_features_options_and_post_lines() -> None:
    line = 'feature setboard=0 ping=1 myname="MaxQi 4.8G" variants="xiangqi,shatranj" done=1'
    assert parse_features(line) == [("setboard", "0"), ("ping", "1"), ("myname", "MaxQi 4.8G"),
                                    ("variants", "xiangqi,shatranj"), ("done", "1")]
    spin = xboard_option("Resign threshold -spin 500 100 16000")
    assert spin is not None and (spin.name, spin.type, spin.default, spin.min, spin.max) == \
        ("Resign threshold", "spin", "500", 100, 16000)
    combo = xboard_option("Level -combo Clueless /// Random /// *Normal")
    assert combo is not None and combo.default == "Normal" and combo.check("random") == "Random"
    check = xboard_option("Claim repetitions -check 1")
    assert check is not None and check.check(False) == "0" and check.check("true") == "1"
    with pytest.raises(EngineProtocolError):
        spin.check(5)
    # MaxQi: depth score time(cs) nodes pv.
    info = parse_post(" 4      5        1      17767 b7c7 h0g2")
    assert info is not None and info.depth == 4 and info.score == Score(cp=5)
    assert info.time == 0.01 and info.nodes == 17767
    assert [m.iccs() for m in info.pv] == ["b7c7", "h0g2"]
    # Fairy-Stockfish: more numbers, then a tab and the PV; Sjaak: move numbers.
    fsf = parse_post("4 71 0 555 4 111000 0\t h9g7 e2c2")
    assert fsf is not None and fsf.pv_text == ("h9g7", "e2c2")
    sjaak = parse_post("  3    41      1       826  1. Hc2 Hg7 2. Hg2")
    assert sjaak is not None and sjaak.pv_text == ("Hc2", "Hg7", "Hg2") and sjaak.pv == []
    mate = parse_post("9 -100003 20 900 a0a1")
    assert mate is not None and mate.score == Score(mate=-3)
    assert parse_post("move h2e2") is None and parse_post("12. ... h2e2") is None
    assert Coordinates.ICCS.parse("h0g2") == Move.from_iccs("h0g2")


def test_protocol_names() -> None:
    assert [protocol_name(p) for p in ("xboard", "CECP", "winboard", "uci", "gtp")] == \
        ["xboard", "xboard", "xboard", "uci", "gtp"]
    with pytest.raises(ValueError):
        asyncio.run(start_xiangqi_engine("true", "gtp"))


# ------------------------------------------------------------ fake engine
def test_negotiation_usermove_setboard_and_sync() -> None:
    async def run() -> None:
        engine = await XboardEngine.start([sys.executable, FAKE, "good"], options={"Depth": 4})
        try:
            assert engine.protocol_version == 2 and engine.id_name == "Fake CECP good"
            assert engine.features["usermove"] == "1" and engine.options["Depth"].max == 9
            with pytest.raises(EngineProtocolError):
                await engine.configure({"Hash": 8})
            board = Board("3aka3/9/9/9/9/9/9/9/9/R2K4R w - - 0 1")
            board.push(Move.from_iccs("a0a9"))
            board.push(Move.from_iccs("e9e8"))
            result = await engine.play(board, Limit(movetime=0.05), timeout=5)
            assert result.move is not None and board.is_legal(result.move)
            assert result.last_info is not None and result.last_info.score == Score(cp=12)
            log = "\n".join(engine._process.log)
            assert "> setboard 3aka3/9/9/9/9/9/9/9/9/R2K4R w - - 0 1" in log
            assert "> usermove a0a9" in log and "> force" in log
        finally:
            await engine.quit()
    asyncio.run(run())


def test_protocol_1_slow_done_and_start_failures() -> None:
    async def run() -> None:
        v1 = await XboardEngine.start([sys.executable, FAKE, "v1"])
        slow = await XboardEngine.start([sys.executable, FAKE, "slowdone"])
        try:
            assert v1.protocol_version == 1 and not v1.features
            board = Board()
            result = await v1.play(board, Limit(movetime=0.05), timeout=5)
            assert result.move is not None and board.is_legal(result.move)  # "1. ... MOVE"
            assert slow.protocol_version == 2 and slow.features["done"] == "1"
        finally:
            await v1.quit()
            await slow.quit()
        for mode in ("exit", "nodone", "novariant"):
            with pytest.raises(EngineStartError):
                await XboardEngine.start([sys.executable, FAKE, mode], timeout=1.5)
    asyncio.run(run())


def test_sync_wrapper_replays_moves_without_setboard() -> None:
    board = Board()
    for text in ("h2e2", "h9g7", "h0g2"):
        board.push(Move.from_iccs(text))
    with SimpleXboardEngine.start([sys.executable, FAKE, "nosetboard"]) as engine:
        result = engine.play(board, Limit(movetime=0.05), timeout=5)
        assert result.move is not None and board.is_legal(result.move)
        assert engine.engine._known == (STARTING_FEN, [*board.move_stack, result.move])
        with pytest.raises(EngineProtocolError, match="no setboard"):
            engine.play(Board("3aka3/9/9/9/9/9/9/9/9/R2K4R w - - 0 1"), Limit(movetime=0.05))


@pytest.mark.parametrize(("mode", "reason", "fault"), [
    ("illegal", Reason.ILLEGAL_MOVE, None),
    ("garbage", Reason.ILLEGAL_MOVE, Fault.GARBAGE),
    ("crash", Reason.TIME_FORFEIT, Fault.CRASH),
    ("closepipe", Reason.TIME_FORFEIT, Fault.CRASH),
    ("hang", Reason.TIME_FORFEIT, Fault.TIMEOUT),
    ("refuse", Reason.ILLEGAL_MOVE, Fault.PROTOCOL),
    ("claim", Reason.TIME_FORFEIT, Fault.TIMEOUT),
    ("claimloss", Reason.RESIGNATION, None),
    ("resign", Reason.RESIGNATION, None),
    ("exit", Reason.LATE_ARRIVAL, Fault.START),
])
def test_faults_and_claims_end_as_the_referee_rules(mode: str, reason: Reason,
                                                    fault: Fault | None) -> None:
    token = uuid.uuid4().hex
    config = MatchConfig("xiangqi", [fake_spec(mode, token), fake_spec("good", token)],
                         time=parse_time_control("movetime=0.05"), games=2, startup_timeout=3)
    report = play(config)
    assert len(report.games) == 2
    reimports(report)
    for record in report.games:
        result = record.report.result
        loser = Side.FIRST if record.first == 0 else Side.SECOND
        assert result is not None and result.outcome is Outcome.WIN, record.report.notes
        assert result.winner is loser.other and result.reason is reason
        if fault is not None:
            assert record.report.faults[loser][0] is fault
        if mode.startswith("claim"):
            assert any("claims" in note for note in record.report.notes)
    assert not processes_with(token), "an engine process was left running"


def test_protocol_1_engine_plays_to_the_referees_verdict() -> None:
    config = MatchConfig("xiangqi", [fake_spec("v1"), fake_spec("resign")],
                         time=parse_time_control("movetime=0.05"), games=2)
    report = play(config)
    assert len(report.games) == 2
    reimports(report)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.reason is Reason.RESIGNATION
        assert len(record.report.game.moves) >= 4 and not record.report.faults


def test_draw_offer_accepted_by_an_xboard_opponent() -> None:
    config = MatchConfig("xiangqi", [fake_spec("offer"), fake_spec("good")],
                         time=parse_time_control("movetime=0.05"), games=2)
    report = play(config)
    assert len(report.games) == 2
    reimports(report)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.DRAW
        assert result.reason is Reason.AGREEMENT
        assert any("accepts the draw" in note for note in record.report.notes)


def test_draw_offers_a_uci_opponent_ignores_are_ruled_by_the_referee() -> None:
    # qisai's engine (UCI) is not told of offers: it declines by moving
    # (23.1); offering again after a refusal is a foul (9.1.3), and three
    # fouls lose (4.1.8).
    config = MatchConfig("xiangqi", [fake_spec("offer"), EngineSpec.parse("name=q cmd=builtin")],
                         time=parse_time_control("movetime=0.05"), games=2)
    report = play(config)
    assert len(report.games) == 2
    reimports(report)
    for record in report.games:
        game = record.report.game
        offerer = Side.FIRST if record.first == 0 else Side.SECOND
        assert game.result is not None and game.result.reason is Reason.FOULS
        assert game.result.winner is offerer.other and game.result.clause == "4.1.8"
        assert [i.side for i in game.infractions] == [offerer] * 3
        assert all(i.clause.startswith("9.1.3") for i in game.infractions)


# -------------------------------------------------------------- real engines
def real_match(engine: str, tmp_path: Path, opening: str | None = None) -> MatchReport:
    pgn = tmp_path / "games.pgn"
    openings = []
    if opening is not None:
        (tmp_path / "open.epd").write_text(opening + "\n")
        openings = load_openings(tmp_path / "open.epd", "xiangqi")
    config = MatchConfig(
        "xiangqi", [EngineSpec.parse("name=qisai cmd=builtin"),
                    EngineSpec.parse(f"name=other cmd={engine} proto=xboard")],
        time=parse_time_control("movetime=0.1"), games=2, pgnout=pgn, openings=openings,
        adjudication=Adjudication(max_plies=160), startup_timeout=30)
    report = play(config)
    assert len(report.games) == 2 and not report.faults, report.summary()
    reimports(report)
    records = parse_pgn(pgn.read_text())
    assert len(records) == 2
    for record, game in zip(records, report.games, strict=True):
        result = game.report.result
        assert result is not None and record.headers["Result"] == result.pgn_result
    return report


@pytest.mark.engine
def test_builtin_against_maxqi_from_an_opening_it_replays(tmp_path: Path,
                                                          tool: Callable[[str], str]) -> None:
    report = real_match(tool("maxqi"), tmp_path, f"{STARTING_FEN} moves h2e2 h9g7")
    start = Board()
    start.push(Move.from_iccs("h2e2"))
    start.push(Move.from_iccs("h9g7"))
    # The games start after the opening; MaxQi (no setboard) got its moves.
    assert all(g.report.game.start_fen == start.fen() for g in report.games)
    text = (tmp_path / "games.pgn").read_text()
    assert '[RedEngine "MaxQi 4.8G"]' in text and '[BlackEngine "MaxQi 4.8G"]' in text


@pytest.mark.engine
def test_builtin_against_sjaak(tmp_path: Path, tool: Callable[[str], str]) -> None:
    real_match(tool("sjaakii"), tmp_path)
    assert "Sjaak II" in (tmp_path / "games.pgn").read_text()


@pytest.mark.engine
def test_maxqi_without_setboard_reaches_a_position_by_replaying_the_moves(
        tool: Callable[[str], str]) -> None:
    maxqi = tool("maxqi")

    async def run() -> None:
        engine = await XboardEngine.start(maxqi)
        try:
            assert engine.features.get("setboard") == "0"
            # Black's cannon has taken the central pawn and checks: Red has
            # few legal moves, and MaxQi finds one only on the right board.
            line = ["h2e2", "h7e7", "b0c2", "b9c7", "b2b6", "e7e3"]
            board = Board()
            for text in line:
                board.push(Move.from_iccs(text))
            assert board.is_check()
            result = await engine.play(board, Limit(movetime=0.2), timeout=10)
            assert result.move is not None and board.is_legal(result.move)
            assert engine._known == (STARTING_FEN, [*line_moves(line), result.move])
            log = "\n".join(engine._process.log)
            assert "> setboard" not in log and "> e7e3" in log
        finally:
            await engine.quit()
    asyncio.run(run())


def line_moves(line: list[str]) -> list[Move]:
    return [Move.from_iccs(t) for t in line]


# ---------------------------------------------------------------- the arena
def test_arena_specs_and_serve_take_xboard_engines(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    import typer
    import uvicorn
    from typer.testing import CliRunner

    from qisai.cli.arena import register
    from qisai.web.seats.opponents import engine_kinds, parse_spec

    for text in ("xboard:maxqi", "cecp:maxqi", "WinBoard:maxqi"):
        assert parse_spec(text).protocol == "xboard" and parse_spec(text).argv == ("maxqi",)
    assert engine_kinds("m", {"m": "xboard:maxqi"}) == ("xiangqi",)
    served: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.setdefault("app", app))
    app = typer.Typer()
    register(app)
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path), "--engine", "xboard:maxqi",
                                 "--engine", "sj=cecp:sjaakii --xboard"])
    assert r.exit_code == 0, r.output
    hub = served["app"].state.qisai.hub  # type: ignore[attr-defined]
    assert hub.engines == {"maxqi": "xboard:maxqi", "sj": "cecp:sjaakii --xboard"}
    r = CliRunner().invoke(app, ["serve", "--engine", "maxqi"])
    assert r.exit_code == 2 and "NAME=COMMAND" in r.output


def test_arena_seat_plays_and_resigns_for_an_xboard_engine() -> None:
    import shlex

    from qisai.web.seats.opponents import UciXiangqiSeat, XiangqiRequest, parse_spec

    async def run() -> None:
        board = Board()
        seat = UciXiangqiSeat(parse_spec("xboard:" + shlex.join([sys.executable, FAKE, "resign"])),
                              "fake")
        try:
            for _ in range(2):
                answer = await seat.move(XiangqiRequest(board.copy(), 0.05, 5.0))
                board.push(Move.from_iccs(answer))
                board.push(sorted(board.legal_moves(), key=lambda m: m.iccs())[0])
            assert await seat.move(XiangqiRequest(board.copy(), 0.05, 5.0)) == "resign"
        finally:
            await seat.close()
    asyncio.run(run())


def test_match_command_with_proto_xboard(tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from qisai.cli.engines import register

    app = typer.Typer()
    register(app)
    app.command("version")(lambda: None)  # a second command keeps "match" a sub-command
    pgn = tmp_path / "out.pgn"
    offer = f"{sys.executable} {FAKE} offer"
    result = CliRunner().invoke(app, [
        "match", "--engine", f'name=offers cmd="{offer}" proto=cecp',
        "--engine", f'name=takes cmd="{sys.executable} {FAKE} good" proto=xboard',
        "--tc", "movetime=0.05", "--games", "2", "--pgnout", str(pgn)])
    assert result.exit_code == 0, result.output
    assert "offers vs takes: +0 =2 -0" in result.output and "agreement 2" in result.output
    text = pgn.read_text()
    assert len(parse_pgn(text)) == 2 and '[RedEngine "Fake CECP offer"]' in text


def test_gauntlet_and_sprt_with_xboard_engines() -> None:
    from qisai.competition.match import Sprt

    gauntlet = MatchConfig("xiangqi", [fake_spec("good"), fake_spec("garbage"), fake_spec("illegal")],
                           time=parse_time_control("movetime=0.05"), games=2,
                           tournament="gauntlet")
    report = play(gauntlet)
    assert sorted(report.pairs) == [(0, 1), (0, 2)]
    assert all((st.wins, st.losses) == (2, 0) for st in report.pairs.values())
    sprt = MatchConfig("xiangqi", [fake_spec("good"), fake_spec("garbage")],
                       time=parse_time_control("movetime=0.05"), games=20,
                       sprt=Sprt.parse("elo0=0 elo1=200"))
    report = play(sprt)
    assert report.stopped_by_sprt == "H1 accepted" and len(report.games) == 5
