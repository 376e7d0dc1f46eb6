"""CCBridge readers (CBL libraries, CBR and CBF games).

Truth: tests/data/xiangqi/records/cbl_games.json, the 131 games of
the two CBL files as data (headers, start FEN, ICCS moves, result), written
by another program and checked legal with Fairy-Stockfish.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qisai.xiangqi import STARTING_FEN, Board, RecordError, XiangqiError
from qisai.xiangqi.cbl import CblError, iter_cbl, read_cbf, read_cbl, read_cbr
from qisai.xiangqi.pgn import Game, GameNode

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
TRUTH = json.loads((RECORDS / "cbl_games.json").read_text(encoding="utf-8"))
CBL_FILES = sorted({g["source"] for g in TRUTH})
FIELDS = {"title": "Title", "event": "Event", "red": "Red", "black": "Black", "result": "Result"}


def replay_all(game: Game) -> int:
    """Replay the whole tree on one board with checked pushes; return the node count."""
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
    return n


@pytest.fixture(scope="module")
def libraries() -> dict[str, list[Game]]:
    return {name: read_cbl((RECORDS / name).read_bytes()) for name in CBL_FILES}


def test_all_131_games_match_the_json(libraries: dict[str, list[Game]]) -> None:
    assert len(TRUTH) == 131
    total_plies = 0
    for name in CBL_FILES:
        expected = [g for g in TRUTH if g["source"] == name]
        games = libraries[name]
        assert len(games) == len(expected), name
        for game, exp in zip(games, expected, strict=True):
            where = f"{name} #{exp['index']}"
            assert [m.iccs() for m in game.mainline_moves()] == exp["moves_iccs"], where
            assert game.fen == exp["fen"], where
            for key, tag in FIELDS.items():
                if key in exp["info"]:
                    assert game.headers.get(tag, "") == exp["info"][key].strip(), (where, key)
            assert game.errors == []
            total_plies += len(exp["moves_iccs"])
    assert total_plies == sum(g["plies"] for g in TRUTH)


def test_library_title_and_counts(libraries: dict[str, list[Game]]) -> None:
    a, b = (libraries[n] for n in CBL_FILES)
    assert len(a) == 93 and len(b) == 38
    assert a[0].headers["Library"] == "1956年全国象棋锦标赛93局"
    assert a[0].headers["Date"] == "1956年12月17日" and a[0].headers["Site"] == "北京市"


def test_variations_replay_legally(libraries: dict[str, list[Game]]) -> None:
    with_variations = 0
    for games in libraries.values():
        for game in games:
            if game.fen.startswith("9/9/9"):
                continue
            assert replay_all(game) == game.count_nodes()
            with_variations += game.count_nodes() > len(game.mainline_moves())
    assert with_variations >= 5


def test_empty_board_records_keep_their_title_and_comment(libraries: dict[str, list[Game]]) -> None:
    heads = [g for g in libraries[CBL_FILES[1]] if g.fen.startswith("9/9/9")]
    assert len(heads) == 2
    assert heads[0].headers["Title"] == "龙化杯象棋名师邀请赛对局（男子组20局）"
    assert "龙化杯" in heads[0].comment and heads[0].variations == []
    with pytest.raises(RecordError, match="set-up"):
        heads[0].board()


def test_cbr_files() -> None:
    g = read_cbr((RECORDS / "test.cbr").read_bytes())
    assert g.headers["Title"] == "黄丹青讲座004-破解新式弃马局的攻防要领"
    assert g.fen == STARTING_FEN
    assert [m.iccs() for m in g.mainline_moves()[:4]] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert replay_all(g) == g.count_nodes() == 102
    assert sum(1 for n in g.walk() if n.comment) >= 5
    t2 = read_cbr((RECORDS / "test2.cbr").read_bytes())
    assert t2.comment == "李1"
    assert [(n.move.iccs() if n.move else "", n.comment) for n in t2.walk()] == [
        ("h2e2", "李2"), ("h7e7", "李3")]


def test_cbf_files() -> None:
    g = read_cbf((RECORDS / "test.cbf").read_bytes())
    assert g.headers["Title"] == "第一局 屏风马巡河炮抵当头炮局(和)"
    assert g.headers["ECCO"] == "C03"
    assert g.comment == "中炮横车盘头马对屏风马双炮巡河"
    # 77-47 is 炮二平五, 70-62 马8进7.
    assert [m.iccs() for m in g.mainline_moves()[:2]] == ["h2e2", "h9g7"]
    assert replay_all(g) == 50
    g2 = read_cbf((RECORDS / "test2.cbf").read_text(encoding="utf-8-sig"))
    assert g2.result == "1/2-1/2" and len(g2.mainline_moves()) == 75


def test_malformed_records() -> None:
    with pytest.raises(CblError, match="not a CBR"):
        read_cbr(b"hello")
    with pytest.raises(CblError, match="truncated"):
        read_cbr((RECORDS / "test.cbr").read_bytes()[:2300])
    with pytest.raises(CblError, match="not a CBL"):
        read_cbl(b"CCBridge Record\x00")
    data = bytearray((RECORDS / "test2.cbr").read_bytes())
    data[2120] = 0x99
    with pytest.raises(CblError, match="unknown piece code"):
        read_cbr(bytes(data))
    with pytest.raises(CblError, match="malformed XML"):
        read_cbf("<ChineseChessRecord><Head>")
    bad = (RECORDS / "test.cbf").read_text(encoding="utf-8-sig").replace('"70-62"', '"70-60"', 1)
    with pytest.raises(CblError, match=r"CBF move 2 .*illegal move h9h9|CBF move 2"):
        read_cbf(bad)
    lenient = read_cbf(bad, strict=False)
    assert len(lenient.mainline_moves()) == 1 and lenient.errors


def only_record_errors(call: object, data: bytes) -> None:
    assert callable(call)
    try:
        result = call(data)
        games = result if isinstance(result, list) else [result]
        for g in games:
            if not g.fen.startswith("9/9/9"):
                replay_all(g)
    except XiangqiError as exc:
        assert isinstance(exc, RecordError) and str(exc)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=3000), st.sampled_from([b"", b"CCBridge Record\x00"]))
def test_random_bytes_raise_only_record_errors(data: bytes, prefix: bytes) -> None:
    only_record_errors(read_cbr, prefix + data)
    only_record_errors(read_cbl, b"CCBridgeLibrary\x00" + data)
    only_record_errors(read_cbf, prefix + data)


CBR = (RECORDS / "test.cbr").read_bytes()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(2100, len(CBR) - 1), st.integers(0, 255)), min_size=1,
                max_size=6), st.integers(2200, len(CBR)))
def test_corrupted_cbr_raises_only_record_errors(flips: list[tuple[int, int]], cut: int) -> None:
    buf = bytearray(CBR)
    for pos, value in flips:
        buf[pos] = value
    only_record_errors(read_cbr, bytes(buf[:cut]))


def test_iter_cbl_streams() -> None:
    it = iter_cbl((RECORDS / CBL_FILES[0]).read_bytes())
    first = next(it)
    assert first.headers["Red"] == TRUTH[0]["info"]["red"]
