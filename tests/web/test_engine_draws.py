"""An engine accepts a draw offer only when its own evaluation says the
game is drawn (issue 32.7; 23.1: an offer is answered before the engine
moves).  The positions' truth is independent of qisai: a level opening is
not a drawn game; bare kings with advisors and elephants, or one chariot
each, are the textbook draws; a chariot down is lost, not drawn; the
evaluations come from Fairy-Stockfish and qisai's own engine in processes.
Go: an equal, settled count (integer komi) is drawn; an empty board is not.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from qisai.go.board import Board as GoBoard
from qisai.referee.rulesets import GoRules
from qisai.referee.verdict import Side
from qisai.web.seats.draws import accepts_draw, attacking_pieces, drawn_by_evaluation
from qisai.web.seats.opponents import (
    BuiltinGoSeat,
    BuiltinXiangqiSeat,
    GoRequest,
    UciXiangqiSeat,
    XiangqiRequest,
    parse_spec,
)
from qisai.xiangqi import Board, Move

AFTER_CENTRAL_CANNON = "h2e2"  # 炮二平五: the opening of the report
BARE = "3akab2/9/9/9/9/9/9/9/9/2BA1K3 b"  # advisors and elephants only: no mate possible
ROOK_EACH = "5k3/9/9/2r6/9/9/6R2/9/9/3K5 b"  # 车 each, no other piece: a textbook draw
ROOK_DOWN = "3k5/9/9/9/9/9/9/9/R8/4K4 b"  # Black (the engine) a chariot down: lost


def opening() -> Board:
    b = Board()
    b.push(Move.from_iccs(AFTER_CENTRAL_CANNON))
    return b


def test_attacking_pieces_counts_rooks_horses_cannons_and_crossed_pawns() -> None:
    assert attacking_pieces(Board()) == 12  # 2 车 2 马 2 炮 a side; no pawn has crossed
    assert attacking_pieces(Board(BARE)) == 0
    assert attacking_pieces(Board(ROOK_EACH)) == 2
    # a Red pawn on Black's side (rank 5) counts, one at home (rank 3) does not
    assert attacking_pieces(Board("3k5/9/9/9/4P4/9/P8/9/9/4K4 w")) == 1
    # a Black pawn over the river (rank 4) counts
    assert attacking_pieces(Board("3k5/9/9/9/9/4p4/9/9/9/4K4 w")) == 1


@pytest.mark.parametrize(("attackers", "cp", "mate", "drawn"), [
    (0, None, None, True),     # nobody can mate: drawn whatever the engine says
    (0, 900, None, True),
    (12, 0, None, False),      # a level opening is not a drawn game
    (2, 10, None, True),       # an ending, level
    (2, -29, None, True),
    (2, -31, None, False),     # a third of a soldier down: not drawn
    (2, 400, None, False),     # winning: not drawn
    (2, None, -3, False),      # being mated: not drawn
    (2, None, None, False),    # no score: the engine declines
])
def test_drawn_by_evaluation(attackers: int, cp: int | None, mate: int | None,
                             drawn: bool) -> None:
    assert drawn_by_evaluation(attackers, cp, mate, margin_cp=30, pieces=4) is drawn


def answers(seat: Any, *boards: Board) -> list[bool]:
    async def run() -> list[bool]:
        try:
            return [await accepts_draw(seat, XiangqiRequest(b, 0.3, 30.0), Side.SECOND,
                                       "xiangqi") for b in boards]
        finally:
            await seat.close()
    return asyncio.run(run())


def test_the_builtin_engine_declines_a_draw_on_move_one_and_accepts_a_dead_draw() -> None:
    """The issue's case: offered with 炮二平五, qisai's own engine said yes."""
    got = answers(BuiltinXiangqiSeat(), opening(), Board(ROOK_DOWN), Board(BARE),
                  Board(ROOK_EACH))
    assert got == [False, False, True, True]


def test_fairy_stockfish_accepts_only_when_its_evaluation_says_drawn(fairy: str) -> None:
    seat = UciXiangqiSeat(parse_spec(f"uci:{fairy}"), "fsf")
    got = answers(seat, opening(), Board(ROOK_DOWN), Board(BARE), Board(ROOK_EACH))
    assert got == [False, False, True, True]


def go_request(board: GoBoard, komi: int) -> GoRequest:
    rules = replace(GoRules(), board_size=board.size, time_control=None,
                    core=replace(GoRules().core, komi=Fraction(komi)))
    side = Side.FIRST if board.to_move.letter == "B" else Side.SECOND
    return GoRequest(board=board.copy(), rules=rules, side=side, think=0.3, timeout=60.0)


def walls(size: int = 9) -> GoBoard:
    """Black's wall on column E, White's on F: Black owns A-E (45 points),
    White F-J (36), nobody's point none."""
    b = GoBoard(size)
    for row in range(1, size + 1):
        b.play(f"E{row}")
        b.play(f"F{row}")
    return b


def test_a_go_engine_accepts_only_an_equal_settled_count() -> None:
    async def run() -> list[bool]:
        seat = BuiltinGoSeat()
        try:
            return [await accepts_draw(seat, go_request(walls(), 9), Side.SECOND, "go"),
                    await accepts_draw(seat, go_request(walls(), 7), Side.SECOND, "go"),
                    await accepts_draw(seat, go_request(GoBoard(9), 0), Side.SECOND, "go")]
        finally:
            await seat.close()
    # 45 - 36 - 9 = 0: drawn; komi 7 leaves Black 2 ahead; the empty board is undecided
    assert asyncio.run(run()) == [True, False, False]
