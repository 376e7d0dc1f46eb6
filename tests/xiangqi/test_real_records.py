"""Issue 36, items 1-4: record files as other programs and collections write them.

The files are in tests/data/xiangqi/records/issue36/ (made by make_files.py
there from the games of cbl_games.json, whose moves Fairy-Stockfish checked
legal): the expected moves are those ICCS lists, the expected texts the
Unicode strings the files were encoded from.
"""

from __future__ import annotations

import codecs
import io
import json
from pathlib import Path
from typing import Any

import pytest

from qisai.xiangqi.encoding import detect_encoding
from qisai.xiangqi.pgn import Game, PgnError, iter_games, parse_pgn
from qisai.xiangqi.xqf import read_xqf

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
FILES = RECORDS / "issue36"


def _iccs_games() -> list[dict[str, Any]]:
    with open(RECORDS / "cbl_games.json", encoding="utf-8") as fh:
        return [g for g in json.load(fh) if g["moves_iccs"]]


def _iccs(game: Game) -> list[str]:
    return [m.iccs() for m in game.mainline_moves()]


# ------------------------------------------------------------ 1. encodings

def test_a_gbk_file_whose_tag_lines_are_valid_utf8_is_read_as_gbk() -> None:
    # [Red "谢小然"] in GBK is valid UTF-8 ("лСȻ"), as are 太原, 注 and 胜;
    # the move lines are not: the file as a whole is GBK.
    data = (FILES / "gbk_utf8_lines.pgn").read_bytes()
    assert '[Red "谢小然"]'.encode("gbk").decode("utf-8") == '[Red "лСȻ"]'
    games = parse_pgn(data)
    assert [g.headers["Red"] for g in games] == ["谢小然", "谢小然"]
    assert games[0].headers["Site"] == "太原"
    assert games[0].comment == "注"
    assert games[1].headers["Event"] == "胜"
    truth = _iccs_games()
    assert [_iccs(g) for g in games] == [truth[0]["moves_iccs"], truth[1]["moves_iccs"]]


def test_the_encoding_is_decided_in_the_documented_order() -> None:
    text = '[Red "谢小然"] 炮二平五 马８进７'
    assert detect_encoding(codecs.BOM_UTF8 + text.encode("utf-8")) == "utf-8-sig"
    assert detect_encoding(text.encode("utf-16")) == "utf-16"
    assert detect_encoding(text.encode("utf-8")) == "utf-8"
    assert detect_encoding(text.encode("gbk")) == "gb18030"
    assert detect_encoding("車九平八 馬2進3 將5平4".encode("big5")) == "cp950"
    assert detect_encoding("俥九平八 馬2進3".encode("big5hkscs")) == "big5hkscs"
    # UTF-16 and a BOM are read too.
    assert parse_pgn(("1. 炮二平五 马８进７ *\n").encode("utf-16"))[0].mainline_moves()


def test_a_given_encoding_wins_over_detection() -> None:
    data = (FILES / "gbk_utf8_lines.pgn").read_bytes()
    assert parse_pgn(data, encoding="gbk")[0].headers["Red"] == "谢小然"
    with pytest.raises(LookupError):
        parse_pgn(data, encoding="no-such-codec")
    # Read as what it is not, the file's moves are nonsense.
    with pytest.raises(PgnError):
        parse_pgn(data, encoding="cp950")


def test_the_whole_stream_decides_even_when_read_game_by_game() -> None:
    data = (FILES / "gbk_utf8_lines.pgn").read_bytes()
    stream = io.BytesIO(data)
    first = next(iter_games(stream))
    assert first.headers["Red"] == "谢小然"
    assert stream.tell() < len(data)  # the rest is still to come: streaming


# ------------------------------------------------------------ 2. XQF texts

def test_xqf_user_defined_bytes_do_not_shift_the_text() -> None:
    # Event = "5、" A3A0 "第二轮" in GBK bytes: GB18030 reads A3A0 as one
    # private-use character (U+E5E5); a GBK decoder with replacement turned
    # the rest into "�牭谕轮�".
    game = read_xqf((FILES / "user_defined_a3a0.xqf").read_bytes())
    assert game.headers["Event"] == "5、\ue5e5第二轮"
    assert game.headers["Red"] == "黄松轩"
    original = read_xqf((RECORDS / "030-黄松轩先胜冯敬如.XQF").read_bytes())
    assert _iccs(game) == _iccs(original)


# ------------------------------------------------------------ 3. Big5

@pytest.mark.parametrize(("name", "indices", "encoding"), [
    ("big5_traditional.pgn", [0, 1], "cp950"),
    ("big5hkscs_traditional.pgn", [2], "big5hkscs"),
])
def test_big5_pgn_with_traditional_notation(name: str, indices: list[int], encoding: str) -> None:
    data = (FILES / name).read_bytes()
    assert detect_encoding(data) == encoding
    text = data.decode(encoding)
    # The forms of Taiwanese and Hong Kong sets are in the file.
    for ch in "俥傌包進" if encoding == "big5hkscs" else "傌砲將帥進後":
        assert ch in text, ch
    games = parse_pgn(data)
    truth = _iccs_games()
    assert [_iccs(g) for g in games] == [truth[i]["moves_iccs"] for i in indices]
    assert games[0].headers["Event"] == "1956年全國象棋錦標賽（初賽）"


# ------------------------------------------------------------ 4. bad tags

def test_a_bad_tag_is_read_leniently_with_a_warning_and_reading_goes_on() -> None:
    games = parse_pgn((FILES / "bad_tag_middle.pgn").read_bytes())
    assert len(games) == 3
    assert games[1].headers["Event"] == 'The "Qisai" Cup'
    assert games[1].headers["Round"] == "2"
    assert games[1].warnings == [
        "game 2, line 14: tag Event has unescaped quotes; read as 'The \"Qisai\" Cup'"]
    assert games[0].warnings == [] and games[2].warnings == []
    truth = _iccs_games()
    assert [_iccs(g) for g in games] == [truth[i]["moves_iccs"] for i in (3, 4, 5)]


def test_a_tag_line_that_is_no_tag_names_game_and_line() -> None:
    text = '[Event "a"]\n\n1. h2e2 *\n\n[Event "b"]\n[Red "x\n\n1. h2e2 *\n'
    with pytest.raises(PgnError, match=r"game 2, line 6: malformed tag pair"):
        parse_pgn(text)


def test_a_malformed_game_is_reported_and_the_next_one_read() -> None:
    text = ('[Round "1"]\n\n1. h2e2 h9g7 *\n\n[Round "2"]\n\n1. h2e2 h9h9 *\n\n'
            '[Round "3"]\n\n1. b2e2 *\n')
    errors: list[PgnError] = []
    games = list(iter_games(io.StringIO(text), on_error=errors.append))
    assert [g.headers["Round"] for g in games] == ["1", "3"]
    assert len(errors) == 1 and errors[0].en.startswith("game 2, line 7, ply 2")
