"""The natural move limit (自然限着, 4.2.4) and the arbiter's audit of a claim
(23.3), at their boundaries (issue 24.6).

4.2.4: 在连续 60 个回合中（也可根据比赛等级酌减），双方都没有吃过一个棋子.
23.3: 裁判经停钟审核属实，即应判和.如不属实，判提出方犯规一次，并在其棋钟上加计
5 分钟 ... 审核回合时，提出方对非提出方将军的着数，最多只计 10 着.

A 回合 is a move of each side; the capture itself is not one of the moves
"without a capture".
"""

from __future__ import annotations

import pytest

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.limits import (
    DEFAULT_LIMIT_MOVES,
    MAX_COUNTED_CHECKS,
    audit_limit_claim,
    natural_limit_reached,
    plies_without_capture,
)
from qisai.xiangqi.squares import Move

# Red rook and black general shuttle; nothing can be captured.
QUIET = "4k4/9/9/9/9/9/9/9/9/R2K5"
SHUTTLE = "a0a1 e9e8 a1a0 e8e9".split()


def _play(board: Board, moves: list[str]) -> Board:
    for m in moves:
        board.push(Move.from_iccs(m))
    return board


def test_the_limit_is_60_moves_and_10_checks() -> None:
    assert (DEFAULT_LIMIT_MOVES, MAX_COUNTED_CHECKS) == (60, 10)


def test_4_2_4_reached_at_exactly_120_plies() -> None:
    b = Board(f"{QUIET} w - - 119 60")
    assert plies_without_capture(b) == 119 and not natural_limit_reached(b)
    b.push(Move.from_iccs("a0a1"))
    assert plies_without_capture(b) == 120 and natural_limit_reached(b)
    # An event may lower the number (4.2.4 酌减): 1 move is 2 plies.
    assert natural_limit_reached(Board(f"{QUIET} w - - 2 1"), 1)
    assert not natural_limit_reached(Board(f"{QUIET} w - - 1 1"), 1)
    with pytest.raises(XiangqiError, match="the move limit must be positive, not 0"):
        natural_limit_reached(b, 0)


@pytest.mark.parametrize(("clock", "claimant", "limit", "counted", "valid"), [
    # Red to move: the last of the plies before was Black's.
    (120, Color.RED, 60, 60, True),
    (120, Color.BLACK, 60, 60, True),
    (119, Color.RED, 60, 59, False),  # Black 60 moves, Red 59: 59 rounds
    (119, Color.BLACK, 60, 59, False),
    (119, Color.BLACK, 59, 59, True),
    (0, Color.RED, 1, 0, False),
])
def test_23_3_audit_of_plies_before_the_record(clock: int, claimant: Color, limit: int,
                                               counted: int, valid: bool) -> None:
    audit = audit_limit_claim(Board(f"{QUIET} w - - {clock} 70"), claimant, limit)
    assert (audit.unaudited_plies, audit.counted_moves, audit.valid) == (clock, counted, valid)
    assert audit.claimant_moves + audit.opponent_moves == clock
    assert audit.claimant_checks == 0 and audit.limit_moves == limit and audit.claimant is claimant
    assert audit.clause == "23.3"


def test_23_3_claim_after_black_moved_last() -> None:
    # Black to move: the 3 plies before were Red, Black, Red.
    red = audit_limit_claim(Board(f"{QUIET} b - - 3 5"), Color.RED, 1)
    black = audit_limit_claim(Board(f"{QUIET} b - - 3 5"), Color.BLACK, 1)
    assert (red.claimant_moves, red.opponent_moves) == (2, 1)
    assert (black.claimant_moves, black.opponent_moves) == (1, 2)


def test_23_3_sentences() -> None:
    b = _play(Board(f"{QUIET} w - - 0 1"), SHUTTLE * 30)
    held = audit_limit_claim(b, Color.BLACK)
    assert held.valid and held.counted_moves == 60
    assert held.explanation_zh == ("黑方提出自然限着，审核属实：连续60个回合双方均未吃子"
                                   "（将军最多计10着），判和（4.2.4、23.3）")
    assert held.explanation_en == ("Black's claim of the 60-move limit holds: 60 moves without a "
                                   "capture (at most 10 checks counted); draw (4.2.4, 23.3)")
    b.pop()
    short = audit_limit_claim(b, Color.RED)
    assert not short.valid and short.counted_moves == 59
    assert short.explanation_zh == ("红方提出自然限着，审核不属实：只计59个回合（限60），"
                                    "判提出方犯规一次，加计5分钟（23.3）")
    assert short.explanation_en == ("Red's claim does not hold: only 59 of 60 moves count; the "
                                    "claim is a foul and costs 5 minutes (23.3)")


def test_23_3_checks_beyond_ten_do_not_count() -> None:
    # Red checks on every move (rook a8-a9 against the general on e9/e8).
    b = _play(Board("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"), "a8a9 e9e8 a9a8 e8e9".split() * 30)
    assert audit_limit_claim(b, Color.RED).counted_moves == 10
    assert audit_limit_claim(b, Color.RED, max_counted_checks=11).counted_moves == 11
    assert audit_limit_claim(b, Color.RED, max_counted_checks=0).counted_moves == 0
    assert audit_limit_claim(b, Color.RED, max_counted_checks=60).valid
    # The opponent's checks are not limited.
    assert audit_limit_claim(b, Color.BLACK).counted_moves == 60
    with pytest.raises(XiangqiError, match=" / max_counted_checks must not be negative$"):
        audit_limit_claim(b, Color.RED, max_counted_checks=-1)
    with pytest.raises(XiangqiError, match="the move limit must be positive, not 0"):
        audit_limit_claim(b, Color.RED, 0)


def test_23_3_the_capture_starts_the_count_again() -> None:
    # Red's rook takes the black horse on a5 (the only capture), then the
    # sides shuttle.  The capture's own round is not a round without a capture.
    b = _play(Board("4k4/9/9/9/n8/9/9/9/9/R2K5 w - - 30 20"), ["a0a5"])
    assert b.halfmove_clock == 0
    _play(b, "e9e8 a5a4 e8e9 a4a5".split() * 29 + ["e9e8", "a5a4", "e8e9"])
    assert b.halfmove_clock == 119 and not natural_limit_reached(b)
    audit = audit_limit_claim(b, Color.RED)
    assert (audit.claimant_moves, audit.opponent_moves, audit.unaudited_plies) == (59, 60, 0)
    assert audit.counted_moves == 59 and not audit.valid
    b.push(Move.from_iccs("a4a5"))
    assert natural_limit_reached(b)
    assert audit_limit_claim(b, Color.RED).valid and audit_limit_claim(b, Color.BLACK).valid


def test_23_3_plies_before_the_record_and_moves_in_it_add_up() -> None:
    # 10 plies without a capture before the record (5 each; Red to move at
    # the root), then 4 recorded moves: 7 moves each.
    b = _play(Board(f"{QUIET} w - - 10 5"), SHUTTLE)
    for claimant in (Color.RED, Color.BLACK):
        audit = audit_limit_claim(b, claimant, 7)
        assert (audit.claimant_moves, audit.opponent_moves, audit.unaudited_plies) == (7, 7, 10)
        assert audit.counted_moves == 7 and audit.valid
