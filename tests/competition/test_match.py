"""The match runner: settings, statistics, refereed games with real and
misbehaving engines, records that re-import to the same result."""

from __future__ import annotations

import asyncio
import math
import resource
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from qisai.competition.elo import elo_interval, los
from qisai.competition.match import (
    EngineSpec,
    MatchConfig,
    MatchError,
    MatchReport,
    Sprt,
    load_openings,
    parse_time_control,
    play_match,
    run_match,
)
from qisai.engines.play import Adjudication
from qisai.engines.uci import UciEngine
from qisai.referee.clock import ByoyomiKind
from qisai.referee.go_game import GoGame
from qisai.referee.records import go_from_sgf, xiangqi_from_pgn
from qisai.referee.rulesets import GoRules, XiangqiRules
from qisai.referee.verdict import Outcome, Reason, Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.xiangqi.board import Board
from qisai.xiangqi.pgn import parse_pgn

FAKES = Path(__file__).resolve().parent.parent / "engines" / "fakes"
# Two chariots against a bare general with advisors: games end by mate quickly.
ENDGAME = "3aka3/9/9/9/9/9/9/9/9/R2K4R w - - 0 1"


def fake_spec(mode: str, name: str | None = None) -> EngineSpec:
    return EngineSpec(name or mode, (sys.executable, str(FAKES / "xiangqi_fake.py"), mode), "uci")


# ------------------------------------------------------------------ settings
def test_time_controls() -> None:
    tc = parse_time_control("40/5400+0")
    assert tc.control is not None and tc.movetime is None
    side = tc.control.first
    assert side.stages[0].moves == 40 and side.stages[0].seconds == 5400 and side.repeat_last
    tc = parse_time_control("60+1")
    assert tc.control is not None and tc.control.first.increment == 1
    assert tc.control.first.stages[0].moves is None
    tc = parse_time_control("300 byoyomi 5x60")
    b = tc.control.first.byoyomi if tc.control else None
    assert b is not None and b.kind is ByoyomiKind.JAPANESE and b.periods == 5 and b.period_seconds == 60
    tc = parse_time_control("600 canadian 25/300")
    b = tc.control.first.byoyomi if tc.control else None
    assert b is not None and b.kind is ByoyomiKind.CANADIAN and b.moves == 25
    tc = parse_time_control("3600 chinese 5")
    b = tc.control.first.byoyomi if tc.control else None
    assert b is not None and b.kind is ByoyomiKind.CHINESE
    tc = parse_time_control("movetime=0.1")
    assert tc.movetime == 0.1 and tc.control is not None and tc.control.first.move_limit == 1.1
    assert parse_time_control("none").control is None
    for bad in ("fast", "40/", "300 byoyomi x", "movetime=0"):
        with pytest.raises(MatchError):
            parse_time_control(bad)


def test_engine_specs() -> None:
    spec = EngineSpec.parse('name=fsf cmd="/usr/games/fairy-stockfish" proto=ucci option.Skill_Level=0')
    assert spec == EngineSpec("fsf", ("/usr/games/fairy-stockfish",), "ucci", (("Skill_Level", "0"),))
    builtin = EngineSpec.parse("cmd=builtin", game="go")
    assert builtin.protocol == "gtp" and builtin.command[-1] == "qisai.engines.builtin.go_server"
    gnugo = EngineSpec.parse('name=gg cmd="gnugo --mode gtp" arg="--level 0"', game="go")
    assert gnugo.command == ("gnugo", "--mode", "gtp", "--level", "0")
    for bad in ("name=x", "cmd=a colour=red", "cmd=a proto=telnet", "cmd=a proto=gtp", "cmd"):
        with pytest.raises(MatchError):
            EngineSpec.parse(bad)
    # xboard/CECP: the cutechess spelling and its other names.
    for proto in ("xboard", "cecp", "WinBoard"):
        spec = EngineSpec.parse(f"name=maxqi cmd=maxqi proto={proto}")
        assert spec == EngineSpec("maxqi", ("maxqi",), "xboard")
    with pytest.raises(MatchError, match="cannot play go"):
        EngineSpec.parse("cmd=maxqi proto=xboard", game="go")


def test_pairings_and_profiles() -> None:
    specs = [fake_spec("good", n) for n in "abc"]
    assert MatchConfig("xiangqi", specs, tournament="round-robin").pairings() == [(0, 1), (0, 2), (1, 2)]
    assert MatchConfig("xiangqi", specs, tournament="gauntlet").pairings() == [(0, 1), (0, 2)]
    with pytest.raises(MatchError):
        MatchConfig("xiangqi", specs).pairings()
    with pytest.raises(MatchError):
        MatchConfig("xiangqi", specs[:2], rules="chinese").profile()
    assert MatchConfig("xiangqi", specs[:2], rules="axf").profile().name == "axf"


def test_openings(tmp_path: Path) -> None:
    epd = tmp_path / "o.epd"
    epd.write_text("# comment\n" + ENDGAME + "\n"
                   "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - moves h2e2 h9g7\n")
    ops = load_openings(epd, "xiangqi")
    assert [o.moves for o in ops] == [(), ("h2e2", "h9g7")] and ops[0].fen == ENDGAME
    pgn = tmp_path / "o.pgn"
    pgn.write_text('[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. h2e2 h9g7 2. h0g2 *\n')
    assert load_openings(pgn, "xiangqi")[0].moves == ("h2e2", "h9g7", "h0g2")
    bad = tmp_path / "bad.epd"
    bad.write_text("rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR w - - 0 1 moves a0a9\n")
    with pytest.raises(MatchError, match="line 1"):
        load_openings(bad, "xiangqi")
    sgf = tmp_path / "o.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc])")
    assert load_openings(sgf, "go")[0].moves == ("B 4,4", "W 6,2")


# --------------------------------------------------------------- statistics
def test_elo_los_and_sprt_numbers() -> None:
    elo, lo, hi = elo_interval(10, 10, 10)
    assert elo == pytest.approx(0) and lo < 0 < hi and lo == pytest.approx(-hi, rel=1e-9)
    # 60% is +70.4 Elo; more games shrink the interval.
    e1, lo1, hi1 = elo_interval(30, 60, 10)
    e2, lo2, hi2 = elo_interval(300, 600, 100)
    assert e1 == pytest.approx(70.44, abs=0.01) and e2 == pytest.approx(e1)
    assert hi2 - lo2 < (hi1 - lo1) / 3
    assert elo_interval(3, 0, 0)[0] == math.inf
    assert los(0, 0) == 0.5 and los(10, 0) == pytest.approx(0.99922, abs=1e-4)
    assert los(5, 10) < 0.5
    sprt = Sprt.parse("elo0=0 elo1=10 alpha=0.05 beta=0.05")
    lower, upper = sprt.bounds
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert sprt.state(600, 300, 400) == "H1 accepted"
    assert sprt.state(400, 300, 600) == "H0 accepted"
    assert sprt.state(5, 5, 5) == "continue"
    with pytest.raises(MatchError):
        Sprt.parse("elo0=5 elo1=0")


# ------------------------------------------------------------------ faults
def _asyncio_run(config: MatchConfig) -> MatchReport:
    return asyncio.run(run_match(config))


@pytest.mark.parametrize("runner", [_asyncio_run, play_match], ids=["asyncio", "play_match"])
@pytest.mark.parametrize(("mode", "reason", "clause"), [
    ("hang", Reason.TIME_FORFEIT, "本次比赛规则 2"),
    ("crash", Reason.TIME_FORFEIT, "本次比赛规则 2"),
    ("garbage", Reason.ILLEGAL_MOVE, "4.1.6"),
    ("illegal", Reason.ILLEGAL_MOVE, "4.1.6"),
    ("exit", Reason.LATE_ARRIVAL, "4.1.5, 21.1"),
])
def test_faults_lose_with_the_right_reason(mode: str, reason: Reason, clause: str,
                                           runner: Callable[[MatchConfig], MatchReport],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A hung engine gets a short grace to answer "stop" before it is killed.
    # play_match runs the match in uvloop's loop where it is installed.
    monkeypatch.setattr(UciEngine, "stop_grace", 0.2)
    config = MatchConfig("xiangqi", [fake_spec(mode), fake_spec("good")],
                         time=parse_time_control("movetime=0.05"), games=2, startup_timeout=3)
    report = runner(config)
    assert len(report.games) == 2
    _reimports(report)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.WIN
        loser = Side.FIRST if record.first == 0 else Side.SECOND
        assert result.winner is loser.other
        assert result.reason is reason and result.clause == clause
        assert loser in record.report.faults or mode == "illegal"
    st = report.pairs[(0, 1)]
    assert (st.wins, st.draws, st.losses) == (0, 0, 2)
    assert report.reasons[reason.value] == 2


def test_illegal_move_under_local_rules_is_a_foul_and_fouls_lose() -> None:
    # cxa-local: an illegal move is a technical foul, the move is not made,
    # and two fouls lose (本次比赛规则 8(五)).
    config = MatchConfig("xiangqi", [fake_spec("illegal"), fake_spec("good")], rules="cxa-local",
                         time=parse_time_control("movetime=0.05"), games=2)
    report = asyncio.run(run_match(config))
    assert len(report.games) == 2
    _reimports(report)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.reason is Reason.FOULS


def test_sprt_stops_the_match_when_decided() -> None:
    config = MatchConfig("xiangqi", [fake_spec("good"), fake_spec("garbage")],
                         time=parse_time_control("movetime=0.05"), games=20,
                         sprt=Sprt.parse("elo0=0 elo1=200"))
    report = asyncio.run(run_match(config))
    assert report.stopped_by_sprt == "H1 accepted"
    assert len(report.games) == 5  # LLR after n straight wins: 2.56 at 4, 3.99 at 5
    assert "H1 accepted" in report.summary()


# --------------------------------------------------------------- real games
def _reimports(report: MatchReport) -> None:
    """Every game's record re-imports and replays to the same result."""
    profile = report.config.profile()
    for record in report.games:
        original = record.report.result
        assert original is not None
        if report.config.game == "xiangqi":
            assert isinstance(profile, XiangqiRules)
            game: XiangqiGame | GoGame = xiangqi_from_pgn(record.record, rules=profile)
        else:
            assert isinstance(profile, GoRules)
            game = go_from_sgf(record.record, rules=profile)
        assert game.result == original
        assert [m.move for m in game.moves] == [m.move for m in record.report.game.moves]


@pytest.mark.engine
def test_fairy_stockfish_self_play_and_against_builtin(tmp_path: Path, fairy: str) -> None:
    openings = tmp_path / "endgame.epd"
    openings.write_text(ENDGAME + "\n")
    pgn = tmp_path / "games.pgn"
    config = MatchConfig(
        "xiangqi",
        [EngineSpec.parse(f"name=fsf-uci cmd={fairy} proto=uci"),
         EngineSpec.parse(f"name=fsf-ucci cmd={fairy} proto=ucci"),
         EngineSpec.parse("name=qisai cmd=builtin")],
        time=parse_time_control("movetime=0.1"), rules="cxa", games=2, concurrency=2,
        tournament="gauntlet", openings=load_openings(openings, "xiangqi"), pgnout=pgn,
        adjudication=Adjudication(max_plies=120), startup_timeout=30)
    report = asyncio.run(run_match(config))
    assert len(report.games) == 4 and not report.faults
    for record in report.games:
        result = record.report.result
        assert result is not None
        # The side with two chariots mates (or the referee rules otherwise, but
        # never against the side with the chariots by a fault).
        if result.outcome is Outcome.WIN:
            assert result.winner is Side.FIRST
    text = pgn.read_text()
    assert len(parse_pgn(text)) == 4 and f'[FEN "{ENDGAME}"]' in text
    _reimports(report)
    assert "fsf-uci vs fsf-ucci" in report.summary()
    assert Board(ENDGAME).legal_moves()


@pytest.mark.engine
def test_play_match_counts_the_cpu_of_runner_and_engines(fairy: str) -> None:
    config = MatchConfig(
        "xiangqi", [EngineSpec.parse(f"name=a cmd={fairy}"), EngineSpec.parse(f"name=b cmd={fairy}")],
        time=parse_time_control("movetime=0.01"), games=2, concurrency=2,
        adjudication=Adjudication(max_plies=40))
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = play_match(config)
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert len(report.games) == 2 and not report.faults
    _reimports(report)
    # The engines are waited for before the figures are read: the CPU of
    # children counts only once they are reaped, so theirs is in the report,
    # all of it (nothing of theirs is reaped after the match returns).
    ours = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
    assert report.engines_cpu > 0
    assert report.engines_cpu == pytest.approx(ours, abs=0.01)
    assert report.runner_cpu > 0


def test_go_opening_is_played_in_the_refereed_game(tmp_path: Path) -> None:
    sgf = tmp_path / "opening.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc])")
    passer = EngineSpec("passer", (sys.executable, str(FAKES / "gtp_fake.py"), "passer"), "gtp")
    config = MatchConfig("go", [passer, EngineSpec("passer2", passer.command, "gtp")],
                         time=parse_time_control("none"), openings=load_openings(sgf, "go"),
                         board_size=9, komi=0.5)
    report = asyncio.run(run_match(config))
    profile = config.profile()
    assert isinstance(profile, GoRules)
    for record in report.games:
        moves = [m.move for m in record.report.game.moves]
        assert moves == ["E5", "C7", "pass", "pass"]
        result = record.report.result
        # One stone each: White wins by the komi.
        assert result is not None and result.winner is Side.SECOND and result.reason is Reason.SCORE
        assert go_from_sgf(record.record, rules=profile).result == result


@pytest.mark.engine
def test_clocks_reach_the_engines(tmp_path: Path, fairy: str) -> None:
    """With real clocks the engines get wtime/btime (UCI) or time/opptime
    (UCCI) from the referee's clock and play within them."""
    openings = tmp_path / "endgame.epd"
    openings.write_text(ENDGAME + "\n")
    config = MatchConfig(
        "xiangqi",
        [EngineSpec.parse(f"name=fsf cmd={fairy} proto=ucci"), EngineSpec.parse("name=qisai cmd=builtin")],
        time=parse_time_control("6+0.1"), games=2, concurrency=2,
        openings=load_openings(openings, "xiangqi"), adjudication=Adjudication(max_plies=100),
        startup_timeout=30)
    report = asyncio.run(run_match(config))
    assert not report.faults, report.summary()
    for record in report.games:
        game = record.report.game
        assert game.result is not None and game.result.reason is not Reason.TIME_FORFEIT
        for m in game.moves:
            # 6 s plus 0.1 s for every move made, minus the time used.
            assert m.clock is not None and 0 < m.clock.main <= 6 + 0.1 * m.clock.moves
            assert m.clock.main == pytest.approx(6 + 0.1 * m.clock.moves - sum(
                n.elapsed for n in game.moves if n.side is m.side and n.ply <= m.ply), abs=0.01)
    _reimports(report)


def test_score_adjudication_rules() -> None:
    from qisai.engines.play import _ScoreWatch

    watch = _ScoreWatch(Adjudication(resign_moves=2, resign_score=500))
    assert watch.update(Side.FIRST, 0, -600) is None
    assert watch.update(Side.SECOND, 1, 600) is None
    assert watch.update(Side.FIRST, 2, -700) == "resign"
    watch = _ScoreWatch(Adjudication(resign_moves=2, resign_score=500))
    watch.update(Side.FIRST, 0, -600)
    watch.update(Side.SECOND, 1, 600)
    assert watch.update(Side.FIRST, 2, None) is None  # no score: the run starts again
    assert watch.update(Side.FIRST, 4, -600) is None
    draw = _ScoreWatch(Adjudication(draw_from=2, draw_moves=2, draw_score=20))
    assert [draw.update(Side(p % 2), p, 5) for p in range(6)] == [None, None, None, None, None, "draw"]
    assert draw.update(Side.SECOND, 7, 300) is None
