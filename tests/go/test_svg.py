"""SVG pictures: well-formed XML with the expected marks."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from qisai.go.board import Board
from qisai.go.rules import Color
from qisai.go.scoring import score
from qisai.go.svg import board_svg

from .test_scoring import FIXTURES, replay_fixture

NS = "{http://www.w3.org/2000/svg}"


def _classes(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.get("class", "") for el in root.iter()]


def test_empty_board_has_stars_and_coordinates() -> None:
    svg = board_svg(Board(19), title="空棋盘 <19>")
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    classes = _classes(svg)
    assert classes.count("star") == 9 and not any(c.startswith("stone") for c in classes)
    texts = [el.text for el in root.iter(f"{NS}text")]
    assert "A" in texts and "T" in texts and "I" not in texts and "19" in texts
    assert "空棋盘 &lt;19&gt;" in svg


def test_stones_last_move_dead_and_territory() -> None:
    game = next(g for g in FIXTURES if g["size"] == 9 and g["dead"])
    board = replay_fixture(game)
    board.undo()
    board.undo()  # back before the two passes, so a stone was played last
    count = score(board, game["dead"])
    classes = _classes(board_svg(board, score=count))
    stones = len(board.stones(Color.BLACK)) + len(board.stones(Color.WHITE))
    assert sum(c.startswith("stone") for c in classes) == stones
    assert classes.count("dead") == len(count.dead) > 0
    assert classes.count("territory") == len(count.black_territory) + len(count.white_territory)
    assert classes.count("last") == 1
    assert _classes(board_svg(board, coordinates=False, last_move=False)).count("last") == 0
