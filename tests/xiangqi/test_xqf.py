"""XQF reader: every XQF file of tests/data/xiangqi/records.

Truth comes from the files themselves: test.xqf (version 18, encrypted) and
test1.xqf (version 10, in clear) hold the same game, UnitTest.xqf names each
header field by its own text, titles state results and openings, and
test_5_variations.xqf has five lines.  Every move is replayed on a fresh
board.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qisai.xiangqi import Board, Move, RecordError, XiangqiError
from qisai.xiangqi.pgn import Game, GameNode
from qisai.xiangqi.xqf import XqfError, read_xqf

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
XQF_FILES = sorted(p for p in RECORDS.iterdir() if p.suffix.lower() == ".xqf")
# Files with an illegal move in a variation: strict reading raises.
BAD = {"BadMoveTest3.xqf", "WildHouse.xqf"}


def load(name: str, **kw: bool) -> Game:
    return read_xqf((RECORDS / name).read_bytes(), **kw)


def replay_all(game: Game) -> int:
    """Replay every line of the tree on one board (depth first, push and pop);
    ``Board.push`` raises if a move is illegal.  Returns the node count."""
    board = Board(game.fen)
    n = 0
    stack: list[tuple[GameNode, bool]] = [(v, True) for v in reversed(game.variations)]
    while stack:
        node, entering = stack.pop()
        if not entering:
            board.pop()
            continue
        assert node.move is not None
        board.push(node.move)
        n += 1
        stack.append((node, False))
        stack.extend((v, True) for v in reversed(node.variations))
    assert board.fen() == Board(game.fen).fen()
    return n


def test_the_files_are_there() -> None:
    assert len(XQF_FILES) >= 20


@pytest.mark.parametrize("path", XQF_FILES, ids=lambda p: p.name)
def test_every_file_reads_or_fails_clearly(path: Path) -> None:
    data = path.read_bytes()
    if path.name in BAD:
        with pytest.raises(XqfError, match=r"byte \d+ \(ply \d+\): illegal move"):
            read_xqf(data)
        game = read_xqf(data, strict=False)
        assert game.errors and "variation dropped" in game.errors[0]
    else:
        game = read_xqf(data)
        assert game.errors == []
    assert replay_all(game) == game.count_nodes()
    assert game.result in ("1-0", "0-1", "1/2-1/2", "*")


def test_encrypted_v18_and_plain_v10_files_of_one_game_agree() -> None:
    enc, plain = load("test.xqf"), load("test1.xqf")
    assert (RECORDS / "test.xqf").read_bytes()[2] == 18
    assert (RECORDS / "test1.xqf").read_bytes()[2] == 10
    assert enc.mainline_moves() == plain.mainline_moves()
    assert len(enc.mainline_moves()) == 110
    for a, b in zip(enc.walk(), plain.walk(), strict=True):
        assert a.move == b.move
        assert b.comment.startswith(a.comment)  # test1.xqf adds a web address at the end
    assert enc.comment == plain.comment and enc.comment.startswith("1997年11月16日上午")
    for tag in ("Date", "Site", "Red", "Black", "Result"):
        assert enc.headers[tag] == plain.headers[tag]
    assert enc.headers["Red"] == "柳大华" and enc.result == "0-1"
    # 仙人指路对起马局: 兵七进一, then 马8进7.
    assert [m.iccs() for m in enc.mainline_moves()[:2]] == ["c3c4", "h9g7"]
    assert enc.headers["Title"] == "仙人指路对起马局"


def test_header_fields_by_their_own_names() -> None:
    g = load("UnitTest.xqf")
    assert g.headers == {
        "Title": "标题", "Event": "比赛名称", "Date": "比赛日期", "Site": "比赛地点",
        "Red": "红方棋手", "Black": "黑方棋手", "TimeControl": "用时规则",
        "RedTime": "红方用时", "BlackTime": "黑方用时", "Annotator": "棋谱讲评",
        "Creator": "文件作者", "Result": "1/2-1/2",
    }
    assert g.comment == "棋局注解"
    assert len(g.variations) == 3  # three first moves: 炮二平五, 炮八平五, 炮二平六
    assert [v.move.iccs() for v in g.variations if v.move] == ["h2e2", "b2e2", "h2d2"]


def test_title_gives_result_and_first_move() -> None:
    g = load("030-黄松轩先胜冯敬如.XQF")
    assert g.headers["Red"] == "黄松轩" and g.headers["Black"] == "冯敬如"
    assert g.result == "1-0"  # 先胜
    assert g.mainline_moves()[0] == Move.from_iccs("h2e2")
    e = load("EmptyTest.xqf")
    assert "-负-" in e.headers["Title"] and e.result == "0-1"


def test_five_variations() -> None:
    g = load("test_5_variations.xqf")
    leaves = [n for n in g.walk() if not n.variations]
    assert len(leaves) == 5
    assert " ".join(m.iccs() for m in leaves[0].moves()) == "h2e2 h7e7 h0g2 h9g7 g3g4 i9h9"
    assert leaves[-1].moves()[0] == Move.from_iccs("h2d2")


def test_setup_positions_and_side_to_move() -> None:
    g = load("ucci_test3.xqf")
    assert g.headers["FEN"] == "3k3r1/4a4/3a5/6N2/9/9/9/4C4/4p2c1/2BR1K3 w - - 0 1"
    assert [m.iccs() for m in g.mainline_moves()] == ["g6f8", "h9f9", "d0d7"]
    board = g.end().board()
    assert board.is_checkmate()  # 马捉车胜 ends in mate
    pawns = load("pawn_move.xqf")
    assert pawns.headers["FEN"].startswith("4k4/9/4P4/3PP1p2/")


def test_empty_and_no_move_files_give_empty_games() -> None:
    for name in ("EmptyTest.xqf", "NoMove.xqf"):
        g = load(name)
        assert g.variations == [] and g.mainline_moves() == []
        assert g.board().fen() == Board(g.fen).fen()


def test_lenient_reading_keeps_the_rest_of_the_tree() -> None:
    g = load("WildHouse.xqf", strict=False)
    assert g.headers["Title"] == "野马操田"
    assert len(g.mainline_moves()) == 65 and g.count_nodes() > 1000
    assert len(g.errors) == 1 and "byte 4510" in g.errors[0]
    b3 = load("BadMoveTest3.xqf", strict=False)
    b4 = load("BadMoveTest4.xqf")
    assert b3.mainline_moves() == b4.mainline_moves()


def test_malformed_headers() -> None:
    with pytest.raises(XqfError, match="too short"):
        read_xqf(b"XQ")
    with pytest.raises(XqfError, match="signature"):
        read_xqf(b"QX" + bytes(1100))
    data = bytearray((RECORDS / "test1.xqf").read_bytes())
    data[16 + 1] = data[16]  # two pieces on one square
    with pytest.raises(XqfError, match="two pieces"):
        read_xqf(bytes(data))
    with pytest.raises(XqfError, match="truncated"):
        read_xqf((RECORDS / "test1.xqf").read_bytes()[:1026])
    with pytest.raises(XqfError, match="exceeds the file"):
        read_xqf((RECORDS / "test1.xqf").read_bytes()[:1100])
    with pytest.raises(XqfError, match="truncated"):
        read_xqf((RECORDS / "test2.xqf").read_bytes()[:-3])
    with pytest.raises(XqfError, match="must be bytes"):
        read_xqf("XQ")  # type: ignore[arg-type]


def check_only_record_errors(data: bytes) -> None:
    try:
        game = read_xqf(data, strict=False)
    except XiangqiError as exc:
        assert isinstance(exc, RecordError)
        assert str(exc)
        return
    assert replay_all(game) == game.count_nodes()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=1200), st.sampled_from([b"", b"XQ\x0a", b"XQ\x12"]))
def test_random_bytes_raise_only_record_errors(data: bytes, prefix: bytes) -> None:
    check_only_record_errors(prefix + data)


SMALL = [(RECORDS / n).read_bytes() for n in ("test2.xqf", "game_varations.xqf", "BadMoveTest1.xqf")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SMALL), st.lists(st.tuples(st.integers(0, 4000), st.integers(0, 255)),
                                        min_size=1, max_size=8), st.integers(0, 4000))
def test_corrupted_real_files_raise_only_record_errors(
        data: bytes, flips: list[tuple[int, int]], cut: int) -> None:
    buf = bytearray(data)
    for pos, value in flips:
        buf[pos % len(buf)] = value
    check_only_record_errors(bytes(buf[: max(cut, 1024)]))
