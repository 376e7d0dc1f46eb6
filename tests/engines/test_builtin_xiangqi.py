"""qisai's own Xiangqi engine: its move test, its search, its UCI/UCCI server."""

from __future__ import annotations

import asyncio
import io
import random
import threading
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.engines.builtin import builtin_command
from qisai.engines.builtin.xiangqi_eval import TABLE, evaluate_red
from qisai.engines.builtin.xiangqi_search import SearchLimits, XiangqiSearcher, legal_ints
from qisai.engines.builtin.xiangqi_server import XiangqiServer, budget
from qisai.engines.results import Limit
from qisai.engines.uci import Protocol, UciEngine
from qisai.xiangqi.board import Board
from qisai.xiangqi.qili.cycle import forbidden_moves
from qisai.xiangqi.squares import Move

PERPETUAL = "4k4/9/4b4/9/9/9/9/9/9/R2K5 w - - 0 1"
PERPETUAL_MOVES = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split()


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_searcher_legality_matches_the_board(seed: int) -> None:
    rng = random.Random(seed)
    board = Board()
    # Every position on the way is compared, the start (so at least one)
    # and a last one without moves included.
    for _ in range(1 + rng.randrange(0, 60)):
        moves = board.legal_moves()
        ints = legal_ints(board)
        assert sorted(ints) == sorted(m.from_square << 7 | m.to_square for m in moves)
        if not moves:
            break
        board.push(rng.choice(moves))


def test_evaluation_is_symmetric_and_sums() -> None:
    board = Board()
    pieces = [board.piece_value_at(sq) for sq in range(90)]
    assert evaluate_red(pieces) == 0  # the start is symmetric
    mirrored = [0] * 90
    for sq, p in enumerate(pieces):
        if p:
            f, r = sq % 9, sq // 9
            mirrored[(9 - r) * 9 + (8 - f)] = -p
    assert evaluate_red(mirrored) == -evaluate_red(pieces) == 0
    assert TABLE[7 + 5][40] > 500  # a chariot is worth a lot
    assert TABLE[7 - 5][40] < -500


def _search(fen: str, depth: int, moves: list[str] | None = None, **kw: object) -> Move | None:
    board = Board(fen)
    for m in moves or []:
        board.push(Move.from_iccs(m))
    result = XiangqiSearcher().search(board, SearchLimits(depth=depth), **kw)  # type: ignore[arg-type]
    assert board.fen() == Board(fen).fen() or moves  # the board is restored
    return result.move


def test_finds_mate_in_one_and_takes_a_free_rook() -> None:
    fen = "3k5/4R4/9/9/9/9/9/9/9/R3K4 w - - 0 1"
    move = _search(fen, 3)
    board = Board(fen)
    assert move is not None
    board.push(move)
    assert board.is_checkmate()
    # Black's rook on e5 hangs to the red horse: take it.
    assert _search("4k4/9/9/9/4r4/9/3N5/9/9/4K4 w - - 0 1", 3) == Move.from_iccs("d3e5")


def test_no_move_when_mated_and_banned_moves_are_avoided() -> None:
    board = Board("3k5/4R4/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    board.push(Move.from_iccs("a0a9"))
    assert XiangqiSearcher().search(board, SearchLimits(depth=2)).move is None
    best = _search("3k5/4R4/9/9/9/9/9/9/9/R3K4 w - - 0 1", 3)
    assert best is not None
    other = _search("3k5/4R4/9/9/9/9/9/9/9/R3K4 w - - 0 1", 3, banned=[best])
    assert other is not None and other != best


def test_never_plays_a_forbidden_perpetual_check() -> None:
    board = Board(PERPETUAL)
    for m in PERPETUAL_MOVES:
        board.push(Move.from_iccs(m))
    # Without the rule the search would happily repeat the check...
    assert forbidden_moves(board, "cxa") == [Move.from_iccs("a8a9")]
    out = io.StringIO()
    server = XiangqiServer(io.StringIO(), out)
    server.handle("position fen " + PERPETUAL + " moves " + " ".join(PERPETUAL_MOVES))
    server.handle("go depth 4")
    server._join()
    best = out.getvalue().strip().splitlines()[-1].split()[1]
    assert best != "a8a9" and board.is_legal(Move.from_iccs(best))


def test_time_budget() -> None:
    soft, hard = budget(None, 0, None, 1.0) or (0, 0)
    assert 0.5 <= soft < hard <= 1.0
    soft, hard = budget(60.0, 1.0, None, None) or (0, 0)
    assert 1.0 < soft < hard < 30
    soft, hard = budget(0.5, 0.0, 1, None) or (0, 0)
    assert hard < 0.5
    assert budget(None, 0, None, None) is None


def test_stop_from_another_thread() -> None:
    stop = threading.Event()
    searcher = XiangqiSearcher()
    # No limits: only the event ends the search.  Set from another thread
    # once the search has begun; the worker thread's join is a hang bound
    # (many times the expected time), not a speed measurement.
    results = []
    worker = threading.Thread(target=lambda: results.append(
        searcher.search(Board(), SearchLimits(), stop=stop)))
    worker.start()
    threading.Timer(0.3, stop.set).start()
    worker.join(60)
    assert not worker.is_alive(), "the search did not stop"
    result = results[0]
    assert result.move is not None and Board().is_legal(result.move)


def test_server_speaks_uci_and_ucci_through_the_client() -> None:
    async def go() -> None:
        for protocol in (Protocol.UCI, Protocol.UCCI):
            engine = await UciEngine.start(builtin_command("xiangqi"), protocol=protocol,
                                           options={"Rules": "axf"}, timeout=30)
            try:
                assert engine.name.startswith("qisai-xiangqi")
                await engine.new_game()
                board = Board()
                # the timeout is a hang bound (150 x the move time), not a speed test
                result = await engine.play(board, Limit(movetime=0.2), timeout=30)
                assert result.move is not None and board.is_legal(result.move)
                assert result.last_info is not None and result.last_info.depth
                board.push(result.move)
                clock = Limit(red_clock=3, black_clock=3, red_inc=0.1, black_inc=0.1)
                result = await engine.play(board, clock, timeout=30)  # a hang bound
                assert result.move is not None and board.is_legal(result.move)
                banned = [m for m in board.legal_moves() if m != Move.from_iccs("a9a8")]
                board.push(result.move)
                search = await engine.start_search(board, Limit(infinite=True))
                await asyncio.sleep(0.3)
                assert search.result is None
                search.stop()
                assert (await search.wait(5)).move is not None
                board.pop()
                only = await engine.play(board, Limit(depth=2), banmoves=banned, timeout=10)
                assert only.move == Move.from_iccs("a9a8")
            finally:
                await engine.quit()
    run(go())


def test_server_ponder_and_bad_input() -> None:
    out = io.StringIO()
    server = XiangqiServer(io.StringIO(), out)
    server.handle("position startpos moves h2e2 zz")
    server.handle("position fen not-a-fen")
    server.handle("frobnicate")
    assert out.getvalue().count("info string") == 3
    server.handle("position startpos moves h2e2")
    server.handle("go ponder movetime 100")
    time.sleep(0.3)
    assert "bestmove" not in out.getvalue()
    server.handle("ponderhit")
    server._join()
    line = out.getvalue().strip().splitlines()[-1]
    assert line.startswith("bestmove")
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    assert board.is_legal(Move.from_iccs(line.split()[1]))
