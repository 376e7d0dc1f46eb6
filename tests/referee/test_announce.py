"""The arbiter's announcements at a blindfold display (seed 001:
"裁判报出的各组走棋")."""

from __future__ import annotations

import pytest

from qisai.go.coords import CoordinateError
from qisai.referee.announce import (
    AnnounceError,
    announce_go,
    announce_xiangqi,
    board_label,
    chinese_numeral,
    read_go_reply,
    read_xiangqi_reply,
)
from qisai.xiangqi import Board, Move


@pytest.mark.parametrize(("n", "zh"), [
    (1, "一"), (3, "三"), (10, "十"), (12, "十二"), (19, "十九"), (20, "二十"),
    (99, "九十九"), (100, "一百"), (101, "一百零一"), (108, "一百零八"),
    (110, "一百一十"), (120, "一百二十"), (1005, "一千零五"), (2010, "二千零一十"),
])
def test_board_numbers_read_as_chinese_numerals(n: int, zh: str) -> None:
    assert chinese_numeral(n) == zh


def test_board_labels_and_bounds() -> None:
    assert board_label(3) == "第三台"
    assert board_label(108) == "第一百零八台"
    assert board_label(3, "en") == "board 3"
    for bad in (0, -1, 10000, True):
        with pytest.raises(AnnounceError):
            board_label(bad)  # type: ignore[arg-type]
    with pytest.raises(AnnounceError, match="language"):
        board_label(1, "fr")


def test_xiangqi_move_announced_in_the_page_language() -> None:
    b = Board()
    cannon = Move.from_iccs("h2e2")
    assert announce_xiangqi(3, b, cannon).text == "第三台，炮二平五"
    assert announce_xiangqi(3, b, cannon, "en").text == "board 3, C2.5"
    assert announce_xiangqi(3, b, cannon, "zh", notation="iccs").text == "第三台，h2e2"
    b.push(cannon)
    assert announce_xiangqi(12, b, Move.from_iccs("h9g7")).text == "第十二台，马8进7"


def test_go_move_announced() -> None:
    assert announce_go(3, "black", (15, 15), 19).text == "第三台，黑 Q16"  # no I column
    assert announce_go(3, "white", None, 19).text == "第三台，白 停一手"
    assert announce_go(3, "black", (3, 3), 19, "en").text == "board 3, Black D4"
    assert announce_go(3, "white", None, 9, "en").text == "board 3, White passes"
    with pytest.raises(CoordinateError):
        announce_go(1, "black", (9, 0), 9)
    with pytest.raises(AnnounceError):
        announce_go(1, "red", (0, 0), 9)


@pytest.mark.parametrize("typed", ["炮二平五", "炮25", "C2.5", "h2e2", "  砲二平五 "])
def test_blindfold_reply_in_any_notation(typed: str) -> None:
    assert read_xiangqi_reply(Board(), typed) == Move.from_iccs("h2e2")


def test_blindfold_typo_or_illegal_move_gets_the_parser_message() -> None:
    b = Board()
    with pytest.raises(AnnounceError, match="horse"):
        read_xiangqi_reply(b, "马二进四")  # the horse cannot reach that point (clause 2)
    with pytest.raises(AnnounceError):
        read_xiangqi_reply(b, "炮二平")
    with pytest.raises(AnnounceError, match="no move"):
        read_xiangqi_reply(b, "   ")
    with pytest.raises(AnnounceError, match="32"):
        read_xiangqi_reply(b, "炮" * 40)
    assert b.fen() == Board().fen()  # nothing was played


def test_go_reply() -> None:
    assert read_go_reply("q16", 19) == (15, 15)
    assert read_go_reply("pass", 19) is None
    assert read_go_reply("停一手", 19) is None
    with pytest.raises(AnnounceError, match="I|GTP"):
        read_go_reply("I5", 19)
    with pytest.raises(AnnounceError, match="off"):
        read_go_reply("T19", 9)
