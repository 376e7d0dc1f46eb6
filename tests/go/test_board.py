"""Board rules: captures, forbidden points, ko, superko, undo, set-up."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.go.board import Board
from qisai.go.errors import (
    BoardSizeError,
    CoordinateError,
    IllegalMoveError,
    IllegalReason,
    SetupError,
    UndoError,
)
from qisai.go.rules import CHINESE, JAPANESE, TROMP_TAYLOR, Color, KoRule

from .reference import RefGame

SIMPLE = dataclasses.replace(CHINESE, ko=KoRule.SIMPLE)
SITUATIONAL = dataclasses.replace(CHINESE, ko=KoRule.SITUATIONAL)


def board_from(rows: list[str], rules=CHINESE, to_move: Color = Color.BLACK) -> Board:
    """Build a board from text rows, top row first: X black, O white, . empty."""
    size = len(rows)
    board = Board(size, rules)
    black, white = [], []
    for i, line in enumerate(rows):
        row = size - 1 - i
        for col, ch in enumerate(line.replace(" ", "")):
            if ch == "X":
                black.append((row, col))
            elif ch == "O":
                white.append((row, col))
    board.setup(black, white, to_move=to_move)
    return board


def test_sizes() -> None:
    assert Board(2).size == 2 and Board(25).size == 25
    for bad in (1, 26, 0, -3):
        with pytest.raises(BoardSizeError):
            Board(bad)


def test_first_moves_alternate_and_pass() -> None:
    b = Board(9)
    assert b.to_move is Color.BLACK
    b.play("E5")
    assert b.get("E5") is Color.BLACK and b.to_move is Color.WHITE
    assert b.pass_move().is_pass
    assert b.to_move is Color.BLACK and b.consecutive_passes == 1
    assert not b.is_game_over()
    b.play(None)
    assert b.is_game_over()
    b.play("D4")  # a dispute resumes play under area counting
    assert not b.is_game_over() and b.move_number == 4


def test_capture_several_groups_at_once() -> None:
    # Black at E1... the middle point takes two white groups at once.
    b = board_from(
        [
            ". . . . .",
            ". . . . .",
            "X X . X X",
            "O O . O O",
            "X X . X X",
        ],
        to_move=Color.BLACK,
    )
    # the white groups A2-B2 and D2-E2 each have one liberty, C2
    move = b.play((1, 2))
    assert sorted(move.captured) == [(1, 0), (1, 1), (1, 3), (1, 4)]
    assert b.captures(Color.BLACK) == 4
    assert b.stones(Color.WHITE) == []
    assert len(b.liberties((1, 2))) == 4


def test_suicide_of_one_stone_and_of_a_group() -> None:
    b = board_from(
        [
            ". O . . .",
            "O . . . .",
            ". . . O O",
            ". . O X O",
            ". . O X .",
        ]
    )
    # A5 is surrounded by white: black may not play it (禁着点).
    assert b.legal_reason("A5") is IllegalReason.SUICIDE
    # E1 would leave the black group D1-D2-E1 without liberty, capturing nothing.
    assert b.legal_reason("E1") is IllegalReason.SUICIDE
    with pytest.raises(IllegalMoveError) as info:
        b.play("E1")
    assert info.value.reason is IllegalReason.SUICIDE and info.value.move_number == 1
    assert b.get("E1") is None and b.to_move is Color.BLACK  # unchanged
    assert (0, 4) not in b.legal_points() and (4, 0) not in b.legal_points()


def test_suicide_allowed_removes_the_group() -> None:
    rows = [
        ". O . . .",
        "O . . . .",
        ". . . O O",
        ". . O X O",
        ". . O X .",
    ]
    b = board_from(rows, rules=TROMP_TAYLOR)
    key = b.zobrist
    assert b.is_legal("E1")
    move = b.play("E1")
    assert move.captured == ()
    assert b.get("D1") is None and b.get("D2") is None and b.get("E1") is None
    assert b.captures(Color.WHITE) == 3
    b.undo()
    assert b.zobrist == key and b.get("D1") is Color.BLACK and b.captures(Color.WHITE) == 0
    # single-stone suicide recreates the position: superko forbids it
    assert b.legal_reason("A5") is IllegalReason.SUPERKO


def test_capture_beats_suicide() -> None:
    # C4 has no empty neighbour, but it captures B4 first, so it is legal
    # (提子 2: 应立即提取对方无气之子).
    b = ko_board()
    assert b.legal_reason("C4") is None
    b.play("C4")
    assert b.liberties("C4") == {(3, 1)}


def ko_board(rules=CHINESE) -> Board:
    return board_from(
        [
            ". X O . .",
            "X O . O .",
            ". X O . .",
            ". . . . .",
            ". . . . .",
        ],
        rules=rules,
    )


@pytest.mark.parametrize("rules", [CHINESE, SIMPLE, SITUATIONAL, JAPANESE])
def test_ko(rules) -> None:
    b = ko_board(rules)
    move = b.play("C4")  # Black takes the ko
    assert move.captured == ((3, 1),)
    assert b.ko_point == (3, 1)
    assert b.legal_reason("B4") in (IllegalReason.KO, IllegalReason.SUPERKO)
    with pytest.raises(IllegalMoveError) as info:
        b.play("B4")
    assert info.value.move_number == 2 and info.value.color == "W" and info.value.point == "B4"
    b.play("E1")  # ko threat
    b.play("E2")
    assert b.is_legal("B4")  # after an exchange elsewhere the recapture is fine
    assert b.play("B4").captured == ((3, 2),)


def triple_ko_board(rules) -> Board:
    """Three independent kos; Black to move; kos 1 and 3 are White's to lose."""
    # Each ko shape (rows r-1..r+1, cols 0..3):  . X O .  /  X a b O  /  . X O .
    rows = [
        ". X O . . . . . .",
        "X O . O . . . . .",
        ". X O . . . . . .",
        ". X O . . . . . .",
        "X . X O . . . . .",
        ". X O . . . . . .",
        ". X O . . . . . .",
        "X O . O . . . . .",
        ". X O . . . . . .",
    ]
    return board_from(rows, rules=rules)


def test_triple_ko_cycle() -> None:
    # Ko k1 (row 8): White stone at B8 capturable by Black at C8.
    # Ko k2 (row 5): Black stone at C5 capturable by White at B5.
    # Ko k3 (row 2): White stone at B2 capturable by Black at C2.
    cycle = ["C8", "B5", "C2", "B8", "C5", "B2"]
    # Under simple ko every capture is legal and the position comes back.
    b = triple_ko_board(SIMPLE)
    start = b.zobrist
    for name in cycle:
        b.play(name)
        assert b.legal_reason("A9") is not IllegalReason.KO
    assert b.zobrist == start and b.repetitions() == 1 and b.cycle_length() == 6
    for name in cycle:
        b.play(name)
    assert b.repetitions() == 2  # the referee rules a draw or replay (11(3))
    assert b.cycle_length() == 6
    # Under positional or situational superko the sixth capture is forbidden.
    for rules in (CHINESE, SITUATIONAL):
        b = triple_ko_board(rules)
        for name in cycle[:-1]:
            b.play(name)
        assert b.legal_reason(cycle[-1]) is IllegalReason.SUPERKO
        assert (1, 1) not in b.legal_points()


def test_send_two_return_one() -> None:
    # Found by random play on 5x5 and checked with tests/go/reference.py:
    # Black E4 takes one stone and leaves E5-E4 in atari (sending two), White
    # E3 takes the two, and Black E5 would recreate the start position, now
    # with White to move.
    rows = [
        "O O O O X",
        "O O O O .",
        ". O O X O",
        "O O X X X",
        "O O O X .",
    ]
    for rules, expected in (
        (CHINESE, IllegalReason.SUPERKO),  # positional: same stones
        (SITUATIONAL, None),  # other player to move: a new situation
        (SIMPLE, None),  # not an immediate ko recapture
    ):
        b = board_from(rows, rules=rules)
        start = b.zobrist
        assert b.play("E4").captured == ((2, 4),)
        assert sorted(b.play("E3").captured) == [(3, 4), (4, 4)]
        assert b.legal_reason("E5") is expected
        if expected is None:
            b.play("E5")
            assert b.zobrist == start
            assert b.repetitions() == 0 and b.cycle_length() is None
    b = Board(5)
    assert b.cycle_length() is None
    b.pass_move()
    b.pass_move()
    assert b.cycle_length() == 1  # positional: stones alone, as one pass ago
    b = Board(5, SITUATIONAL)
    b.pass_move()
    assert b.cycle_length() is None
    b.pass_move()
    assert b.cycle_length() == 2  # situational: empty board, Black to move


def test_bad_input() -> None:
    b = Board(9)
    with pytest.raises(CoordinateError):
        b.play("Z99")
    with pytest.raises(CoordinateError):
        b.play("I5")  # GTP has no I column
    with pytest.raises(CoordinateError):
        b.play((9, 0))
    with pytest.raises(CoordinateError):
        b.play((-1, 0))
    with pytest.raises(CoordinateError):
        b.play("")
    b.play("E5")
    with pytest.raises(IllegalMoveError) as info:
        b.play("E5")
    assert info.value.reason is IllegalReason.OCCUPIED and info.value.move_number == 2
    with pytest.raises(IllegalMoveError) as info:
        b.play("D4", Color.BLACK)
    assert info.value.reason is IllegalReason.OUT_OF_TURN
    with pytest.raises(UndoError):
        Board(5).undo()
    with pytest.raises(SetupError):
        Board(5).setup(black=[(0, 0)], white=[(0, 0)])
    with pytest.raises(SetupError):  # a white stone with no liberty
        Board(3).setup(black=[(0, 1), (1, 0)], white=[(0, 0)])
    assert all(isinstance(e, ValueError) for e in (CoordinateError("x"), SetupError("x")))


def test_handicap_placement() -> None:
    b = Board(19)
    points = b.place_handicap(9)
    assert len(points) == 9 and b.to_move is Color.WHITE and b.handicap == 9
    assert b.get("D4") is Color.BLACK and b.get("K10") is Color.BLACK
    with pytest.raises(SetupError):
        b.place_handicap(2)
    b2 = Board(9)
    b2.place_handicap(3, free=["A1", "B2", "C3"])
    assert b2.stones(Color.BLACK) == [(0, 0), (1, 1), (2, 2)]
    with pytest.raises(SetupError):
        Board(9).place_handicap(2, free=["A1"])
    with pytest.raises(SetupError):
        Board(9).place_handicap(10)


def test_undo_restores_everything() -> None:
    b = ko_board()
    before = (str(b), b.zobrist, b.to_move, b.ko_point, b.move_number)
    b.play("C4")
    b.play("E1")
    b.pass_move()
    for _ in range(3):
        b.undo()
    assert (str(b), b.zobrist, b.to_move, b.ko_point, b.move_number) == before
    b.undo()  # the set-up
    assert b.zobrist == 0 and b.stones(Color.BLACK) == []


REFERENCE_RULES = {
    "positional": CHINESE,
    "situational": SITUATIONAL,
    "simple": SIMPLE,
    "positional+suicide": TROMP_TAYLOR,
}


def _random_game(
    size: int, seed: int, moves: int, variant: str = "positional"
) -> tuple[Board, RefGame, list[tuple[int, int] | None]]:
    rng = random.Random(seed)
    board = Board(size, REFERENCE_RULES[variant])
    ko, _, suicide = variant.partition("+")
    ref = RefGame(size, ko=ko, suicide=bool(suicide))
    played: list[tuple[int, int] | None] = []
    for _ in range(moves):
        legal = board.legal_points()
        assert set(legal) == ref.legal_points()
        if not legal or rng.random() < 0.03:
            board.pass_move()
            ref.pass_move()
            played.append(None)
            continue
        p = rng.choice(legal)
        board.play(p)
        ref.play(*p)
        played.append(p)
        for r in range(size):
            for c in range(size):
                v = ref.grid[r][c]
                got = board.get((r, c))
                assert (0 if got is None else int(got)) == v
    return board, ref, played


@settings(max_examples=20, deadline=None)
@given(size=st.integers(2, 6), seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(REFERENCE_RULES)))
def test_random_play_matches_reference(size: int, seed: int, variant: str) -> None:
    """Legal points and stones equal a brute-force referee's under each ko rule."""
    board, _ref, _played = _random_game(size, seed, 3 * size * size, variant)
    # every group keeps at least one liberty
    for color in (Color.BLACK, Color.WHITE):
        for p in board.stones(color):
            assert board.liberties(p)


@settings(max_examples=25, deadline=None)
@given(size=st.integers(2, 9), seed=st.integers(0, 10**6), moves=st.integers(1, 120))
def test_undo_restores_board_and_hash(size: int, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    board = Board(size)
    snapshots = []
    for _ in range(moves):
        snapshots.append((str(board), board.zobrist, board.to_move, board.ko_point,
                          frozenset(map(frozenset, (board.liberties(p) for p in board.stones(Color.BLACK))))))
        legal = board.legal_points()
        if legal and rng.random() > 0.05:
            board.play(rng.choice(legal))
        else:
            board.pass_move()
    while snapshots:
        board.undo()
        snap = snapshots.pop()
        assert (str(board), board.zobrist, board.to_move, board.ko_point,
                frozenset(map(frozenset, (board.liberties(p) for p in board.stones(Color.BLACK))))) == snap


def test_zobrist_depends_only_on_stones() -> None:
    a = Board(9)
    for m in ["C3", "G7", "C7", "G3"]:
        a.play(m)
    b = Board(9)
    for m in ["C7", "G3", "C3", "G7"]:
        b.play(m)
    assert a.zobrist == b.zobrist and a.zobrist != Board(9).zobrist
    c = Board(9)
    c.setup(black=["C3", "C7"], white=["G7", "G3"])
    assert c.zobrist == a.zobrist


def test_copy_is_independent() -> None:
    b = ko_board()
    b.play("C4")
    c = b.copy()
    assert str(c) == str(b) and c.zobrist == b.zobrist and c.ko_point == b.ko_point
    c.play("E1")
    assert b.get("E1") is None


@pytest.mark.parametrize(
    "bad", [(1.5, 2), ("a", 1), (True, 0), (), (1, 2, 3), 7, 10**20, "A", "pass pass", (0, 10**20)]
)
def test_garbage_points_raise_coordinate_error(bad: object) -> None:
    b = Board(9)
    with pytest.raises(CoordinateError):
        b.play(bad)  # type: ignore[arg-type]
    with pytest.raises(CoordinateError):
        b.is_legal(bad)  # type: ignore[arg-type]
    assert b.move_number == 0
