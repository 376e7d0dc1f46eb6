"""The ko point (rule 11(1), 打劫): set only after a single-stone capture by a
lone stone that is left with exactly one liberty; the illegal recapture is
refused with the reason "打劫" / "ko recapture".

Each shape differs from the real ko by one condition, so a rules core that
drops any one of the three conditions sets a ko point where there is none.
"""

from __future__ import annotations

import dataclasses

import pytest

from qisai.go.board import Board
from qisai.go.errors import IllegalMoveError, IllegalReason
from qisai.go.rules import CHINESE, JAPANESE, Color, KoRule, Rules

SIMPLE = dataclasses.replace(CHINESE, ko=KoRule.SIMPLE)
SITUATIONAL = dataclasses.replace(CHINESE, ko=KoRule.SITUATIONAL)
ALL_RULES = [CHINESE, SIMPLE, SITUATIONAL, JAPANESE]
RULE_IDS = ["chinese", "simple", "situational", "japanese"]


def board_from(rows: list[str], rules: Rules = CHINESE) -> Board:
    """Build a board from text rows, top row first: X black, O white, . empty;
    Black to move."""
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
    board.setup(black, white, to_move=Color.BLACK)
    return board


# Black E4 takes the white stone D4.  Columns A-G, rows 7 (top) to 1.
REAL_KO = [
    ". . . . . . .",  # 7
    ". . . . . . .",  # 6
    ". . . X O . .",  # 5
    ". . X O . O .",  # 4
    ". . . X O . .",  # 3
    ". . . . . . .",  # 2
    ". . . . . . .",  # 1
]
# The same with F4 empty: E4 keeps two liberties (D4 and F4) after the capture.
TWO_LIBERTIES = [
    ". . . . . . .",
    ". . . . . . .",
    ". . . X O . .",
    ". . X O . . .",
    ". . . X O . .",
    ". . . . . . .",
    ". . . . . . .",
]
# Black D4 takes D5 and joins D3: the two stones are left with one liberty
# (D5), and White may take them back at once (a snapback, not a ko).
SNAPBACK = [
    ". . . . . . .",  # 7
    ". . . X . . .",  # 6
    ". . X O X . .",  # 5
    ". . O . O . .",  # 4
    ". . O X O . .",  # 3
    ". . . O . . .",  # 2
    ". . . . . . .",  # 1
]
# Black D5 takes the two white stones D4 and D3 (a lone stone, one liberty
# left after the capture is D4's point only): two stones, so no ko.
TWO_STONES = [
    ". . . . . . .",  # 7
    ". . . O . . .",  # 6
    ". . O . O . .",  # 5
    ". . X O X . .",  # 4
    ". . X O X . .",  # 3
    ". . . X . . .",  # 2
    ". . . . . . .",  # 1
]


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_lone_stone_in_atari_after_single_capture_sets_the_ko_point(rules: Rules) -> None:
    b = board_from(REAL_KO, rules)
    move = b.play("E4")
    assert move.captured == ((3, 3),)
    assert b.liberties("E4") == {(3, 3)}
    assert b.ko_point == (3, 3)
    assert b.legal_reason("D4") is IllegalReason.KO
    assert (3, 3) not in b.legal_points()
    with pytest.raises(IllegalMoveError) as info:
        b.play("D4")
    err = info.value
    assert err.reason is IllegalReason.KO
    assert (err.point, err.color, err.move_number) == ("D4", "W", 2)
    assert err.en == "move 2: W D4 is illegal: ko recapture (打劫)"
    assert err.zh == "第 2 手：白方 D4 不合规则：打劫"  # rule 11(1)
    assert IllegalReason.KO.value == "打劫"
    # a move elsewhere clears the ko point (劫材), then the recapture is fine
    b.play("A1")
    assert b.ko_point is None
    b.play("A7")
    assert b.ko_point is None
    assert b.legal_reason("D4") is None
    assert b.play("D4").captured == ((3, 4),)
    assert b.ko_point == (3, 4)  # the recapture is a ko capture too


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_capturing_stone_with_two_liberties_sets_no_ko_point(rules: Rules) -> None:
    b = board_from(TWO_LIBERTIES, rules)
    move = b.play("E4")
    assert move.captured == ((3, 3),)
    assert b.liberties("E4") == {(3, 3), (3, 5)}
    assert b.ko_point is None
    # White at the captured point would capture nothing: a forbidden point
    # (禁着点), not a ko.
    assert b.legal_reason("D4") is IllegalReason.SUICIDE
    with pytest.raises(IllegalMoveError, match=r"suicide \(forbidden point\) \(禁着点\)"):
        b.play("D4")


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_capture_by_a_group_left_in_atari_sets_no_ko_point(rules: Rules) -> None:
    b = board_from(SNAPBACK, rules)
    move = b.play("D4")
    assert move.captured == ((4, 3),)
    assert b.liberties("D4") == {(4, 3)}
    assert b.ko_point is None
    assert b.legal_reason("D5") is None
    assert sorted(b.play("D5").captured) == [(2, 3), (3, 3)]  # snapback
    assert b.ko_point is None


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_capture_of_two_stones_sets_no_ko_point(rules: Rules) -> None:
    b = board_from(TWO_STONES, rules)
    move = b.play("D5")
    assert sorted(move.captured) == [(2, 3), (3, 3)]
    assert b.ko_point is None
    assert b.legal_reason("D4") is None


def test_undo_restores_the_ko_point() -> None:
    b = board_from(REAL_KO)
    b.play("E4")
    b.play("A1")
    assert b.ko_point is None
    b.undo()
    assert b.ko_point == (3, 3)
    assert b.legal_reason("D4") is IllegalReason.KO
    b.undo()
    assert b.ko_point is None
