"""qisai's own Go engine: its playout board against the rules core, its
search, its GTP server, and games against a random player and GNU Go."""

from __future__ import annotations

import asyncio
import io
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.competition.match import EngineSpec, MatchConfig, parse_time_control, run_match
from qisai.engines.builtin import builtin_command
from qisai.engines.builtin.go_search import BLACK, EMPTY, PASS, WHITE, MctsSearcher, Playout
from qisai.engines.builtin.go_server import GoServer
from qisai.engines.gtp import GtpEngine
from qisai.engines.play import Adjudication
from qisai.go.board import Board
from qisai.go.rules import JAPANESE, Color
from qisai.referee.records import go_from_sgf
from qisai.referee.rulesets import GoRules
from qisai.referee.verdict import Outcome, Reason, Side

RANDOM = Path(__file__).parent / "fakes" / "go_random.py"


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([5, 7, 9]))
def test_playout_board_agrees_with_the_rules_core(seed: int, size: int) -> None:
    # Simple ko (Japanese rules) is what the playout board knows.
    rng = random.Random(seed)
    board = Board(size, JAPANESE)
    pos = Playout(size)
    for _ in range(size * size * 2):
        legal = set(board.legal_points())
        mine = {pos.point(p) for p in pos.points
                if pos.cells[p] == EMPTY and pos.copy().play(p) is not None}
        assert mine == legal
        if not legal or rng.random() < 0.03:
            board.pass_move()
            pos.play(PASS)
            if board.is_game_over():
                break
            continue
        point = rng.choice(sorted(legal))
        board.play(point)
        assert pos.play(pos.index(*point)) is not None
        for p in pos.points:
            colour = board.get(pos.point(p))  # type: ignore[arg-type]
            assert pos.cells[p] == (EMPTY if colour is None else int(colour))


def test_playout_score_and_eyes() -> None:
    pos = Playout(5)
    # Black on column b, White on column e: empty points count for the
    # colour whose stones alone touch them (columns a, c for Black; d for White).
    for row in range(5):
        pos.cells[pos.index(row, 1)] = BLACK
        pos.cells[pos.index(row, 4)] = WHITE
    assert pos.score(0.5) == 15 - 10 - 0.5
    corner = Playout(5)
    corner.cells[corner.index(0, 3)] = WHITE
    corner.cells[corner.index(1, 4)] = WHITE
    assert corner.is_eye(corner.index(0, 4), WHITE)
    assert not corner.is_eye(corner.index(0, 4), BLACK)
    corner.cells[corner.index(1, 3)] = BLACK  # an enemy diagonal on the edge: false eye
    assert not corner.is_eye(corner.index(0, 4), WHITE)


def test_search_plays_the_capture_and_passes_with_nothing_left() -> None:
    pos = Playout(5)
    # A white stone in atari at the centre: Black captures at once.
    pos.cells[pos.index(2, 2)] = WHITE
    for point in ((1, 2), (3, 2), (2, 1)):
        pos.cells[pos.index(*point)] = BLACK
    outcome = MctsSearcher(seed=1).search(pos, 0.5, max_playouts=300)
    assert pos.point(outcome.move) == (2, 3)
    assert MctsSearcher(seed=1).search(pos, 0.5, allowed=[], max_playouts=10).move == PASS


def _gtp(server: GoServer, *lines: str) -> list[str]:
    out = io.StringIO()
    server._in = io.StringIO("\n".join(lines) + "\n")
    server._out = out
    server.run()
    return [block.strip() for block in out.getvalue().split("\n\n") if block.strip()]


def test_gtp_server_commands() -> None:
    server = GoServer(io.StringIO(), io.StringIO(), playouts=100, seed=3)
    replies = _gtp(server, "1 protocol_version", "boardsize 9", "komi 7.5", "play b E5",
                   "play b E5", "genmove w", "undo", "undo", "fixed_handicap 4", "genmove w",
                   "final_score", "final_status_list dead", "boardsize 99", "frobnicate",
                   "known_command genmove", "time_settings 60 10 5", "time_left w 30 0",
                   "kgs-time_settings byoyomi 60 10 3")
    assert replies[0] == "=1 2"
    assert replies[4].startswith("? illegal move")
    assert replies[5].startswith("= ") and replies[5] != "= pass"
    assert replies[8] == "= C3 G7 C7 G3" or sorted(replies[8][2:].split()) == ["C3", "C7", "G3", "G7"]
    assert replies[9].startswith("= ") and replies[9][2:] not in ("C3", "G7", "C7", "G3")
    assert re.fullmatch(r"= [BW]\+\d+(\.\d+)?|= 0", replies[10]) and replies[11] == "="
    assert replies[12].startswith("?") and replies[13] == "? unknown command"
    assert replies[14] == "= true"
    assert replies[-3:] == ["=", "=", "="]


def test_passes_back_when_ahead_and_agrees_on_dead_stones() -> None:
    server = GoServer(io.StringIO(), io.StringIO(), playouts=50, seed=1)
    # Black owns the left three columns of a 5x5 board, White the right two,
    # and a lone white stone sits dead in Black's area.
    moves = []
    for row in range(5):
        moves += [f"play b C{row + 1}", f"play w D{row + 1}"]
    moves += ["play b pass", "play w A3", "play b pass", "play w pass"]
    replies = _gtp(server, "boardsize 5", "komi 0.5", *moves, "genmove b",
                   "final_status_list dead", "final_score")
    assert replies[-3] == "= pass"
    assert replies[-2] == "= A3"
    assert replies[-1] == "= B+4.5"


def test_builtin_beats_a_random_player_and_its_records_reimport() -> None:
    config = MatchConfig(
        "go",
        [EngineSpec("qisai", tuple(builtin_command("go")) + ("--playouts", "40", "--seed", "1"), "gtp"),
         EngineSpec("random", (sys.executable, str(RANDOM), "7"), "gtp")],
        time=parse_time_control("none"), games=2, concurrency=2, board_size=9,
        adjudication=Adjudication(max_plies=300), startup_timeout=30)
    report = asyncio.run(run_match(config))
    stats = report.pairs[(0, 1)]
    assert stats.wins == 2, report.summary()
    profile = config.profile()
    assert isinstance(profile, GoRules)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.reason is Reason.SCORE
        assert go_from_sgf(record.record, rules=profile).result == result


@pytest.mark.engine
def test_gnugo_against_builtin_on_9x9(gnugo: str) -> None:
    config = MatchConfig(
        "go",
        [EngineSpec("gnugo", (gnugo, "--mode", "gtp", "--level", "0"), "gtp"),
         EngineSpec("qisai", tuple(builtin_command("go")) + ("--seconds", "0.05"), "gtp")],
        time=parse_time_control("movetime=0.5"), games=2, concurrency=2, board_size=9,
        adjudication=Adjudication(max_plies=300), startup_timeout=30)
    report = asyncio.run(run_match(config))
    assert len(report.games) == 2 and not report.faults, report.summary()
    profile = config.profile()
    assert isinstance(profile, GoRules)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.WIN
        assert result.reason in (Reason.SCORE, Reason.RESIGNATION)
        assert go_from_sgf(record.record, rules=profile).result == result
        assert record.report.game.moves[-1].move == "pass" or result.reason is Reason.RESIGNATION
    assert sum(1 for r in report.games if r.report.result and r.report.result.winner in
               (Side.FIRST, Side.SECOND)) == 2


def test_gtp_client_drives_the_server() -> None:
    async def go() -> None:
        engine = await GtpEngine.start(builtin_command("go") + ["--playouts", "30"], timeout=30)
        try:
            assert engine.name == "qisai-go" and "final_status_list" in engine.commands
            await engine.boardsize(9)
            await engine.komi(7.5)
            await engine.play(Color.BLACK, (4, 4))
            reply = await engine.genmove(Color.WHITE, timeout=30)
            assert reply.point is not None and reply.point != (4, 4)
        finally:
            await engine.quit()
    asyncio.run(go())


@pytest.mark.engine
def test_handicap_and_time_reach_gnugo(gnugo: str) -> None:
    config = MatchConfig(
        "go",
        [EngineSpec("passer", (sys.executable, str(Path(__file__).parent / "fakes" / "gtp_fake.py"),
                               "passer"), "gtp"),
         EngineSpec("gnugo", (gnugo, "--mode", "gtp", "--level", "0"), "gtp")],
        time=parse_time_control("60 byoyomi 3x10"), games=1, board_size=7, handicap=2, concurrency=2,
        adjudication=Adjudication(max_plies=200))
    report = asyncio.run(run_match(config))
    profile = config.profile()
    assert isinstance(profile, GoRules)
    assert len(report.games) == 2  # one game with each colour
    for record in report.games:
        assert not record.report.faults and not record.report.notes, record.report.notes
        assert "HA[2]" in record.record and record.record.count("AB[") == 1
        result = record.report.result
        assert result is not None and result.reason is Reason.SCORE
        # GNU Go wins with either colour against a player who only passes.
        assert record.report.names[result.winner.value] == "gnugo"  # type: ignore[union-attr]
        assert go_from_sgf(record.record, rules=profile).result == result
