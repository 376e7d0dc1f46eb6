"""Issue 14 item 13: hostile records and FENs raise the project's own errors
(XiangqiError subclasses) naming what and where, not Python's LookupError
or its int-digit ValueError; and an error quotes only a prefix of the input."""

from __future__ import annotations

import pytest

from qisai.xiangqi.board import Board
from qisai.xiangqi.cbl import CblError, read_cbf
from qisai.xiangqi.errors import FenError, InvalidMoveError, XiangqiError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.squares import Move

START_PLACEMENT = STARTING_FEN.split()[0]


def test_cbf_unknown_xml_encoding_is_a_cbl_error() -> None:
    data = b'<?xml version="1.0" encoding="x-no-such-codec"?><ChineseChessRecord/>'
    with pytest.raises(CblError) as err:
        read_cbf(data)
    assert isinstance(err.value, XiangqiError)
    assert "CBF" in str(err.value) and "encoding" in str(err.value)
    assert "x-no-such-codec" in str(err.value)


def test_cbf_known_encoding_still_reads() -> None:
    data = ('<?xml version="1.0" encoding="UTF-8"?><ChineseChessRecord><Head>'
            '<Red>红方</Red></Head><MoveList><Move value="00-00"/><Move value="77-47"/>'
            '</MoveList></ChineseChessRecord>').encode()
    game = read_cbf(data)
    assert game.headers["Red"] == "红方"


@pytest.mark.parametrize("field", [4, 5])
def test_fen_counter_with_thousands_of_digits_is_a_fen_error(field: int) -> None:
    counters = ["0", "1"]
    counters[field - 4] = "9" * 4301
    fen = f"{START_PLACEMENT} w - - {counters[0]} {counters[1]}"
    with pytest.raises(FenError) as err:
        Board(fen)
    message = str(err.value)
    assert f"FEN field {field + 1}" in message
    assert "4301 digits" in message
    assert len(message) < 300, "the error quotes a prefix, not the whole field"


def test_fen_counter_of_nine_digits_is_fine() -> None:
    board = Board(f"{START_PLACEMENT} w - - 0 999999999")
    assert board.fullmove_number == 999999999


def test_engine_move_with_a_huge_rank_is_an_invalid_move_error() -> None:
    with pytest.raises(InvalidMoveError) as err:
        Move.from_engine("a" + "1" * 5000 + "a1")
    assert len(str(err.value)) < 300


def test_iccs_error_quotes_a_prefix_only() -> None:
    with pytest.raises(InvalidMoveError) as err:
        Move.from_iccs("h2e2" * 1_000_000)
    assert "4000000 characters" in str(err.value)
    assert len(str(err.value)) < 300
