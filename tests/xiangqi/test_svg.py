"""Board pictures: well-formed SVG with the board's pieces where they stand."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.xiangqi import Board, Move, square
from qisai.xiangqi.svg import HEIGHT, WIDTH, Arrow, SvgError, board_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def pieces(root: ET.Element) -> dict[str, tuple[str, str, float, float]]:
    """square name -> (class, character, cx, cy)."""
    out = {}
    for g in root.iter(f"{NS}g"):
        if "piece" not in g.get("class", "").split():
            continue
        circle = g.find(f"{NS}circle")
        text = g.find(f"{NS}text")
        assert circle is not None and text is not None and text.text
        out[g.get("data-square", "")] = (g.get("class", ""), text.text,
                                         float(circle.get("cx", "0")), float(circle.get("cy", "0")))
    return out


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def test_start_position_picture() -> None:
    root = parse(board_svg())
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    p = pieces(root)
    assert len(p) == 32
    assert p["e0"][1] == "帅" and "red" in p["e0"][0]
    assert p["e9"][1] == "将" and "black" in p["e9"][0]
    assert p["b2"][1] == "炮" and p["a3"][1] == "兵" and p["a6"][1] == "卒"
    assert p["e0"][3] > p["e9"][3]  # Red at the bottom
    assert p["a0"][2] < p["i0"][2]  # file a on Red's left
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "楚 河" in texts and "汉 界" in texts
    assert len(by_class(root, "palace")) == 4
    assert len(by_class(root, "rank")) == 10
    assert len(by_class(root, "file")) == 2 + 7 * 2  # inner files stop at the river
    assert by_class(root, "lastmove") == [] and by_class(root, "check") == []


def test_chinese_file_numbers_on_each_side() -> None:
    root = parse(board_svg())
    coords = sorted((float(t.get("y", "0")), float(t.get("x", "0")), t.text or "")
                     for t in by_class(root, "coord"))
    top = [c[2] for c in coords[:9]]
    bottom = [c[2] for c in coords[9:]]
    assert "".join(top) == "123456789"  # Black counts from its right (file a)
    assert "".join(bottom) == "九八七六五四三二一"  # Red counts from its right (file i)
    flipped = parse(board_svg(flipped=True))
    coords = sorted((float(t.get("y", "0")), float(t.get("x", "0")), t.text or "")
                     for t in by_class(flipped, "coord"))
    assert "".join(c[2] for c in coords[:9]) == "一二三四五六七八九"
    assert "".join(c[2] for c in coords[9:]) == "987654321"


def test_flipped_puts_black_at_the_bottom() -> None:
    p = pieces(parse(board_svg(flipped=True)))
    assert p["e9"][3] > p["e0"][3]
    assert p["a0"][2] > p["i0"][2]


def test_last_move_check_and_arrows() -> None:
    b = Board()
    for m in ("h2e2", "h7e7", "e2e6"):
        b.push(Move.from_iccs(m))
    assert b.is_check()
    text = board_svg(b, arrows=[Move.from_iccs("h9g7"), Arrow(square(1, 0), square(2, 2), "red"),
                                (square(0, 0), square(0, 1))])
    root = parse(text)
    marks = by_class(root, "lastmove")
    assert len(marks) == 2
    p = pieces(root)
    to_mark = next(m for m in marks if "to" in m.get("class", "").split())
    assert float(to_mark.get("x", "0")) + 25 == p["e6"][2]  # the cannon that just moved
    ring = by_class(root, "check")
    assert len(ring) == 1 and float(ring[0].get("cy", "0")) == p["e9"][3]
    arrows = by_class(root, "arrow")
    assert len(arrows) == 3
    assert len(list(root.iter(f"{NS}marker"))) == 2  # one head per colour
    no_check = parse(board_svg(b, check=False, last_move=Move.from_iccs("h7e7")))
    assert by_class(no_check, "check") == []


def test_iccs_coordinates_and_size() -> None:
    root = parse(board_svg(coordinates="iccs", size=900))
    labels = {t.text for t in by_class(root, "coord")}
    assert set("abcdefghi0123456789") <= labels
    assert root.get("width") == "900" and root.get("height") == str(round(900 * HEIGHT / WIDTH))
    assert by_class(parse(board_svg(coordinates=None)), "coord") == []


def test_colour_text_is_escaped() -> None:
    text = board_svg(arrows=[Arrow(0, 9, '"/><script>')])
    parse(text)
    assert "<script>" not in text
    assert 'fill="&quot;/&gt;&lt;script&gt;"' in text  # escaped, not dropped


@pytest.mark.parametrize("kwargs", [
    {"arrows": [(0, 90)]}, {"arrows": [(-1, 3)]}, {"coordinates": "roman"}, {"size": 0},
    {"last_move": Move(0, 95)},
])
def test_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(SvgError):
        board_svg(**kwargs)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_random_positions_show_every_piece(rng: random.Random, flipped: bool) -> None:
    b = Board()
    for _ in range(rng.randrange(40)):
        moves = b.legal_moves()
        if not moves:
            break
        b.push(rng.choice(moves))
    p = pieces(parse(board_svg(b, flipped=flipped)))
    assert len(p) == sum(1 for _ in b.iter_squares())
    for sq, piece in b.iter_squares():
        name = f"{'abcdefghi'[sq % 9]}{sq // 9}"
        assert p[name][1] == piece.chinese()
