"""A GTP engine holding a seat of an arena game (qisai.web.seats.opponents.GtpGoSeat),
against a recording fake engine (fakes/gtp_recorder.py): the time system it
is told (``kgs-time_settings`` for byo-yomi and Canadian time, the plain
``time_settings`` fallback, ``time_left``), and how its board is brought back
in step with the referee's after a void move (Go rule 10/11(1): an invalid
move is void and counts as a pass) or a move the engine refuses.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path

from qisai.go.board import Board
from qisai.referee.clock import Byoyomi, ByoyomiKind, SideTimeControl, Stage, TimeControl
from qisai.referee.rulesets import GoRules
from qisai.referee.verdict import Side
from qisai.web.seats.opponents import GoRequest, GtpGoSeat, parse_spec

RECORDER = Path(__file__).parent / "fakes" / "gtp_recorder.py"

JAPANESE = TimeControl.both(SideTimeControl((Stage(None, 600),),
                                            byoyomi=Byoyomi(ByoyomiKind.JAPANESE, 3, 30)))
CHINESE = TimeControl.both(SideTimeControl((Stage(None, 3600),),
                                           byoyomi=Byoyomi(ByoyomiKind.CHINESE, 5, 60)))
CANADIAN = TimeControl.both(SideTimeControl((Stage(None, 300),),
                                            byoyomi=Byoyomi(ByoyomiKind.CANADIAN, 1, 120, moves=10)))
ABSOLUTE = TimeControl.both(SideTimeControl((Stage(None, 900),)))


def seat(log: Path, *options: str) -> GtpGoSeat:
    spec = parse_spec(f"gtp:{sys.executable} {RECORDER} {log} {' '.join(options)}")
    return GtpGoSeat(spec, "recorder")


def request(board: Board, control: TimeControl | None = JAPANESE,
            time_left: tuple[float, int] | None = None) -> GoRequest:
    rules = replace(GoRules(), board_size=board.size, time_control=control)
    side = Side.FIRST if board.to_move.letter == "B" else Side.SECOND
    return GoRequest(board=board.copy(), rules=rules, side=side, think=1.0, timeout=30.0,
                     time_left=time_left)


def commands(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


def set_up(log: Path) -> list[str]:
    """The commands after the handshake, up to the first move."""
    lines = commands(log)
    return [line for line in lines
            if line.split()[0] in ("boardsize", "komi", "kgs-time_settings", "time_settings")]


def ask(s: GtpGoSeat, *requests: GoRequest) -> list[str]:
    async def go() -> list[str]:
        try:
            return [await s.move(r) for r in requests]
        finally:
            await s.close()
    return asyncio.run(go())


# ------------------------------------------------------------ time system
def test_japanese_and_chinese_byoyomi_are_told_with_kgs_time_settings(tmp_path: Path) -> None:
    board = Board(9)
    board.play("E5")
    for control, expected in [(JAPANESE, "kgs-time_settings byoyomi 600 30 3"),
                              (CHINESE, "kgs-time_settings byoyomi 3600 60 5")]:
        log = tmp_path / f"{expected.split()[2]}.log"
        assert ask(seat(log), request(board, control)) == ["pass"]
        assert set_up(log) == ["boardsize 9", "komi 7.5", expected]


def test_canadian_and_absolute_time_with_kgs_time_settings(tmp_path: Path) -> None:
    board = Board(9)
    board.play("E5")
    log = tmp_path / "canadian.log"
    ask(seat(log), request(board, CANADIAN))
    assert "kgs-time_settings canadian 300 120 10" in commands(log)
    log = tmp_path / "absolute.log"
    ask(seat(log), request(board, ABSOLUTE))
    assert "kgs-time_settings absolute 900" in commands(log)
    log = tmp_path / "none.log"
    ask(seat(log), request(board, None))
    # no clock: a pooled process may have served a game with one, so it is
    # told "none" (where it knows kgs-time_settings), never a time
    assert [line for line in commands(log) if "time_settings" in line] == [
        "kgs-time_settings none"]


def test_engine_without_kgs_gets_plain_time_settings(tmp_path: Path) -> None:
    board = Board(9)
    board.play("E5")
    for control, expected in [(JAPANESE, "time_settings 600 30 1"),  # one stone per period
                              (CANADIAN, "time_settings 300 120 10"),
                              (ABSOLUTE, "time_settings 900 0 0")]:
        log = tmp_path / f"{expected.replace(' ', '_')}.log"
        ask(seat(log, "--no-kgs"), request(board, control, time_left=(30, 1)))
        lines = commands(log)
        assert expected in lines
        assert not any(line.startswith(("kgs-time_settings", "time_left")) for line in lines)


def test_time_left_is_sent_before_genmove(tmp_path: Path) -> None:
    board = Board(9)
    board.play("E5")
    log = tmp_path / "left.log"
    ask(seat(log), request(board, CANADIAN, time_left=(97.6, 4)))
    lines = commands(log)
    assert lines[-3:-1] == ["time_left W 97 4", "genmove W"]


# ------------------------------------------------------------ re-sync
def test_void_move_is_replayed_as_a_pass(tmp_path: Path) -> None:
    """The engine answers E5, which is occupied: the referee voids it and
    records a pass for White (10: 视为弃权一手).  The engine's board has E5
    white, so before the next genmove it is cleared and the game replayed."""
    log = tmp_path / "void.log"
    s = seat(log, "--moves", "E5,C3")
    board = Board(9)
    board.play("E5")
    first = request(board)
    board.play(None)  # White's void move counts as a pass
    board.play("G7")
    second = request(board)
    assert ask(s, first, second) == ["E5", "C3"]
    lines = commands(log)
    after = lines[lines.index("genmove W") + 1:]
    assert after[:4] == ["clear_board", "play B E5", "play W pass", "play B G7"]
    assert after[-2:] == ["genmove W", "quit"]


def test_moves_the_engine_has_seen_are_not_sent_again(tmp_path: Path) -> None:
    log = tmp_path / "steady.log"
    s = seat(log, "--moves", "C3,C7")
    board = Board(9)
    board.play("E5")
    first = request(board)
    board.play("C3")  # the referee records the engine's move
    board.play("G7")
    second = request(board)
    assert ask(s, first, second) == ["C3", "C7"]
    lines = commands(log)
    # the board is cleared once, when the process is set up for this game
    # (it may have served another), never again to replay the moves it saw
    assert lines.count("clear_board") == 1
    assert [line for line in lines if line.startswith(("play", "genmove"))] == [
        "play B E5", "genmove W", "play B G7", "genmove W"]


def test_refused_move_rebuilds_the_engines_board(tmp_path: Path) -> None:
    """The engine refuses G7 (its own rules differ): its board is cleared
    and the referee's game replayed, after which it answers."""
    log = tmp_path / "refused.log"
    s = seat(log, "--moves", "C3,C7", "--refuse-once", "G7")
    board = Board(9)
    board.play("E5")
    first = request(board)
    board.play("C3")
    board.play("G7")
    second = request(board)
    assert ask(s, first, second) == ["C3", "C7"]
    lines = commands(log)
    refused = lines.index("play B G7")
    assert lines[refused + 1:refused + 6] == [
        "clear_board", "play B E5", "play W C3", "play B G7", "genmove W"]
