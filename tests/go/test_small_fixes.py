"""Issue 13 item 18: small things in the Go library and CLI."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.go.board import Board
from qisai.go.errors import IllegalMoveError, ScoringError, SgfError
from qisai.go.rules import CHINESE, Color
from qisai.go.scoring import score
from qisai.go.sgf import game_from_board, read_sgf, replay

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def test_18_dead_on_an_empty_point_is_named_by_its_name(tmp_path: Path) -> None:
    path = tmp_path / "one.sgf"
    path.write_text("(;FF[4]GM[1]SZ[9]KM[7.5];B[ee];W[cc])")
    result = runner.invoke(app, ["go", "score", str(path), "--dead", "A9"])
    assert result.exit_code == 2
    assert "A9 names no stone" in result.output and "(8, 0)" not in result.output
    board = Board(9)
    with pytest.raises(ScoringError, match="A9 names no stone"):
        score(board, [(8, 0)])


def test_18_game_from_board_takes_a_float_komi() -> None:
    board = Board(9)
    board.play("E5")
    game = game_from_board(board, komi=0.5)
    assert game.root.get("KM") == "0.5" and read_sgf(game.to_sgf()).komi == Fraction(1, 2)
    assert game_from_board(board, komi=6).root.get("KM") == "6"
    with pytest.raises(SgfError):
        game_from_board(board, komi="seven")


def test_18_play_goes_on_after_two_passes_as_the_text_allows() -> None:
    # 4(1), 4(4): the game ends when both confirm it; passes are not in the
    # text, and a dispute over the dead stones resumes play.
    board = Board(9, CHINESE)
    board.play("E5")
    board.pass_move()
    board.pass_move()
    assert board.is_game_over()
    board.play("C3")  # legal, as the docstring now says
    assert board.get("C3") is Color.WHITE and not board.is_game_over()
    assert board.legal_reason(None) is None


def test_18_replay_reads_handicap_moves_as_setup() -> None:
    game = read_sgf((DATA / "handicap2_moves.sgf").read_bytes())
    board = replay(game, CHINESE)
    assert board.get("C3") is Color.BLACK and board.get("G7") is Color.BLACK
    assert board.get("E5") is Color.WHITE and board.handicap == 2
    result = runner.invoke(app, ["go", "replay", str(DATA / "handicap2_moves.sgf")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok:")
    # Consecutive Black moves without HA are still out of turn (8(1)).
    bad = read_sgf("(;FF[4]GM[1]SZ[9];B[cg];B[gc];W[ee])")
    with pytest.raises(IllegalMoveError, match="move 2"):
        replay(bad, CHINESE)


def test_18_counts_print_as_decimals(tmp_path: Path) -> None:
    # Black E5 alone on 9x9, White passes: Black 81, White 0 (数子).  With a
    # white stone in the far corner the empty points are shared: each side
    # gets half of 79, so the counts end in .5.
    path = tmp_path / "half.sgf"
    path.write_text("(;FF[4]GM[1]SZ[9]KM[7.5]RU[Chinese];B[ee];W[ai];B[];W[])")
    result = runner.invoke(app, ["go", "score", str(path), "--dead", "none"])
    assert result.exit_code == 0, result.output
    assert "black: 40.5  white: 40.5" in result.output and "/2" not in result.output
