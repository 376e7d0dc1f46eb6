"""Issue 35.3: the strict Xiangqi FEN reader and its lenient option.

Xiangqi FEN (the xqbase/UCCI definition every Xiangqi program writes:
``placement side - - halfmove move``) has no castling and no en-passant
capture, so fields 3 and 4 are always ``-``; the move number counts from 1.
Chess-style fields are refused by default, with the field and why; read with
``strict=False`` they are ignored as before (files from programs that write
chess-style FEN).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qisai.xiangqi import pgn
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import FenError
from qisai.xiangqi.fen import STARTING_FEN, parse_fen

PLACEMENT = STARTING_FEN.split()[0]
START = Board().fen()

# (FEN, the text the error must hold): the three chess-style fields.
REFUSED = [
    (f"{PLACEMENT} w - - 0 0",
     "FEN field 6 (move number), character 69: must be 1 or more (the first move is "
     "move 1), not 0"),
    (f"{PLACEMENT} w - e3 0 1",
     "FEN field 4 (en passant), character 65: must be '-' (Xiangqi has no en-passant "
     "capture), not 'e3'"),
    (f"{PLACEMENT} w KQkq - 0 1",
     "FEN field 3 (castling), character 63: must be '-' (Xiangqi has no castling), "
     "not 'KQkq'"),
]


@pytest.mark.parametrize(("fen", "message"), REFUSED, ids=["move-0", "en-passant", "castling"])
def test_strict_by_default_refuses_chess_fields(fen: str, message: str) -> None:
    with pytest.raises(FenError) as e:
        Board(fen)
    assert e.value.en == message
    with pytest.raises(FenError):
        parse_fen(fen)
    with pytest.raises(FenError):
        Board().set_fen(fen)


@pytest.mark.parametrize(("fen", "message"), REFUSED, ids=["move-0", "en-passant", "castling"])
def test_lenient_reads_them_as_before(fen: str, message: str) -> None:
    b = Board(fen, strict=False)
    assert b.fen() == START  # fields 3-4 written as '-', move number 0 read as 1
    assert parse_fen(fen, strict=False).fullmove_number == 1


@pytest.mark.parametrize("fen", [
    STARTING_FEN,
    PLACEMENT,  # fields 2-6 may be left out
    f"{PLACEMENT} w",
    f"{PLACEMENT} b - -",
    f"{PLACEMENT} r - - 0 1",  # 'r' for Red, as some programs write
    f"{PLACEMENT} w - - 12 7",
])
def test_strict_accepts_xiangqi_fen(fen: str) -> None:
    Board(fen)


def test_files_from_other_programs_are_read_leniently(tmp_path: Path) -> None:
    # A PGN whose [FEN] carries chess-style fields: the reader, the
    # referee's record import and the match openings still accept it.
    from qisai.competition.match import load_openings
    from qisai.referee.records import xiangqi_from_pgn

    chess_style = f"{PLACEMENT} w KQkq e3 0 0"
    text = (f'[Event "x"]\n[FEN "{chess_style}"]\n[Format "ICCS"]\n[Result "*"]\n\n'
            "1. h2e2 h9g7 *\n")
    game = pgn.parse_pgn(text)[0]
    assert [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]
    assert game.board().fen() == START
    replay = xiangqi_from_pgn(text)
    assert replay.start_fen == START
    epd = tmp_path / "book.epd"
    epd.write_text(f"{PLACEMENT} w KQkq e3 moves h2e2\n", encoding="utf-8")
    [opening] = load_openings(epd, "xiangqi")
    assert opening.fen == START and opening.moves == ("h2e2",)
    (tmp_path / "book.pgn").write_text(text, encoding="utf-8")
    [opening] = load_openings(tmp_path / "book.pgn", "xiangqi")
    assert opening.fen == START
