"""The Go board's queries and set-up in the details mutation testing found
unpinned: neighbours, groups, point lists, the last move, set-up and
handicap (with their errors and an unchanged board after one), copies,
repetition counts and cycle lengths (rule 11(3): the referee rules a cycle)."""

from __future__ import annotations

import dataclasses

import pytest

from qisai.go.board import Board
from qisai.go.errors import CoordinateError, IllegalReason, SetupError
from qisai.go.rules import CHINESE, Color, KoRule

SIMPLE = dataclasses.replace(CHINESE, ko=KoRule.SIMPLE)
SITUATIONAL = dataclasses.replace(CHINESE, ko=KoRule.SITUATIONAL)


def test_neighbours_up_down_left_right_on_the_board_only() -> None:
    b = Board(9)
    assert b.neighbours((4, 4)) == [(5, 4), (3, 4), (4, 3), (4, 5)]
    assert b.neighbours((0, 0)) == [(1, 0), (0, 1)]
    assert b.neighbours((8, 8)) == [(7, 8), (8, 7)]
    assert b.neighbours((0, 4)) == [(1, 4), (0, 3), (0, 5)]
    assert b.neighbours((4, 8)) == [(5, 8), (3, 8), (4, 7)]
    with pytest.raises(CoordinateError):
        b.neighbours((9, 0))


def test_points_and_empty_points_bottom_row_first() -> None:
    b = Board(3)
    assert list(b.points()) == [(r, c) for r in range(3) for c in range(3)]
    assert b.empty_points() == list(b.points())
    b.play("B2")  # (1, 1)
    b.play("A1")  # (0, 0)
    assert b.empty_points() == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert b.stones(Color.BLACK) == [(1, 1)] and b.stones(Color.WHITE) == [(0, 0)]
    assert len(list(Board(19).points())) == 361


def test_group_and_liberties() -> None:
    b = Board(5)
    assert b.group("C3") == frozenset() and b.liberties("C3") == frozenset()
    for move in ("C3", "A1", "C4", "A2", "D4"):
        b.play(move)
    assert b.group("C3") == {(2, 2), (3, 2), (3, 3)} == b.group("D4")
    assert b.liberties("C3") == {(1, 2), (2, 1), (2, 3), (3, 1), (4, 2), (4, 3), (3, 4)}
    assert b.group("A1") == {(0, 0), (1, 0)}
    with pytest.raises(CoordinateError):
        b.group("Z9")


def test_last_move_and_history() -> None:
    b = Board(9)
    assert b.last_move() is None and b.history == []
    b.play("E5")
    last = b.last_move()
    assert last is not None and last.color is Color.BLACK and last.point == (4, 4)
    assert not last.setup and not last.is_pass
    b.play(None)
    last = b.last_move()
    assert last is not None and last.is_pass and last.color is Color.WHITE
    assert [m.point for m in b.history] == [(4, 4), None]
    b.undo()
    assert b.last_move() is not None and b.last_move().point == (4, 4)  # type: ignore[union-attr]


def test_legal_reason_for_each_case() -> None:
    b = Board(9)
    b.play("E5")
    assert b.legal_reason("E5") is IllegalReason.OCCUPIED
    assert b.legal_reason("D4", Color.BLACK) is IllegalReason.OUT_OF_TURN
    assert not b.is_legal("D4", Color.BLACK)
    assert b.legal_reason("D4", Color.WHITE) is None and b.is_legal("D4", Color.WHITE)
    assert b.legal_reason("D4") is None and b.is_legal("D4")
    assert b.legal_reason(None) is None  # a pass
    assert b.is_legal(None) and not b.is_legal("E5")


# ----------------------------------------------------------------- set-up
def test_setup_places_removes_and_sets_the_player() -> None:
    b = Board(5)
    b.setup(black=["A1", "B1"], white=["E5"], to_move=Color.WHITE)
    assert b.to_move is Color.WHITE
    assert b.group("A1") == {(0, 0), (0, 1)} and b.liberties("A1") == {(1, 0), (1, 1), (0, 2)}
    last = b.last_move()
    assert last is not None and last.setup and last.color is Color.WHITE
    b.setup(empty=["B1"], white=["C3"])  # keeps the player to move
    assert b.to_move is Color.WHITE
    assert b.get("B1") is None and b.get("C3") is Color.WHITE and b.get("A1") is Color.BLACK
    assert b.consecutive_passes == 0 and b.ko_point is None
    b.undo()
    assert b.get("B1") is Color.BLACK and b.get("C3") is None


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"black": ["A1"], "white": ["A1"]}, "A1 is set up twice"),
    ({"black": ["C3", "C3"]}, "C3 is set up twice"),
    ({"black": [None]}, "a pass is not a set-up point"),
    ({"black": ["A1"], "white": ["A2", "B1"]}, "set-up leaves the group at A1 without liberties"),
])
def test_bad_setup_leaves_the_board_as_it_was(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    b = Board(5)
    b.play("C3")
    before = (str(b), b.zobrist, b.to_move, len(b.history), b.group("C3"), b.liberties("C3"))
    with pytest.raises(SetupError, match=" / " + message + "$"):
        b.setup(**kwargs)
    assert (str(b), b.zobrist, b.to_move, len(b.history), b.group("C3"), b.liberties("C3")) == before
    assert b.play("D3").point == (2, 3)  # and it plays on


def test_fixed_handicap_on_19x19_and_9x9() -> None:
    b = Board(19)
    points = b.place_handicap(4)
    assert points == [(15, 15), (3, 3), (15, 3), (3, 15)]
    assert b.handicap == 4 and b.to_move is Color.WHITE
    assert sorted(b.stones(Color.BLACK)) == sorted(points)
    last = b.last_move()
    assert last is not None and last.setup
    nine = Board(9)
    assert nine.place_handicap(2) == [(6, 6), (2, 2)]


def test_free_handicap_and_its_errors() -> None:
    b = Board(9)
    assert b.place_handicap(3, ["A1", "J9", "E5"]) == [(0, 0), (8, 8), (4, 4)]
    assert b.handicap == 3 and b.to_move is Color.WHITE
    for free, stones in ((["A1", "A2"], 3), (["A1", "A1"], 2), ([], 0)):
        fresh = Board(9)
        with pytest.raises(SetupError, match=f" / free handicap needs {stones} distinct points, "
                                             f"got {len(free)}$"):
            fresh.place_handicap(stones, free)
        assert fresh.handicap == 0 and fresh.history == []
    played = Board(9)
    played.play(None)  # a pass: the board is empty but the game has begun
    with pytest.raises(SetupError, match=" / handicap stones go on an empty board before the "
                                         "first move$"):
        played.place_handicap(2)
    stoned = Board(9)
    stoned.setup(black=["E5"])
    stoned_history = len(stoned.history)
    with pytest.raises(SetupError, match="before the first move"):
        stoned.place_handicap(2)
    assert len(stoned.history) == stoned_history
    with pytest.raises(SetupError, match="no fixed placement"):
        Board(9).place_handicap(10)


# ------------------------------------------------------------------ copies
def test_copy_is_independent_and_complete() -> None:
    b = Board(9, SIMPLE)
    b.place_handicap(2)
    for move in ("D4", "E4", None):  # White first after the handicap
        b.play(move)
    c = b.copy()
    assert str(c) == str(b) and c.zobrist == b.zobrist and c.to_move is b.to_move
    assert c.handicap == 2 and c.rules == b.rules and c.size == 9
    assert c.history == b.history and c.move_number == b.move_number
    assert c.consecutive_passes == b.consecutive_passes == 1
    assert c.captures(Color.BLACK) == b.captures(Color.BLACK)
    c.play("E5")
    assert b.get("E5") is None and len(b.history) == len(c.history) - 1
    c.undo()
    c.undo()
    assert c.last_move() == b.history[-2]


# ------------------------------------------------------ cycles (11(3))
def test_two_passes_repeat_the_situation() -> None:
    b = Board(9, SITUATIONAL)
    b.play("E5")
    assert b.repetitions() == 0 and b.cycle_length() is None
    b.play(None)
    assert b.repetitions() == 0 and b.cycle_length() is None  # White to move was new
    b.play(None)  # Black to move again with the same stones
    assert b.repetitions() == 1 and b.cycle_length() == 2


def test_positional_superko_counts_the_stones_alone() -> None:
    b = Board(9, CHINESE)
    b.play("E5")
    b.play(None)  # same stones, other player to move
    assert b.repetitions() == 1 and b.cycle_length() == 1
    b.play(None)
    assert b.repetitions() == 2 and b.cycle_length() == 1


def test_cycle_length_reaches_back_to_the_empty_board_but_not_past_a_setup() -> None:
    b = Board(9, SITUATIONAL)
    b.play(None)
    b.play(None)
    assert b.cycle_length() == 2  # the empty board with Black to move
    c = Board(9, SITUATIONAL)
    c.setup(black=["E5"], to_move=Color.BLACK)
    c.play(None)
    c.play(None)
    assert c.cycle_length() == 2  # back to the set-up position itself
    d = Board(9, SITUATIONAL)
    d.setup(black=["E5"], to_move=Color.BLACK)
    d.play("C3")
    assert d.cycle_length() is None  # a set-up ends the search


# ------------------------------------------------------------------- undo
def _state(b: Board) -> tuple:  # type: ignore[type-arg]
    """Everything a move can change, liberties of every group included."""
    libs = {p: b.liberties(p) for p in b.points() if b.get(p) is not None}
    return (str(b), b.zobrist, b.to_move, b.ko_point, b.move_number, b.consecutive_passes,
            b.captures(Color.BLACK), b.captures(Color.WHITE), b.repetitions(),
            b.cycle_length(), libs, len(b.history), sorted(b.legal_points()))


def _played(rows: list[str], rules=CHINESE) -> Board:  # type: ignore[no-untyped-def]
    from .test_board import board_from

    return board_from(rows, rules=rules)


# White's three stones on the left and the single one on the right are both
# in atari at C3: Black C3 takes four stones in two groups at once.
DOUBLE_CAPTURE = [
    ". . . . .",
    "X X . X .",
    "O O . O X",
    "X X . X .",
    ". . . . .",
]


@pytest.mark.parametrize("rules", [CHINESE, SIMPLE, SITUATIONAL], ids=["chinese", "simple", "situational"])
def test_undo_of_a_double_capture_restores_everything(rules) -> None:  # type: ignore[no-untyped-def]
    b = _played(DOUBLE_CAPTURE, rules)
    b.play(None)
    b.play(None)  # passes before: the count must come back too
    b.play("E1")
    b.play(None)  # White passes: Black's capture follows a pass
    before = _state(b)
    move = b.play("C3")
    assert sorted(move.captured) == [(2, 0), (2, 1), (2, 3)]
    assert b.captures(Color.BLACK) == 3 and b.consecutive_passes == 0
    b.undo()
    assert _state(b) == before
    assert b.captures(Color.BLACK) == 0 and b.consecutive_passes == 1


def test_undo_of_a_pass_and_a_setup_restores_ko_and_counts() -> None:
    from .test_ko_point import REAL_KO, board_from

    b = board_from(REAL_KO, SITUATIONAL)
    b.play("E4")  # takes the ko: D4 is the ko point
    before = _state(b)
    b.play(None)
    assert b.ko_point is None and b.consecutive_passes == 1
    b.undo()
    assert _state(b) == before and b.ko_point == (3, 3)
    b.setup(white=["A1"], to_move=Color.BLACK)
    assert b.ko_point is None and b.to_move is Color.BLACK
    b.undo()
    assert _state(b) == before
    b.undo()
    b.undo()  # the position's own set-up
    assert b.history == [] and b.zobrist == 0 and b.repetitions() == 0
    from qisai.go.errors import UndoError

    with pytest.raises(UndoError, match=" / nothing to undo$"):
        b.undo()


def test_undo_through_a_ko_cycle_keeps_the_counts() -> None:
    from .test_board import triple_ko_board

    b = triple_ko_board(SIMPLE)
    cycle = ["C8", "B5", "C2", "B8", "C5", "B2"]
    states = [_state(b)]
    for name in cycle * 2:
        b.play(name)
        states.append(_state(b))
    assert b.repetitions() == 2
    for expected in reversed(states[:-1]):
        b.undo()
        assert _state(b) == expected


@pytest.mark.parametrize("rules", [CHINESE, SIMPLE, SITUATIONAL], ids=["chinese", "simple", "situational"])
def test_legal_points_agree_with_legal_reason_round_a_ko_cycle(rules) -> None:  # type: ignore[no-untyped-def]
    from .test_board import triple_ko_board

    b = triple_ko_board(rules)
    for name in ["C8", "B5", "C2", "B8", "C5", "B2", "C8"]:
        expected = [p for p in b.empty_points() if b.legal_reason(p) is None]
        assert sorted(b.legal_points()) == sorted(expected)
        if b.legal_reason(name) is not None:
            break
        b.play(name)


def test_legal_points_after_a_double_capture_threat() -> None:
    # Black C3 captures two groups at once; under superko the position after
    # it is new, so it is legal in both lists.
    for rules in (CHINESE, SIMPLE, SITUATIONAL):
        b = _played(DOUBLE_CAPTURE, rules)
        assert (2, 2) in b.legal_points() and b.legal_reason("C3") is None


# ---------------------------------------------------------------- display
def test_text_board_top_row_first_with_coordinates() -> None:
    b = Board(3)
    b.play("A1")
    b.play("C3")
    assert str(b) == " 3 . . O\n 2 . . .\n 1 X . .\n   A B C"
    assert "J" in str(Board(9)).splitlines()[-1] and "I" not in str(Board(9)).splitlines()[-1]
    assert repr(b) == "<Board 3x3 BLACK to move, move 2>"


def test_get_on_a_pass_is_an_error() -> None:
    b = Board(9)
    with pytest.raises(CoordinateError, match=" / a pass is not a point$"):
        b.get(None)
    assert b.get("A1") is None
    b.play("A1")
    assert b.get((0, 0)) is Color.BLACK


def test_undo_restores_the_pass_count_after_passes_and_setups() -> None:
    b = Board(9)
    b.play(None)
    b.play(None)
    assert b.consecutive_passes == 2 and b.is_game_over()
    b.undo()
    assert b.consecutive_passes == 1 and not b.is_game_over()
    b.setup(black=["E5"], to_move=Color.WHITE)
    assert b.consecutive_passes == 0
    b.undo()
    assert b.consecutive_passes == 1


def test_undo_of_a_suicide_restores_the_neighbours_liberties() -> None:
    """Tromp-Taylor allows suicide: Black B1 kills its own two stones; undo
    gives the white stones around their liberties back."""
    from qisai.go.rules import TROMP_TAYLOR

    b = _played([
        ". . . . .",
        ". . . . .",
        "O O . . .",
        "X O . . .",
        ". X O . .",
    ], TROMP_TAYLOR)
    before = _state(b)
    move = b.play("A1")  # B A1 joins A2 and B1: no liberty left, nothing taken
    assert move.point == (0, 0)
    assert b.get("A2") is None and b.get("B1") is None and b.captures(Color.WHITE) == 3
    b.undo()
    assert _state(b) == before


def test_a_new_board_is_empty_and_unrepeated() -> None:
    b = Board(9)
    assert b.consecutive_passes == 0 and b.handicap == 0 and b.ko_point is None
    assert b.captures(Color.BLACK) == 0 and b.captures(Color.WHITE) == 0
    assert b.repetitions() == 0 and b.cycle_length() is None and b.move_number == 0
    assert b.to_move is Color.BLACK and not b.is_game_over()
    for bad in ((-1, 0), (9, 0), (0, 9), (0, -1), (True, 0), (1.0, 2), "Z1", "J10"):
        with pytest.raises(CoordinateError):
            b.get(bad)  # type: ignore[arg-type]


def test_move_out_of_turn_names_the_point_colour_and_move() -> None:
    from qisai.go.errors import IllegalMoveError

    b = Board(9)
    b.play("E5")
    with pytest.raises(IllegalMoveError) as info:
        b.play("D4", Color.BLACK)
    err = info.value
    assert (err.reason, err.point, err.color, err.move_number) == (
        IllegalReason.OUT_OF_TURN, "D4", "B", 2)
    assert err.en == "move 2: B D4 is illegal: move out of turn (连走二步)"
    assert err.zh == "第 2 手：黑方 D4 不合规则：连走二步"  # competition rule 8(1)


def test_captures_add_up() -> None:
    b = _played([
        ". . . . .",
        "X O X O X",
        ". X . X .",
        ". . . . .",
        ". . . . .",
    ])
    b.play("B5")  # takes B4
    b.play(None)
    b.play("D5")  # takes D4
    assert b.captures(Color.BLACK) == 2 and b.captures(Color.WHITE) == 0


def test_one_free_handicap_stone_is_allowed() -> None:
    b = Board(9)
    assert b.place_handicap(1, ["E5"]) == [(4, 4)]
    assert b.handicap == 1 and b.to_move is Color.WHITE


def test_a_setup_that_recreates_a_position_counts_as_a_repetition() -> None:
    b = Board(9, SITUATIONAL)
    b.setup(black=["E5"], to_move=Color.WHITE)
    b.play("C3")
    assert b.repetitions() == 0
    b.setup(empty=["C3"], to_move=Color.WHITE)  # back to the first set-up, White to move
    assert b.repetitions() == 1
    b.setup(to_move=Color.BLACK)  # the same stones, the other player: a new situation
    assert b.repetitions() == 0
