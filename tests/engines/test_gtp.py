"""GTP client: real GNU Go, fakes for faults."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

import pytest

from qisai.engines.errors import (
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    GtpCommandError,
)
from qisai.engines.gtp import GtpEngine, KgsTimeSystem, SimpleGtpEngine, parse_vertex
from qisai.go.board import Board as GoBoard
from qisai.go.rules import Color

Fake = Callable[..., list[str]]


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_parse_vertex() -> None:
    assert parse_vertex("D4", 19) == (3, 3)
    assert parse_vertex("j9", 9) == (8, 8)
    assert parse_vertex("PASS", 9) is None
    for bad in ("I5", "Z99", "K10", "hello"):
        with pytest.raises(EngineMoveError):
            parse_vertex(bad, 9)


@pytest.mark.engine
def test_gnugo_game_commands(gnugo: str) -> None:
    async def go() -> None:
        engine = await GtpEngine.start([gnugo, "--mode", "gtp", "--level", "0"])
        try:
            assert engine.name == "GNU Go" and "genmove" in engine.commands
            await engine.boardsize(9)
            await engine.clear_board()
            await engine.komi(7.5)
            await engine.kgs_time_settings(KgsTimeSystem.BYOYOMI, 60, 10, 3)
            await engine.time_settings(60, 10, 5)
            await engine.time_left(Color.BLACK, 55, 0)
            board = GoBoard(9)
            board.play((4, 4))
            await engine.play(Color.BLACK, (4, 4))
            reply = await engine.genmove(Color.WHITE, timeout=30)
            assert not reply.resign and reply.point is not None
            board.play(reply.point)
            with pytest.raises(GtpCommandError, match="illegal"):
                await engine.play(Color.BLACK, (4, 4))
            await engine.undo()
            await engine.undo()
            assert "X" not in (await engine.showboard()).split("A B C", 1)[1].split("WHITE")[0]
            assert re.fullmatch(r"[BW]\+\d+(\.\d)?|0", await engine.final_score())
            assert await engine.final_status_list("dead") == []
            handicap = await engine.fixed_handicap(4)
            assert sorted(handicap) == [(2, 2), (2, 6), (6, 2), (6, 6)]
            with pytest.raises(GtpCommandError):
                await engine.command("no_such_command")
        finally:
            await engine.quit()
        assert not engine.alive
    run(go())


@pytest.mark.engine
def test_gnugo_free_handicap_and_sync_wrapper(gnugo: str) -> None:
    with SimpleGtpEngine.start([gnugo, "--mode", "gtp", "--level", "0"]) as engine:
        engine.boardsize(13)
        points = engine.engine.size, engine.command("place_free_handicap", 3)
        assert points[0] == 13 and len(points[1].split()) == 3
        engine.clear_board()
        engine.play(Color.BLACK, (3, 3))
        move = engine.genmove(Color.WHITE)
        assert move.point is not None and move.point != (3, 3)


def test_missing_binary_and_exit_fail_to_start(fake: Fake) -> None:
    with pytest.raises(EngineStartError):
        run(GtpEngine.start("/nonexistent/gnugo"))
    with pytest.raises(EngineStartError):
        run(GtpEngine.start(fake("gtp", "exit"), timeout=2))


def _genmove(fake: Fake, mode: str, timeout: float = 2.0) -> object:
    async def go() -> object:
        engine = await GtpEngine.start(fake("gtp", mode))
        try:
            await engine.boardsize(9)
            return await engine.genmove(Color.BLACK, timeout=timeout)
        finally:
            await engine.quit()
    return run(go())


def test_garbage_answer_is_a_protocol_error(fake: Fake) -> None:
    with pytest.raises(EngineProtocolError, match="garbage"):
        _genmove(fake, "garbage")


def test_bad_vertex_is_a_move_error(fake: Fake) -> None:
    with pytest.raises(EngineMoveError):
        _genmove(fake, "badvertex")


def test_hang_times_out(fake: Fake) -> None:
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        _genmove(fake, "hang", 0.3)
    # A hang bound, not a speed test: the fake sleeps an hour.
    assert time.monotonic() - started < 60


def test_crash_is_terminated(fake: Fake) -> None:
    with pytest.raises(EngineTerminatedError):
        _genmove(fake, "crash")


def test_pass_and_failure_answers(fake: Fake) -> None:
    reply = _genmove(fake, "passer")
    assert reply.is_pass  # type: ignore[attr-defined]

    async def go() -> None:
        engine = await GtpEngine.start(fake("gtp", "passer"))
        try:
            with pytest.raises(GtpCommandError, match="cannot score"):
                await engine.final_score()
        finally:
            await engine.quit()
    run(go())
