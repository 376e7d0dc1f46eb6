"""The count written out as the Go seed writes it (issue 32.4; seed 003,
胜负判别 and its worked example: Black 140 子 on the board and 44 空 = 184
子; with 3¾ 子 komi 184 − 3.75 = 180.25 < 180.5, White wins by ¼ 子; with
3¼ Black wins by ¼; without komi Black wins by 3½; by territory 44 − 6.5 =
37.5 > 37, Black wins by ½ 目)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from qisai.go.board import Board
from qisai.go.count_text import arithmetic, owners, stones_text
from qisai.go.rules import CHINESE, JAPANESE, Scoring
from qisai.go.scoring import Score, score


def seed_example(komi_points: Fraction, scoring: Scoring = Scoring.AREA) -> Score:
    """The seed's 19x19 example by its numbers: 140 stones each, Black 44
    points surrounded, White 37 (the 361 points: 140 + 44 + 140 + 37)."""
    black_terr = frozenset((0, c) for c in range(19)) | frozenset((1, c) for c in range(19)) \
        | frozenset((2, c) for c in range(6))
    white_terr = frozenset((18, c) for c in range(19)) | frozenset((17, c) for c in range(18))
    assert len(black_terr) == 44 and len(white_terr) == 37
    if scoring is Scoring.AREA:
        black, white = Fraction(184), Fraction(177)
    else:
        black, white = Fraction(44), Fraction(37)
    return Score(scoring=scoring, size=19, komi=komi_points, handicap=0, giveback=Fraction(0),
                 black_stones=140, white_stones=140, black_territory=black_terr,
                 white_territory=white_terr, shared=frozenset(), black_prisoners=0,
                 white_prisoners=0, dead=frozenset(), seki=frozenset(), black_count=black,
                 white_count=white, margin=black - white - komi_points)


@pytest.mark.parametrize(("value", "text"), [
    (Fraction(184), "184"), (Fraction(15, 4), "3¾"), (Fraction(361, 2), "180½"),
    (Fraction(1, 4), "¼"), (Fraction(-7, 2), "-3½"), (Fraction(17, 8), "2.125")])
def test_stones_are_written_with_quarters(value: Fraction, text: str) -> None:
    assert stones_text(value) == text


def test_the_seeds_example_with_three_and_three_quarters() -> None:
    lines = arithmetic(seed_example(Fraction(15, 2)))  # 3¾ 子 = 7.5 points
    zh = [line["zh"] for line in lines]
    assert zh[0] == "黑方 140 子 + 44 空 = 184 子"
    assert zh[1] == "白方 140 子 + 37 空 = 177 子"
    assert zh[2] == "贴 3¾ 子：184 − 3¾ = 180¼ 子"
    assert zh[3] == "归本数 180½ 子（361 点的一半）：180¼ < 180½，白胜 ¼ 子"
    assert lines[3]["en"].endswith("White wins by ¼ stones")


def test_the_seeds_example_with_other_komi() -> None:
    assert arithmetic(seed_example(Fraction(13, 2)))[3]["zh"].endswith("黑胜 ¼ 子")  # 3¼ 子
    assert arithmetic(seed_example(Fraction(0)))[3]["zh"].endswith("黑胜 3½ 子")


def test_the_seeds_example_by_territory() -> None:
    zh = [line["zh"] for line in arithmetic(seed_example(Fraction(13, 2), Scoring.TERRITORY))]
    assert zh[0] == "黑方 44 目 + 提子 0 = 44 目"
    assert zh[2] == "贴 6.5 目：44 − 6.5 = 37.5 目"
    assert zh[3] == "37.5 > 37（白方），黑胜 0.5 目"


def walls() -> Board:
    """Black's wall on column E, White's on F of a 9x9 board."""
    b = Board(9, CHINESE)
    for row in range(1, 10):
        b.play(f"E{row}")
        b.play(f"F{row}")
    return b


def test_owners_and_arithmetic_of_a_real_board() -> None:
    count = score(walls(), [], CHINESE)
    own = owners(count)
    # Black surrounds A-D (36 points), White G-J (27); no point is nobody's
    assert len(own["black"]) == 36 and len(own["white"]) == 27 and own["dame"] == []
    assert "A1" in own["black"] and "J9" in own["white"] and "E5" not in own["black"]
    zh = [line["zh"] for line in arithmetic(count)]
    assert zh == ["黑方 9 子 + 36 空 = 45 子", "白方 9 子 + 27 空 = 36 子",
                  "贴 3¾ 子：45 − 3¾ = 41¼ 子", "归本数 40½ 子（81 点的一半）：41¼ > 40½，黑胜 ¾ 子"]


def test_dead_stones_count_to_the_side_around_them() -> None:
    b = walls()
    b.play("B5")   # Black
    b.play("C5")   # White, deep in Black's area: dead
    count = score(b, ["C5"], CHINESE)
    own = owners(count)
    assert own["dead"] == ["C5"] and "C5" in own["black"]
    # Black: 10 stones + 35 points (C5's among them) = 45; White 9 + 27 = 36;
    # (45 - 36 - 7.5) / 2 = ¾ 子 to Black
    assert arithmetic(count)[0]["zh"] == "黑方 10 子 + 35 空 = 45 子"
    assert arithmetic(count)[3]["zh"].endswith("黑胜 ¾ 子")


def test_territory_rules_count_prisoners_and_komi_in_points() -> None:
    b = Board(9, JAPANESE)
    for row in range(1, 10):
        b.play(f"E{row}")
        b.play(f"F{row}")
    count = score(b, [], JAPANESE)
    zh = [line["zh"] for line in arithmetic(count)]
    assert zh[0] == "黑方 36 目 + 提子 0 = 36 目" and zh[1] == "白方 27 目 + 提子 0 = 27 目"
    assert zh[2] == "贴 6.5 目：36 − 6.5 = 29.5 目" and zh[3] == "29.5 > 27（白方），黑胜 2.5 目"
