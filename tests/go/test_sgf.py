"""SGF reading and writing, replay, and errors on bad files."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.go.board import Board
from qisai.go.errors import GoError, IllegalMoveError, IllegalReason, SgfError
from qisai.go.rules import Color
from qisai.go.sgf import SgfGame, first_illegal, game_from_board, parse_komi, read_sgf, replay

from .test_scoring import FIXTURES, replay_fixture


def test_basic_properties() -> None:
    game = read_sgf(
        "(;FF[4]GM[1]SZ[9]KM[7.5]HA[0]RU[Chinese]RE[W+0.5]PB[黑棋手]"
        ";B[ee];W[dc]C[a comment \\] with bracket];B[];W[tt])"
    )
    assert game.size == 9 and game.komi == Fraction(15, 2) and game.rules == "Chinese"
    assert game.result == "W+0.5" and game.root.get("PB") == "黑棋手"
    assert game.moves() == [
        (Color.BLACK, (4, 4)),
        (Color.WHITE, (6, 3)),
        (Color.BLACK, None),
        (Color.WHITE, None),
    ]
    assert game.main_line()[2].comment == "a comment ] with bracket"
    board = replay(game)
    assert board.is_game_over() and board.move_number == 4


def test_fox_komi_hundredths() -> None:
    assert parse_komi("375") == Fraction(15, 2)  # 3.75 stones
    assert parse_komi("7.5") == Fraction(15, 2)
    assert parse_komi("6.5") == Fraction(13, 2)
    assert parse_komi("0") == 0
    assert parse_komi("-5") == -5
    assert read_sgf("(;GM[1]KM[375])").komi == Fraction(15, 2)
    with pytest.raises(SgfError) as info:
        read_sgf("(;GM[1]KM[seven])").komi  # noqa: B018
    assert info.value.prop == "KM"


def test_setup_handicap_and_compressed_lists() -> None:
    game = read_sgf("(;GM[1]SZ[19]HA[2]AB[dp][pd];W[pp];B[dd])")
    board = replay(game)
    assert board.handicap == 2
    assert board.get("D4") is Color.BLACK and board.get("Q16") is Color.BLACK
    assert board.get("Q4") is Color.WHITE and board.get("D16") is Color.BLACK
    game = read_sgf("(;GM[1]SZ[5]AB[aa:bb]AW[ee];AE[aa]PL[W];W[cc])")
    board = replay(game)
    assert board.get((4, 0)) is None and board.get((3, 1)) is Color.BLACK
    assert board.get((2, 2)) is Color.WHITE


def test_variations_kept_and_written() -> None:
    text = "(;GM[1]FF[4]SZ[9];B[ee](;W[dc];B[cc])(;W[gc]C[other]))"
    game = read_sgf(text)
    assert [n.properties for n in game.root.children[0].children] == [{"W": ["dc"]}, {"W": ["gc"], "C": ["other"]}]
    again = read_sgf(game.to_sgf())
    assert again.root == game.root
    assert [m for m in again.moves()] == [(Color.BLACK, (4, 4)), (Color.WHITE, (6, 3)), (Color.BLACK, (6, 2))]


def test_encodings() -> None:
    data = "(;GM[1]CA[GB2312]PB[柯洁]PW[李世石]SZ[19];B[pd])".encode("gb2312")
    game = read_sgf(data)
    assert game.root.get("PB") == "柯洁" and game.root.get("PW") == "李世石"
    # no CA: UTF-8 first, then GB18030
    assert read_sgf("(;GM[1]PB[聂卫平])".encode()).root.get("PB") == "聂卫平"
    assert read_sgf("(;GM[1]PB[聂卫平])".encode("gb18030")).root.get("PB") == "聂卫平"
    with pytest.raises(SgfError) as info:
        read_sgf(b"(;GM[1]CA[no-such-codec])")
    assert info.value.prop == "CA"
    # written back as UTF-8
    assert "柯洁" in game.to_sgf() and "CA[UTF-8]" in game.to_sgf()


@pytest.mark.parametrize(
    ("text", "prop"),
    [
        ("", None),
        ("not sgf at all", None),
        ("(;GM[1]SZ[9];B[ee]", None),  # unterminated
        ("(;GM[1]SZ[30])", "SZ"),
        ("(;GM[1]SZ[1])", "SZ"),
        ("(;GM[1]SZ[9:13])", "SZ"),
        ("(;GM[1]SZ[x])", "SZ"),
        ("(;GM[2]SZ[8])", "GM"),
        # A malformed HA is read with a warning (issue 36): test_sgf_records.py.
    ],
)
def test_malformed_sgf(text: str, prop: str | None) -> None:
    with pytest.raises(SgfError) as info:
        game = read_sgf(text)
        game.handicap  # noqa: B018
    assert info.value.prop == prop
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "prop", "node"),
    [
        ("(;GM[1]SZ[9];B[zz])", "B", 1),
        ("(;GM[1]SZ[9];B[ee];W[e])", "W", 2),
        ("(;GM[1]SZ[9];B[ee]W[dd])", "B", 1),
        ("(;GM[1]SZ[9]AB[ee:zz])", "AB", 0),
        ("(;GM[1]SZ[9];PL[Q])", "PL", 1),
        ("(;GM[1]SZ[3]AB[ab][ba]AW[aa])", "AB", 0),  # white stone without liberty
    ],
)
def test_bad_values_name_property_and_node(text: str, prop: str, node: int) -> None:
    with pytest.raises(SgfError) as info:
        replay(read_sgf(text))
    assert info.value.prop == prop and info.value.node == node
    assert f"node {node}" in str(info.value)


def test_illegal_moves_reported_with_number() -> None:
    game = read_sgf("(;GM[1]SZ[9];B[ee];W[dd];B[ee])")
    err = first_illegal(game)
    assert err is not None and err.move_number == 3 and err.reason is IllegalReason.OCCUPIED
    assert "move 3" in str(err)
    game = read_sgf("(;GM[1]SZ[9];B[ee];B[dd])")
    err = first_illegal(game)
    assert err is not None and err.move_number == 2 and err.reason is IllegalReason.OUT_OF_TURN
    board = replay(game, strict_turn=False)  # lenient: follows the file
    assert board.get("D6") is Color.BLACK
    # suicide in the corner
    game = read_sgf("(;GM[1]SZ[9];B[ee];W[ba];B[ff];W[ab];B[aa])")
    err = first_illegal(game)
    assert err is not None and err.move_number == 5 and err.reason is IllegalReason.SUICIDE
    assert err.point == "A9" and err.color == "B"
    with pytest.raises(IllegalMoveError):
        replay(game)
    assert first_illegal(read_sgf("(;GM[1]SZ[9];B[ee];W[dd])")) is None


def test_gnugo_final_positions_read() -> None:
    """GNU Go's printsgf output (the final position as AB/AW) reads back exactly."""
    for game in FIXTURES[:20]:
        board = replay_fixture(game)
        sgf_board = replay(read_sgf(game["sgf"]))
        for color in (Color.BLACK, Color.WHITE):
            assert sgf_board.stones(color) == board.stones(color)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(2, 19), seed=st.integers(0, 10**6), handicap=st.booleans())
def test_round_trip_random_games(size: int, seed: int, handicap: bool) -> None:
    rng = random.Random(seed)
    board = Board(size)
    if handicap and size >= 9:
        board.place_handicap(rng.randint(2, 4))
    for _ in range(rng.randint(0, 2 * size * size)):
        legal = board.legal_points()
        if legal and rng.random() > 0.05:
            board.play(rng.choice(legal))
        else:
            board.pass_move()
    game = game_from_board(board, komi=Fraction(15, 2), result="B+R")
    text = game.to_sgf()
    again = read_sgf(text)
    assert again.komi == Fraction(15, 2) and again.result == "B+R" and again.size == size
    replayed = replay(again)
    assert str(replayed) == str(board) and replayed.zobrist == board.zobrist
    assert [m.point for m in replayed.history] == [m.point for m in board.history]
    assert read_sgf(again.to_sgf()).root == again.root


def test_game_from_board_handicap() -> None:
    board = Board(19)
    board.place_handicap(4)
    board.play("Q10")
    game = game_from_board(board)
    assert game.handicap == 4 and game.root.get("PL") == "W"
    assert replay(read_sgf(game.to_sgf())).handicap == 4


def test_unencodable_text() -> None:
    with pytest.raises(SgfError):
        read_sgf("(;GM[1]C[\udc80])")


def test_sgfgame_default_size() -> None:
    assert SgfGame(read_sgf("(;GM[1])").root).size == 19


SAMPLE = (
    "(;FF[4]GM[1]SZ[9]KM[7.5]HA[2]AB[cc][gg]RE[W+0.5]C[hi \\] there]"
    ";W[ee];B[dd](;W[]C[x];B[tt])(;W[fa]AE[cc]))"
)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mutated_sgf_never_crashes(data: st.DataObject) -> None:
    """Bytes cut, flipped or spliced into a valid file: a result or a GoError."""
    raw = bytearray(SAMPLE.encode())
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(raw)))
        action = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        chunk = data.draw(st.binary(min_size=1, max_size=3) | st.sampled_from(
            [b"[", b"]", b"(", b")", b";", b"\\", b"B[zz]", b"SZ[99]", b"KM[x]", b"AB[aa:zz]"]))
        if action == "delete":
            del raw[where:where + len(chunk)]
        elif action == "insert":
            raw[where:where] = chunk
        else:
            raw[where:where + len(chunk)] = chunk
    try:
        game = read_sgf(bytes(raw))
        game.komi, game.handicap, game.moves()  # noqa: B018
        replay(game, strict_turn=data.draw(st.booleans()))
        game.to_sgf()
    except GoError:
        pass
