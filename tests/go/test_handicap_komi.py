"""Komi in handicap games and SGF ``KM`` values (issue 13 items 14, 15).

Rule text (``docs/rules/003-go-rules.txt``), 胜负判别 中国规则 2:
让先不贴目，让子要贴还让子数的一半 — a handicap game has no komi and Black gives back half the
number of handicap stones.  On an empty 9x9 board with two handicap stones
Black's count is 81 (子), White's 0; Black gives back 1 stone (2 points):
81 - 0 - 2 = 79 points, that is Black wins by 39½ stones (B+79).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.go.board import Board
from qisai.go.rules import CHINESE, JAPANESE
from qisai.go.scoring import score
from qisai.go.sgf import parse_komi, read_sgf
from qisai.referee.rulesets import ruleset

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def test_14_library_handicap_game_has_no_komi() -> None:
    board = Board(9, CHINESE)
    board.place_handicap(2)
    counted = score(board)
    assert counted.komi == 0 and counted.giveback == 2
    assert counted.margin == 79 and counted.result.sgf() == "B+79"
    assert counted.result.chinese() == "黑胜39又1/2子"
    # An explicit komi wins.
    assert score(board, komi=Fraction(1, 2)).margin == Fraction(157, 2)
    # 让先 (handicap 1: Black first, no stones) has no komi either.
    assert CHINESE.komi_for(1) == 0 and CHINESE.komi_for(0) == Fraction(15, 2)
    assert JAPANESE.komi_for(2) == 0 and JAPANESE.komi_for(0) == Fraction(13, 2)


def test_14_explicit_komi_is_kept_with_a_handicap() -> None:
    assert CHINESE.with_komi(Fraction(11, 2)).komi_for(3) == Fraction(11, 2)
    assert ruleset("chinese", handicap=3).komi == 0  # type: ignore[union-attr]
    assert ruleset("chinese", handicap=3, komi=5.5).komi == Fraction(11, 2)  # type: ignore[union-attr]
    assert ruleset("chinese", komi=5.5).with_overrides(handicap=2).komi == Fraction(11, 2)  # type: ignore[union-attr]
    explicit = ruleset("chinese", handicap=2, komi=5.5, handicap_komi=0.5)
    assert explicit.komi == Fraction(1, 2)  # type: ignore[union-attr]
    assert ruleset("chinese", komi=5.5).komi == Fraction(11, 2)  # type: ignore[union-attr]
    assert ruleset("japanese", handicap=2).komi == 0  # type: ignore[union-attr]


def test_14_cli_handicap_file_without_km() -> None:
    result = runner.invoke(app, ["go", "score", str(DATA / "handicap2_setup.sgf"), "--dead", "none"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == "rules: chinese, komi 0 points, handicap 2"
    assert lines[-1] == "B+79" and lines[-2] == "黑胜39又1/2子"
    assert "black: 81  white: 0" in result.output


def test_14_cli_explicit_komi_wins() -> None:
    result = runner.invoke(app, ["go", "score", str(DATA / "handicap2_setup.sgf"), "--dead", "none",
                                 "--komi", "7.5"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == "rules: chinese, komi 7.5 points, handicap 2"
    assert lines[-1] == "B+71.5"  # 81 - 7.5 - 2


@pytest.mark.parametrize(("name", "points"), [
    ("km_japanese_hundredths.sgf", Fraction(13, 2)),
    ("km_chinese_hundredths_stones.sgf", Fraction(15, 2)),
    ("km_chinese_stones.sgf", Fraction(15, 2)),
    ("km_chinese_points.sgf", Fraction(15, 2)),
])
def test_15_sgf_km_by_scale_and_rules(name: str, points: Fraction) -> None:
    assert read_sgf((DATA / name).read_bytes()).komi == points


def test_15_parse_komi_rules() -> None:
    assert parse_komi("650", "Japanese") == Fraction(13, 2)
    assert parse_komi("650", "Chinese") == Fraction(13, 2)  # half points are points
    assert parse_komi("375", "Chinese") == Fraction(15, 2)  # 3.75 stones
    assert parse_komi("375") == Fraction(15, 2)
    assert parse_komi("3.75", "cn") == Fraction(15, 2)
    assert parse_komi("3.25", "Chinese") == Fraction(13, 2)  # 贴3.25子 = 6.5 目 (一子两目)
    assert parse_komi("7.5", "Chinese") == Fraction(15, 2)
    assert parse_komi("6.5", "Korean") == Fraction(13, 2)
    assert parse_komi("0") == 0 and parse_komi("-5") == -5
    assert parse_komi("0.5", "Japanese") == Fraction(1, 2)


def test_15_cli_uses_the_file_komi() -> None:
    result = runner.invoke(app, ["go", "score", str(DATA / "km_japanese_hundredths.sgf"),
                                 "--rules", "japanese", "--dead", "none"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("rules: japanese, komi 6.5 points")
