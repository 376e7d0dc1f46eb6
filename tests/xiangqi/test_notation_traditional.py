"""Chinese notation in traditional characters (炮二平五 / 馬8進7 / 前車進一).

Independent truth: the 131 real games of tests/data/xiangqi/records/ (their
moves in ICCS, from the CBL files) and the reading of traditional characters
that qisai.xiangqi.notation had before it wrote them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qisai.xiangqi import Board, Move
from qisai.xiangqi.notation import TRADITIONAL, format, format_line, parse, parse_line

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
SIMPLIFIED_ONLY = set("马车帅将进后")


def _games() -> list[dict[str, Any]]:
    with open(RECORDS / "cbl_games.json", encoding="utf-8") as fh:
        games: list[dict[str, Any]] = json.load(fh)
    # Two records of the 1989 file hold no moves (and no position).
    return [g for g in games if g["moves_iccs"]]


def test_the_table_is_the_six_characters_that_differ() -> None:
    assert "马车帅将进后炮仕士相象兵卒退平前中".translate(TRADITIONAL) == "馬車帥將進後炮仕士相象兵卒退平前中"


def test_opening_in_both_scripts() -> None:
    b = Board()
    moves = parse_line(b, "炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4")
    assert format_line(b, moves, traditional=True) == [
        "炮二平五", "馬8進7", "馬二進三", "車9平8", "車一平二", "炮8進4"]
    assert format_line(b, moves) == [
        "炮二平五", "马8进7", "马二进三", "车9平8", "车一平二", "炮8进4"]
    assert format(b, Move.from_iccs("e0e1"), traditional=True) == "帥五進一"
    # WXF and coordinates carry no Chinese characters: the flag changes nothing.
    assert format(b, Move.from_iccs("h2e2"), "wxf", traditional=True) == "C2.5"
    assert format(b, Move.from_iccs("h2e2"), "iccs", traditional=True) == "h2e2"


def test_front_and_rear_and_the_black_general() -> None:
    b = Board("3k5/9/9/9/9/9/9/R8/R8/4K4 w - - 0 1")
    assert format(b, Move.from_iccs("a2a3"), traditional=True) == "前車進一"
    assert format(b, Move.from_iccs("a1b1"), traditional=True) == "後車平八"
    b = Board("4k4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert format(b, Move.from_iccs("e9f9"), traditional=True) == "將5平6"


@pytest.mark.parametrize("game", _games()[::10], ids=lambda g: f"{g['source']}#{g['index']}")
def test_real_games_round_trip_in_traditional(game: dict[str, Any]) -> None:
    board = Board(game["fen"])
    moves = [Move.from_iccs(u) for u in game["moves_iccs"]]
    texts = format_line(board, moves, traditional=True)
    assert len(texts) == len(moves)
    for text in texts:
        assert not SIMPLIFIED_ONLY & set(text), text
    # Each ply reads back, one by one and as a whole line.
    b = board.copy()
    for move, text in zip(moves, texts, strict=True):
        assert parse(b, text) == move, (text, move.iccs())
        b.push(move)
    assert parse_line(board, " ".join(texts)) == moves
    # Traditional and simplified differ by the table alone.
    assert format_line(board, moves) == [
        t.translate(str.maketrans("馬車帥將進後", "马车帅将进后")) for t in texts]


def test_every_ply_of_every_real_game_round_trips() -> None:
    plies = 0
    for game in _games():
        board = Board(game["fen"])
        for u in game["moves_iccs"]:
            move = Move.from_iccs(u)
            text = format(board, move, traditional=True)
            assert parse(board, text) == move, (game["source"], game["index"], text)
            board.push(move)
            plies += 1
    assert plies > 10000
