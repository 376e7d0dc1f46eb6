"""Issue 36, item 5: SGF files as Fox (YuanYu) and other programs write them.

Independent truth: the final positions are replayed with sgfmill's board
(its own SGF parser reads the properties), compared point by point by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sgfmill import boards, common, sgf
from typer.testing import CliRunner

from qisai.cli import app
from qisai.go.board import Board
from qisai.go.coords import gtp_name
from qisai.go.errors import IllegalMoveError, IllegalReason
from qisai.go.rules import Color
from qisai.go.sgf import read_sgf, replay

DATA = Path(__file__).resolve().parent / "data"
runner = CliRunner()


def _sgfmill_position(data: bytes) -> dict[str, str]:
    """Stones by GTP name after every set-up and move of the main line, by sgfmill."""
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    board = boards.Board(size)
    for node in game.get_main_sequence():
        ab, aw, ae = node.get_setup_stones()
        for colour, points in (("b", ab), ("w", aw)):
            for row, col in points:
                board.board[row][col] = colour
        for row, col in ae:
            board.board[row][col] = None
        colour, move = node.get_move()
        if colour is not None and move is not None:
            board.play(move[0], move[1], colour)
    return {common.format_vertex((r, c)): colour
            for (colour, (r, c)) in board.list_occupied_points()}


def _position(board: Board) -> dict[str, str]:
    out: dict[str, str] = {}
    for point in board.points():
        color = board.get(point)
        if color is not None:
            out[gtp_name(point, board.size)] = "b" if color == Color.BLACK else "w"
    return out


def test_fox_handicap_stones_in_the_node_after_the_root() -> None:
    data = (DATA / "fox_handicap_setup_node1.sgf").read_bytes()
    game = read_sgf(data)
    assert "AB" not in game.root.properties and "AB" in game.root.children[0].properties
    board = replay(game)  # strict turn: White's first move is in turn
    assert board.handicap == 3
    assert _position(board) == _sgfmill_position(data)
    assert board.to_move == Color.WHITE  # 20 moves from White: White again


def test_the_side_to_move_follows_a_later_set_up() -> None:
    # A set-up in node 2 of two White stones, then Black moves: no PL, so
    # the next move says who is to move.
    game = read_sgf("(;GM[1]SZ[9];B[ee];AW[cc][gg];B[cg];W[gc])")
    board = replay(game)
    assert _position(board) == {"E5": "b", "C7": "w", "G3": "w", "C3": "b", "G7": "w"}


def test_white_first_without_handicap_is_read_with_a_note() -> None:
    data = (DATA / "white_first_even.sgf").read_bytes()
    notes: list[str] = []
    board = replay(read_sgf(data), notes=notes)
    assert _position(board) == _sgfmill_position(data)
    assert len(notes) == 1 and notes[0].startswith("move 1: white moves first")
    result = runner.invoke(app, ["go", "replay", str(DATA / "white_first_even.sgf")])
    assert result.exit_code == 0, result.output
    assert "ok: 6 moves, all legal" in result.output


def test_moving_twice_after_the_first_move_is_still_refused() -> None:
    with pytest.raises(IllegalMoveError) as info:
        replay(read_sgf("(;GM[1]SZ[9];W[ee];W[cc])"))
    assert info.value.reason == IllegalReason.OUT_OF_TURN and info.value.move_number == 2


def test_a_malformed_handicap_is_read_with_a_warning() -> None:
    game = read_sgf((DATA / "ha_not_a_number.sgf").read_bytes())
    assert game.handicap == 0
    assert game.warnings == ["HA[7.5] is not a number of stones (0..361); "
                             "handicap read from the set-up: 0 stone(s)"]
    notes: list[str] = []
    board = replay(game, notes=notes)
    assert board.move_number == 4 and notes == game.warnings
    # With Black set-up stones, they are the handicap.
    game = read_sgf("(;GM[1]SZ[9]HA[two]AB[cc][gg];W[ee])")
    assert game.handicap == 2 and "2 stone(s)" in game.warnings[0]
    result = runner.invoke(app, ["go", "replay", str(DATA / "ha_not_a_number.sgf")])
    assert result.exit_code == 0, result.output
    assert "HA[7.5] is not a number of stones" in result.output


def test_an_sgf_without_ca_is_decoded_as_one_whole() -> None:
    # PB[谢小然] in GBK is valid UTF-8 on its own ("лСȻ"); the comment is not:
    # the file is GBK, and so is the name.
    data = "(;GM[1]SZ[9]PB[谢小然]PW[李定一]C[黑先];B[ee])".encode("gbk")
    assert "谢小然".encode("gbk").decode("utf-8") == "лСȻ"
    game = read_sgf(data)
    assert game.root.get("PB") == "谢小然" and game.root.get("PW") == "李定一"
