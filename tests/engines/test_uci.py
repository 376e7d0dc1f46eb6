"""UCI/UCCI client: real Fairy-Stockfish in both protocols, fakes for faults."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from qisai.engines.errors import (
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from qisai.engines.uci import (
    Coordinates,
    Limit,
    Protocol,
    SimpleUciEngine,
    UciEngine,
    parse_info,
    parse_option,
)
from qisai.xiangqi.board import Board, Color, Move

Fake = Callable[..., list[str]]


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
    assert time.monotonic() - started < 5


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
    assert time.monotonic() - started < 4


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
