"""Counting with the arbiter's seki list, and ownership where the owner is certain.

Rule text (docs/rules/003-go-rules.txt, 胜负判别): under area counting (数子) every
stone and surrounded point counts, seki eyes included; under territory
counting (数目) points of groups in seki count for nobody.  The arbiter
names the groups in seki; ``score(seki=...)`` takes that list instead of
:func:`find_seki`'s guess.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from qisai.go.board import Board
from qisai.go.deadstones import estimate_dead, ownership
from qisai.go.errors import ScoringError
from qisai.go.rules import CHINESE, JAPANESE, Color
from qisai.go.scoring import Result, ResultReason, area_result, find_seki, score

from .test_board import board_from
from .test_scoring import seki_board

# ------------------------------------------------------- the seki list
G1, H1, H2, J2, G4 = (0, 6), (0, 7), (1, 7), (1, 8), (3, 6)


def test_arbiter_seki_list_names_groups_and_their_eyes_count_for_nobody() -> None:
    board = seki_board()
    found = find_seki(board)
    # Naming one stone of each group in seki is enough: the group is meant.
    named = score(board, rules=JAPANESE, seki=[H2, H1, G4])
    assert named.seki == found
    assert named.seki >= board.group(H2) | board.group(H1) | board.group(G4)
    guessed = score(board, rules=JAPANESE)
    assert (named.black_territory, named.white_territory, named.shared) == (
        guessed.black_territory, guessed.white_territory, guessed.shared)
    assert G1 in named.shared and G1 not in named.black_territory
    assert named.margin == guessed.margin


def test_arbiter_seki_list_overrides_the_guess() -> None:
    board = seki_board()
    none = score(board, rules=JAPANESE, seki=[])
    guessed = score(board, rules=JAPANESE)
    assert none.seki == frozenset() and len(guessed.seki) == 13
    # Without seki G1 is not Black's territory either: the black string
    # beside it has one liberty there, so Black must fill it (补棋).
    assert G1 not in none.black_territory and G1 in none.fill
    assert G1 in guessed.shared and guessed.fill == frozenset()
    assert (none.black_count, none.white_count) == (guessed.black_count, guessed.white_count)
    # Only the white group in seki named: the black groups are not in seki.
    white_only = score(board, rules=JAPANESE, seki=[H2])
    assert white_only.seki == board.group(H2)
    assert G1 in white_only.fill and G1 not in white_only.shared


def test_seki_list_does_not_change_an_area_count() -> None:
    """数子: seki eyes count like any surrounded point."""
    board = seki_board()
    plain = score(board, rules=CHINESE)
    for seki in ([], [H2, H1, G4], None):
        s = score(board, rules=CHINESE, seki=seki)
        assert (s.black_count, s.white_count, s.margin) == (
            plain.black_count, plain.white_count, plain.margin)
        assert s.black_count + s.white_count == 81
    assert G1 in plain.black_territory
    assert score(board, rules=CHINESE, seki=[H2]).seki == board.group(H2)


def test_seki_list_point_must_hold_a_stone() -> None:
    board = seki_board()
    with pytest.raises(ScoringError, match="holds no stone"):
        score(board, rules=JAPANESE, seki=[G1])


# ------------------------------------------------------------ ownership
# Two groups with two one-point eyes each fill the board: Black owns the
# left four columns, White the right three, whatever is played.
SPLIT = [
    "X X X X O O O",
    "X . X X O . O",
    "X X X X O O O",
    "X X X X O O O",
    "X X X X O O O",
    "X . X X O . O",
    "X X X X O O O",
]
# As SPLIT, with a lone white stone in a two-point space of Black's (B4):
# Black has two more eyes, White cannot play C4, so Black takes the stone
# in every playout.
DEAD_STONE = [
    "X X X X O O O",
    "X . X X O . O",
    "X X X X O O O",
    "X O . X O O O",
    "X X X X O O O",
    "X . X X O . O",
    "X X X X O O O",
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ownership_of_unconditionally_alive_groups_is_certain(seed: int) -> None:
    board = board_from(SPLIT)
    own = ownership(board, playouts=16, seed=seed)
    assert len(own) == 49
    for (row, col), share in own.items():
        assert share == (1.0 if col <= 3 else 0.0), ((row, col), share)
    assert estimate_dead(board, playouts=16, seed=seed) == frozenset()
    # the area count agrees: 28 points for Black, 21 for White
    s = score(board, dead=[], rules=CHINESE, komi=0)
    assert (s.black_count, s.white_count) == (28, 21)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dead_stone_inside_a_living_group_is_owned_by_the_other_side(seed: int) -> None:
    board = board_from(DEAD_STONE)
    dead = (3, 1)  # B4
    assert board.get(dead) is Color.WHITE
    own = ownership(board, playouts=16, seed=seed)
    assert own[dead] == 1.0
    assert all(own[(r, c)] == 1.0 for r in range(7) for c in range(4))  # Black's side
    assert all(own[(r, c)] == 0.0 for r in range(7) for c in range(4, 7))  # White's side
    assert estimate_dead(board, playouts=16, seed=seed) == {dead}
    s = score(board, dead=[dead], rules=CHINESE, komi=0)
    assert (s.black_count, s.white_count) == (28, 21)


def test_ownership_of_an_empty_board_is_not_certain() -> None:
    own = ownership(Board(5), playouts=16, seed=0)
    assert len(own) == 25 and all(0.0 <= v <= 1.0 for v in own.values())
    assert any(0.0 < v < 1.0 for v in own.values())


# ------------------------------------------------------- the count as data
def test_score_as_dict_is_the_whole_count() -> None:
    """The count as the arena and the records show it, every field."""
    board = board_from(SPLIT)
    s = score(board, rules=CHINESE)
    assert s.as_dict() == {
        "scoring": "area", "size": 7, "komi": "15/2", "handicap": 0,
        "black_stones": 26, "white_stones": 19, "black_territory": 2, "white_territory": 2,
        "shared": 0, "black_prisoners": 0, "white_prisoners": 0,
        "black_count": "28", "white_count": "21", "margin_points": "-1/2",
        "margin_stones": "-1/4", "dead": [], "seki": [], "fill": [],
        "result": "W+0.5", "result_chinese": "白胜1/4子",
    }
    dead = score(board_from(DEAD_STONE), dead=["B4"], rules=JAPANESE, seki=[], komi=0)
    d = dead.as_dict()
    assert (d["scoring"], d["komi"], d["dead"], d["black_prisoners"]) == ("territory", "0", ["B4"], 1)
    assert d["white_prisoners"] == 0 and d["result"] == dead.result.sgf()
    seki = score(seki_board(), rules=JAPANESE).as_dict()
    assert seki["seki"] == sorted(seki["seki"]) and "H2" in seki["seki"] and "G4" in seki["seki"]


def test_area_result_bounds_and_komi() -> None:
    assert area_result(0).winner is Color.WHITE
    assert area_result(361).winner is Color.BLACK and area_result(361).margin == 361 - 7.5
    for bad in (-1, 362, Fraction(-1, 2)):
        with pytest.raises(ScoringError, match=rf" / count {Fraction(bad)} is outside 0\.\.361$"):
            area_result(bad)
    # 9x9: par 40.5, komi 3¾ stones: 41 loses by 3¼ stones, 45 wins by ¾
    assert area_result(41, size=9) == Result(Color.WHITE, ResultReason.SCORE, Fraction(13, 2))
    assert area_result(45, size=9) == Result(Color.BLACK, ResultReason.SCORE, Fraction(3, 2))
    assert area_result(Fraction(177, 4), size=9) == Result(None, ResultReason.DRAW)
    with pytest.raises(ScoringError, match=r" / count 82 is outside 0\.\.81$"):
        area_result(82, size=9)


def test_a_shared_liberty_with_room_to_fill_is_no_seki() -> None:
    """Filling B1 leaves either side two liberties: no self-atari, no seki."""
    board = board_from([
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        "X . O X .",
    ])
    assert find_seki(board) == frozenset()
    assert score(board, rules=JAPANESE).seki == frozenset()


def test_sgf_results_read_with_their_scoring() -> None:
    from qisai.go.rules import Scoring

    for text in ("Draw", "draw", "Jigo", "0"):
        r = Result.from_sgf(text, Scoring.TERRITORY)
        assert r == Result(None, ResultReason.DRAW, scoring=Scoring.TERRITORY)
    for text in ("Void", "?", "", "  "):
        r = Result.from_sgf(text, Scoring.TERRITORY)
        assert r == Result(None, ResultReason.VOID, scoring=Scoring.TERRITORY)
    assert Result.from_sgf("B+") == Result(Color.BLACK, ResultReason.SCORE)
    assert Result.from_sgf("w+3.5", Scoring.TERRITORY) == Result(
        Color.WHITE, ResultReason.SCORE, Fraction(7, 2), Scoring.TERRITORY)
    for bad in ("B", "+", "X+R", "B-R", "BR"):
        with pytest.raises(ValueError, match="is not an SGF result"):
            Result.from_sgf(bad)


def test_result_texts_for_odd_margins_and_no_winner() -> None:
    from qisai.go.rules import Scoring

    assert Result(Color.BLACK, ResultReason.VOID).chinese() == "无胜负（重下）"
    assert Result(Color.BLACK, ResultReason.VOID).sgf() == "Void"
    assert Result(None, ResultReason.SCORE, Fraction(3)).chinese() == "无胜负（重下）"
    assert Result(Color.WHITE, ResultReason.SCORE, Fraction(3, 4), Scoring.TERRITORY).chinese() \
        == "白3/4目胜"
    assert Result(Color.WHITE, ResultReason.SCORE, Fraction(11, 4), Scoring.TERRITORY).chinese() \
        == "白2又3/4目胜"
    assert Result(Color.BLACK, ResultReason.SCORE, Fraction(1, 2), Scoring.TERRITORY).chinese() \
        == "黑半目胜"
    assert Result(Color.BLACK, ResultReason.SCORE).chinese() == "黑胜"
    assert Result(Color.BLACK, ResultReason.SCORE).sgf() == "B+"
    assert Result(Color.WHITE, ResultReason.FORFEIT).chinese() == "白胜（对方判负）"
    assert Result(Color.WHITE, ResultReason.TIME).chinese() == "白超时胜"


def test_sgf_long_forms_keep_the_scoring() -> None:
    from qisai.go.rules import Scoring

    t = Scoring.TERRITORY
    assert Result.from_sgf("B+Resign", t) == Result(Color.BLACK, ResultReason.RESIGNATION, scoring=t)
    assert Result.from_sgf("W+Time", t) == Result(Color.WHITE, ResultReason.TIME, scoring=t)
    assert Result.from_sgf("b+forfeit", t) == Result(Color.BLACK, ResultReason.FORFEIT, scoring=t)
    assert Result.from_sgf("W+", t) == Result(Color.WHITE, ResultReason.SCORE, scoring=t)
    with pytest.raises(ValueError, match=r" / 'B\+0': the margin must be positive$"):
        Result.from_sgf("B+0")
    with pytest.raises(ValueError, match=r" / 'W\+x1' has a margin that is not a number$"):
        Result.from_sgf("W+x1")


def test_margins_are_written_as_short_decimals() -> None:
    assert Result(Color.BLACK, ResultReason.SCORE, Fraction(1, 4)).sgf() == "B+0.25"
    assert Result(Color.BLACK, ResultReason.SCORE, Fraction(7)).sgf() == "B+7"
    assert Result(Color.WHITE, ResultReason.SCORE, Fraction(21, 2)).sgf() == "W+10.5"


def test_dead_marks_name_the_empty_point_and_komi_floats_are_exact() -> None:
    board = board_from(SPLIT)
    with pytest.raises(ScoringError, match=" / B2 names no stone to mark dead$"):
        score(board, dead=[(1, 1)])
    with pytest.raises(ScoringError, match=" / B6 names no stone to mark dead$"):
        score(board, dead=["B6"])
    with pytest.raises(ScoringError, match=" / handicap -1 is negative$"):
        score(board, handicap=-1)
    s = score(board, rules=CHINESE, komi=6.5)
    assert s.komi == Fraction(13, 2) and s.margin == 28 - 21 - Fraction(13, 2)
    s = score(board, rules=CHINESE, komi=0.1)
    assert s.komi == Fraction(1, 10)  # the decimal written, not the binary float


def test_seki_is_found_with_the_dead_removed() -> None:
    # The dead white stone B4 inside Black's space is no seki partner.
    board = board_from(DEAD_STONE)
    assert find_seki(board, dead=["B4"]) == frozenset()
    assert score(board, dead=["B4"], rules=JAPANESE).seki == frozenset()
