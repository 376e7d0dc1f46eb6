"""UCI/UCCI client: real Fairy-Stockfish in both protocols, fakes for faults."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from qisai.engines.errors import (
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from qisai.engines.process import EngineProcess
from qisai.engines.results import Coordinates, Limit
from qisai.engines.uci import Protocol, SimpleUciEngine, UciEngine, parse_info, parse_option
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import InvalidMoveError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import Move

Fake = Callable[..., list[str]]

# A bound against hanging, many times what a step takes on a loaded machine:
# never a speed measurement (the hanging fakes sleep an hour).
HANG_BOUND = 60.0


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


# ---------------------------------------------------------------- parsing
def test_parse_option_uci_and_ucci_forms() -> None:
    o = parse_option("option name Skill Level type spin default 20 min -20 max 20")
    assert o is not None and (o.name, o.type, o.default, o.min, o.max) == ("Skill Level", "spin", "20", -20, 20)
    assert o.check(3) == "3"
    with pytest.raises(EngineProtocolError):
        o.check(21)
    u = parse_option("option usemillisec type check default false")
    assert u is not None and u.name == "usemillisec" and u.check(True) == "true"
    c = parse_option("option name UCI_Variant type combo default chess var chess var xiangqi")
    assert c is not None and c.choices == ("chess", "xiangqi") and c.check("XIANGQI") == "xiangqi"
    with pytest.raises(EngineProtocolError):
        c.check("shogi")
    assert parse_option("option garbage") is None


def test_parse_info_fields_and_both_coordinates() -> None:
    line = "info depth 9 seldepth 13 multipv 1 score cp -14 upperbound nodes 21587 nps 169976 time 127 pv b10c8 c4c5 zz9"
    info = parse_info(line, Coordinates.RANKS_1_10)
    assert info.depth == 9 and info.seldepth == 13 and info.nodes == 21587 and info.time == 0.127
    assert info.score is not None and info.score.cp == -14 and info.score.bound == "upper"
    assert info.pv == [Move.from_iccs("b9c7"), Move.from_iccs("c3c4")]
    mate = parse_info("info depth 3 score mate -2 pv h2e2 string hello world", Coordinates.ICCS)
    assert mate.score is not None and mate.score.mate == -2 and mate.string == "hello world"
    assert mate.pv == [Move.from_iccs("h2e2")]
    assert parse_info("info depth banana", Coordinates.ICCS).depth is None


def test_limit_fields() -> None:
    lim = Limit(red_clock=60, black_clock=30.5, red_inc=1, black_inc=2, moves_to_go=10)
    assert lim.uci_fields() == ["wtime", "60000", "btime", "30500", "winc", "1000", "binc", "2000",
                                "movestogo", "10"]
    assert lim.ucci_fields(Color.BLACK) == ["time", "30500", "movestogo", "10", "increment", "2000",
                                            "opptime", "60000", "oppincrement", "1000"]
    assert lim.ucci_fields(Color.RED, millis=False)[:2] == ["time", "60"]
    assert Limit(movetime=0.25).uci_fields() == ["movetime", "250"]
    assert Limit(movetime=0.25).ucci_fields(Color.RED) == ["time", "250", "movestogo", "1"]
    assert Limit(depth=5, nodes=100).uci_fields() == ["depth", "5", "nodes", "100"]


def test_position_command_uses_root_fen_and_coordinates(fake: Fake) -> None:
    async def go() -> None:
        engine = await UciEngine.start(fake("xiangqi", "good"))
        try:
            b = Board()
            b.push(Move.from_iccs("h2e2"))
            assert engine.position_command(b) == "position startpos moves h2e2"
            engine.coordinates = Coordinates.RANKS_1_10
            assert engine.position_command(b) == "position startpos moves h3e3"
            b2 = Board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
            assert engine.position_command(b2) == "position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"
        finally:
            await engine.quit()
    run(go())


# ------------------------------------------------------------ real engine
@pytest.mark.engine
@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_fairy_stockfish_plays_legal_moves(fairy: str, protocol: str) -> None:
    async def go() -> None:
        engine = await UciEngine.start(fairy, protocol=protocol, options={"Skill Level": 5})  # type: ignore[arg-type]
        try:
            assert "Fairy-Stockfish" in engine.name
            expected = Coordinates.RANKS_1_10 if protocol == "uci" else Coordinates.ICCS
            assert engine.coordinates is expected
            await engine.new_game()
            board = Board()
            for limit in (Limit(movetime=0.03), Limit(depth=3), Limit(nodes=2000),
                          Limit(red_clock=3, black_clock=3, red_inc=0.05, black_inc=0.05, moves_to_go=20)):
                result = await engine.play(board, limit, timeout=10)
                assert result.move is not None and board.is_legal(result.move)
                if limit.depth:  # a timed search may end before its first info line
                    assert result.last_info is not None and result.last_info.depth == 3
                board.push(result.move)
        finally:
            await engine.quit()
        assert not engine.alive
    run(go())


@pytest.mark.engine
@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_fairy_stockfish_respects_banned_moves(fairy: str, protocol: str) -> None:
    async def go() -> None:
        engine = await UciEngine.start(fairy, protocol=protocol)  # type: ignore[arg-type]
        try:
            board = Board()
            first = (await engine.play(board, Limit(depth=6))).move
            assert first is not None
            again = (await engine.play(board, Limit(depth=6), banmoves=[first])).move
            assert again is not None and again != first and board.is_legal(again)
        finally:
            await engine.quit()
    run(go())


@pytest.mark.engine
def test_fairy_stockfish_mated_reports_no_move_and_finds_mate(fairy: str) -> None:
    async def go() -> None:
        engine = await UciEngine.start(fairy)
        try:
            # Two rooks against the bare general: mate in one.
            board = Board("3k5/4R4/9/9/9/9/9/9/9/R3K4 w - - 0 1")
            result = await engine.play(board, Limit(depth=5))
            assert result.move is not None
            assert result.last_info is not None and result.last_info.score is not None
            assert result.last_info.score.mate == 1
            board.push(result.move)
            assert board.is_checkmate()
            none = await engine.play(board, Limit(depth=3))
            assert none.move is None
        finally:
            await engine.quit()
    run(go())


@pytest.mark.engine
def test_stop_and_ponderhit(fairy: str) -> None:
    async def go() -> None:
        engine = await UciEngine.start(fairy)
        try:
            board = Board()
            search = await engine.start_search(board, Limit(infinite=True))
            await asyncio.sleep(0.1)
            search.stop()
            result = await search.wait(5)
            assert result.move is not None and board.is_legal(result.move)
            board.push(result.move)
            assert result.ponder is not None
            board.push(result.ponder)
            search = await engine.start_search(board, Limit(movetime=0.05), ponder=True)
            await asyncio.sleep(0.2)
            assert search.result is None  # pondering does not end by itself
            search.ponderhit()
            result = await search.wait(5)
            assert result.move is not None and board.is_legal(result.move)
        finally:
            await engine.quit()
    run(go())


@pytest.mark.engine
def test_sync_wrapper(fairy: str) -> None:
    with SimpleUciEngine.start(fairy, protocol=Protocol.UCCI) as engine:
        engine.new_game()
        board = Board()
        move = engine.play(board, Limit(depth=2)).move
        assert move is not None and board.is_legal(move)
        assert board.move_stack == []


# ------------------------------------------------------------------ faults
def test_missing_binary_fails_to_start() -> None:
    with pytest.raises(EngineStartError, match="cannot start"):
        run(UciEngine.start("/nonexistent/engine"))


@pytest.mark.parametrize("mode", ["exit", "silent"])
def test_bad_handshake_fails_to_start(fake: Fake, mode: str) -> None:
    started = time.monotonic()
    with pytest.raises(EngineStartError):
        run(UciEngine.start(fake("xiangqi", mode), timeout=1.0))
    # A hang bound, not a speed test: the silent fake would wait an hour.
    assert time.monotonic() - started < HANG_BOUND


def test_unknown_option_is_refused(fake: Fake) -> None:
    with pytest.raises(EngineProtocolError, match="no option"):
        run(UciEngine.start(fake("xiangqi", "good"), options={"Skill Level": 1}))


def _play(fake: Fake, mode: str, timeout: float = 1.0, *extra: str) -> object:
    async def go() -> object:
        engine = await UciEngine.start(fake("xiangqi", mode, *extra))
        try:
            return await engine.play(Board(), Limit(movetime=0.05), timeout=timeout)
        finally:
            await engine.quit()
    return run(go())


def test_garbage_best_move_is_a_move_error(fake: Fake) -> None:
    with pytest.raises(EngineMoveError) as info:
        _play(fake, "garbage")
    assert info.value.text == "xyzzy"


def test_illegal_move_is_returned_for_the_referee(fake: Fake) -> None:
    result = _play(fake, "illegal")
    move = result.move  # type: ignore[attr-defined]
    assert move == Move.from_iccs("a0a9") and not Board().is_legal(move)


def test_hang_times_out_and_kills(fake: Fake) -> None:
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        _play(fake, "hang", 0.3)
    assert time.monotonic() - started < HANG_BOUND  # the fake sleeps an hour


def test_late_answer_after_stop_is_still_a_timeout(fake: Fake) -> None:
    with pytest.raises(EngineTimeoutError):
        _play(fake, "late", 0.2)


def test_crash_is_terminated(fake: Fake) -> None:
    with pytest.raises(EngineTerminatedError):
        _play(fake, "crash")


def test_noise_is_ignored_and_variant_engine_uses_ranks_1_10(fake: Fake) -> None:
    result = _play(fake, "noise", 2.0, "variant")
    assert result.move == Move.from_iccs("b0c2")  # type: ignore[attr-defined]
    assert result.info[-1].pv == [Move.from_iccs("b0c2")]  # type: ignore[attr-defined]


# ------------------------------------------------------ the output reader
def _writer(*steps: str) -> list[str]:
    """A child that writes each step's bytes (a Python bytes literal) in its
    own write, a little apart, then exits."""
    chunks = ", ".join(steps)
    script = f"import os, time\nfor chunk in [{chunks}]:\n    os.write(1, chunk); time.sleep(0.02)\n"
    return [sys.executable, "-c", script]


def test_lines_split_across_writes_are_joined_and_decoded() -> None:
    async def main() -> list[str]:
        process = await EngineProcess.start(_writer(
            r"b'info depth 1\r\ninfo de'", r"b'pth 2\n'", r"b'\xe4\xb8'", r"b'\xad\xe6\x96\x87\n'",
            r"b'bad \xff byte\nbestmove h3e3'"))
        try:
            return [await process.readline(5.0) for _ in range(5)]
        finally:
            await process.close()

    # CRLF stripped, a line written in pieces read whole, a UTF-8 character
    # split between writes decoded, a bad byte replaced, and the last line
    # (no line end) read at the end of the output.
    assert run(main()) == ["info depth 1", "info depth 2", "中文", "bad \ufffd byte",
                           "bestmove h3e3"]


def test_wake_on_queues_other_lines_until_a_wanted_one() -> None:
    async def main() -> tuple[list[str], list[str]]:
        process = await EngineProcess.start(_writer(
            r"b'info depth 1\n'", r"b'info depth 2\n'", r"b'info depth 3\nbestmove h3e3\n'",
            r"b'readyok\n'"))
        process.wake_on = ("bestmove",)
        try:
            await process.wait_line(time.monotonic() + HANG_BOUND)
            woken_with = []
            while (line := process.popline()) is not None:
                woken_with.append(line)
            process.wake_on = None
            rest = [] if "readyok" in woken_with else [await process.readline(HANG_BOUND)]
            return woken_with, rest
        finally:
            await process.close()

    woken_with, rest = run(main())
    # Not woken by the first info lines (they come 20 ms apart): when the
    # wait ends the best move has arrived, with every line before it queued
    # in order (had an info line woken it, the best move would not be there).
    assert woken_with[:4] == ["info depth 1", "info depth 2", "info depth 3", "bestmove h3e3"]
    assert woken_with[4:] + rest == ["readyok"]


def test_wait_line_times_out_with_nothing_and_returns_unwanted_lines_at_the_deadline() -> None:
    async def main() -> tuple[str, bool]:
        process = await EngineProcess.start(
            [sys.executable, "-c", "import os, time\nos.write(1, b'info x\\n'); time.sleep(30)"])
        try:
            process.wake_on = ("bestmove",)
            # The info line is not wanted, so the wait lasts to the deadline,
            # then hands it over rather than failing.
            await process.wait_line(time.monotonic() + 0.3)
            line = process.popline()
            try:
                await process.wait_line(time.monotonic() + 0.1)
                timed_out = False
            except EngineTimeoutError:
                timed_out = True
            assert line is not None
            return line, timed_out
        finally:
            await process.close(grace=0.1)

    assert run(main()) == ("info x", True)


def test_end_of_output_is_termination_and_the_exit_status_is_known() -> None:
    async def main() -> int | None:
        process = await EngineProcess.start([sys.executable, "-c", "import sys; sys.exit(3)"])
        with pytest.raises(EngineTerminatedError, match="status 3"):
            await process.readline(5.0)
        return await process.close()

    assert run(main()) == 3


def test_kill_takes_the_engines_own_children_too(tmp_path: Path) -> None:
    pid_file = tmp_path / "child"
    script = ("import subprocess, sys, time\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
              f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
              "print('ready', flush=True)\ntime.sleep(60)\n")

    async def main() -> int:
        process = await EngineProcess.start([sys.executable, "-c", script])
        assert await process.readline(10.0) == "ready"
        await process.close(grace=0.1)
        return int(pid_file.read_text())

    child = run(main())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # A killed child of ours is reaped by init; until then it is a zombie.
        with open(f"/proc/{child}/stat") as fh:
            if fh.read().split(")")[-1].split()[0] == "Z":
                break
        time.sleep(0.05)
    else:
        os.kill(child, 9)
        pytest.fail("the engine's child outlived it")


def test_move_conversions_are_remembered_but_bad_text_still_fails() -> None:
    for coordinates, good in ((Coordinates.ICCS, "h2e2"), (Coordinates.RANKS_1_10, "h3e3")):
        first = coordinates.parse(good)
        assert coordinates.parse(good) == first == Move.from_iccs("h2e2")
        assert coordinates.format(first) == good
        for bad in ("h2e", "z2e2", "h2e2x", ""):
            with pytest.raises(InvalidMoveError):
                coordinates.parse(bad)
        with pytest.raises(InvalidMoveError):
            coordinates.parse("h0e0" if coordinates is Coordinates.RANKS_1_10 else "h10e9")
