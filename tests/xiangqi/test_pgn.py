"""Xiangqi PGN: the Game tree, reading (GBK and UTF-8, streaming) and writing.

Truth: the .pgn files of tests/data/xiangqi/records (their own
headers and move text), and the 131 games of cbl_games.json for round trips.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qisai.xiangqi import STARTING_FEN, Board, Move, RecordError, XiangqiError
from qisai.xiangqi.pgn import (
    Game,
    GameNode,
    PgnError,
    dumps,
    iter_games,
    parse_pgn,
    read_game,
    read_games,
    write,
)
from qisai.xiangqi.xqf import read_xqf

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"
PGN_FILES = sorted(RECORDS.glob("*.pgn"))
TRUTH = json.loads((RECORDS / "cbl_games.json").read_text(encoding="utf-8"))


def iccs(game: Game) -> list[str]:
    return [m.iccs() for m in game.mainline_moves()]


def shape(game: Game) -> list[tuple[int, Move | None, str, int]]:
    return [(n.ply(), n.move, n.comment, len(n.variations)) for n in game.walk()]


def truth_game(entry: dict[str, object]) -> Game:
    game = Game({"Event": str(entry["source"]), "Result": "*"})
    if entry["fen"] != STARTING_FEN:
        game.headers["FEN"] = str(entry["fen"])
    node: GameNode = game
    moves = entry["moves_iccs"]
    assert isinstance(moves, list)
    for text in moves:
        node = node.add_variation(Move.from_iccs(text))
    return game


# ------------------------------------------------------------------ reading

def test_every_pgn_file_reads_and_replays() -> None:
    assert len(PGN_FILES) >= 4
    for path in PGN_FILES:
        games = list(read_games(path))
        assert len(games) == 1, path.name
        board = Board(games[0].fen)
        for move in games[0].mainline_moves():
            board.push(move)


def test_known_moves_and_headers_gbk_fullwidth() -> None:
    (g,) = read_games(RECORDS / "test.pgn")
    assert g.headers["Red"] == "象棋巫师(大师)" and g.headers["Black"] == "象棋爱好者"
    assert g.headers["Opening"] == "中炮对单提马" and g.headers["ECCO"] == "B10"
    # 1. 炮二平五 马２进３  2. 马二进三 马８进９ ... 13. 炮五进三 *
    assert iccs(g)[:4] == ["h2e2", "b9c7", "h0g2", "h9i7"]
    assert len(g.mainline_moves()) == 25 and g.result == "*"


def test_front_and_rear_cannons_and_result() -> None:
    (g,) = read_games(RECORDS / "test2.pgn")
    assert g.result == "1/2-1/2" and g.headers["Site"] == "华山"
    assert len(g.mainline_moves()) == 102  # 51 full moves
    board = g.end().board()
    # 51... 后炮进1 leaves two black cannons on one file.
    cannons = [sq for sq in range(90) if (p := board.piece_at(sq)) and p.symbol() == "c"]
    assert len(cannons) == 2 and cannons[0] % 9 == cannons[1] % 9


def test_fen_setup_without_counters() -> None:
    (g,) = read_games(RECORDS / "endgame_test.pgn")
    assert g.headers["FEN"] == "3aka3/2c1n4/4bP3/9/4N4/9/9/9/9/4K4 w"
    assert len(g.mainline_moves()) == 25
    assert iccs(g)[0] == "e5d7"  # 马五进六


def test_utf8_and_gbk_bytes_and_text_read_alike() -> None:
    raw = (RECORDS / "test.pgn").read_bytes()
    text = raw.decode("gbk")
    a = parse_pgn(raw)[0]
    b = parse_pgn(text.encode("utf-8"))[0]
    c = parse_pgn(text)[0]
    d = parse_pgn(b"\xef\xbb\xbf" + text.encode("utf-8"))[0]
    assert iccs(a) == iccs(b) == iccs(c) == iccs(d)
    assert a.headers == b.headers == c.headers == d.headers


def test_streaming_reads_one_game_at_a_time() -> None:
    blob = b"\n".join(p.read_bytes() for p in PGN_FILES)

    class Counting(io.BytesIO):
        lines = 0

        def readline(self, size: int | None = -1) -> bytes:
            Counting.lines += 1
            return super().readline(size)

    stream = Counting(blob)
    first = read_game(stream)
    assert first is not None
    assert Counting.lines < blob.count(b"\n") // 2  # stopped near the first game
    rest = list(iter_games(stream))
    assert [len(g.mainline_moves()) for g in [first, *rest]] == \
        [len(next(read_games(p)).mainline_moves()) for p in PGN_FILES]
    assert read_game(stream) is None


def test_comments_variations_and_nags() -> None:
    text = """[Event "t"]
{before} 1. 炮二平五 {central cannon ; not a comment end}
(1. 相三进五 $1 {elephant} 1... 卒7进1 (1... 炮8平5) 2. 兵三进一)
1... 马8进7 ; rest of line
2. 马二进三 1-0
"""
    (g,) = parse_pgn(text)
    assert g.comment == "before"
    assert iccs(g) == ["h2e2", "h9g7", "h0g2"]
    assert g.variations[0].comment == "central cannon ; not a comment end"
    alt = g.variations[1]
    assert alt.move == Move.from_iccs("g0e2") and alt.comment == "elephant"
    assert [v.move.iccs() for v in alt.variations if v.move] == ["g6g5", "h7e7"]
    assert g.variations[0].variations[0].comment == "rest of line"
    assert g.result == "1-0"


def test_iccs_and_wxf_formats() -> None:
    iccs_text = '[Format "ICCS"]\n1. H2-E2 H9-G7 2. H0-G2 *\n'
    wxf_text = '[Format "WXF"]\n1. C2.5 H8+7 2. H2+3 *\n'
    assert iccs(parse_pgn(iccs_text)[0]) == iccs(parse_pgn(wxf_text)[0]) == \
        ["h2e2", "h9g7", "h0g2"]


def test_ideographic_spaces_fullwidth_numbers_and_results_in_variations() -> None:
    (g,) = parse_pgn("１．炮二平五\u3000马８进７ (1... 车9进1 *) ２．马二进三 １－０\n")
    assert iccs(g) == ["h2e2", "h9g7", "h0g2"]
    assert g.result == "1-0"
    assert [v.move.iccs() for v in g.variations[0].variations if v.move] == ["h9g7", "i9i8"]


def test_trailer_after_the_result_is_skipped() -> None:
    games = parse_pgn('[Red "a"]\n1. 炮二平五 *\n======\n欢迎\n\n[Red "b"]\n1. 兵七进一 0-1\n')
    assert [g.headers["Red"] for g in games] == ["a", "b"]
    assert iccs(games[1]) == ["c3c4"] and games[1].result == "0-1"


@pytest.mark.parametrize(("text", "pattern"), [
    ('[Event "x"]\n1. 炮二平五 马8进7\n2. 车一进十 *\n', r"line 3, ply 3: cannot read move '车一进十'"),
    ('[Event "x"]\n1. 炮二平五 车1进5 *\n', r"line 2, ply 2"),
    ('1. 炮二平五 {never closed\n', r"line 1: comment"),
    ('1. 炮二平五 (1. 炮八平五\n', r"not closed"),
    ('1. 炮二平五 ) *\n', r"line 1: '\)' closes no variation"),
    ('( 1. 炮二平五 ) *\n', r"variation must follow a move"),
    ('[Event "x\n1. h2e2 *\n', r"line 1: malformed tag"),
    ('[FEN "9/9/9 w"]\n*\n', r"\[FEN\] tag"),
    ('1. 炮二平五 xyz *\n', r"line 1, ply 2: cannot read move 'xyz'"),
])
def test_malformed_pgn_says_what_and_where(text: str, pattern: str) -> None:
    with pytest.raises(PgnError, match=pattern):
        parse_pgn(text)


# ------------------------------------------------------------------ writing

def test_round_trip_131_real_games_in_chinese() -> None:
    games = [truth_game(e) for e in TRUTH if e["moves_iccs"]]
    assert len(games) == 129
    out = io.StringIO()
    write(games, out)
    back = list(iter_games(io.StringIO(out.getvalue())))
    assert [iccs(g) for g in back] == [iccs(g) for g in games]
    assert [g.headers for g in back] == [g.headers for g in games]


@pytest.mark.parametrize("notation", ["wxf", "iccs", "chinese"])
def test_round_trip_every_tenth_game_each_notation(notation: str) -> None:
    entries = [e for e in TRUTH[::10] if e["moves_iccs"]]
    assert len(entries) >= 10  # 131 games, every tenth: a real sample
    for entry in entries:
        game = truth_game(entry)
        back = parse_pgn(dumps(game, notation))[0]
        assert iccs(back) == entry["moves_iccs"]


@pytest.mark.parametrize("notation", ["chinese", "wxf", "iccs"])
def test_round_trip_the_pgn_files(notation: str) -> None:
    assert len(PGN_FILES) == 4  # the PGN files of records/ (see its README)
    for path in PGN_FILES:
        (game,) = read_games(path)
        back = parse_pgn(dumps(game, notation))[0]
        assert iccs(back) == iccs(game), path.name
        assert {k: v for k, v in back.headers.items() if k != "Format"} == game.headers


def test_round_trip_trees_with_comments() -> None:
    for name in ("WildHouse.xqf", "game_varations.xqf", "test.xqf", "ucci_test2.xqf"):
        game = read_xqf((RECORDS / name).read_bytes(), strict=False)
        for notation in ("chinese", "wxf"):
            back = parse_pgn(dumps(game, notation))[0]
            assert shape(back) == shape(game), (name, notation)
            assert back.comment == game.comment


def test_gbk_bytes_with_fullwidth_digits_round_trip() -> None:
    (g,) = read_games(RECORDS / "test.pgn")
    buf = io.BytesIO()
    write(g, buf, encoding="gbk")
    data = buf.getvalue()
    assert "马２进３".encode("gbk") in data
    utf = io.BytesIO()
    write(g, utf)
    assert "马2进3".encode() in utf.getvalue()
    assert iccs(parse_pgn(data)[0]) == iccs(parse_pgn(utf.getvalue())[0]) == iccs(g)


def test_written_text_shape() -> None:
    game = Game({"Red": 'a "quoted" \\ name'})
    node = game.add_variation(Move.from_iccs("h2e2"), "c}c")
    node.add_variation(Move.from_iccs("h9g7"))
    text = dumps(game)
    assert text.startswith('[Red "a \\"quoted\\" \\\\ name"]\n[Result "*"]\n\n')
    assert "1. 炮二平五 {c｝c} 1... 马8进7 *" in text
    assert parse_pgn(text)[0].headers["Red"] == 'a "quoted" \\ name'
    bad = Game()
    bad.add_variation(Move.from_iccs("a0a5"))
    with pytest.raises(PgnError, match="ply 1"):
        dumps(bad)


def test_game_from_board_history() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")
    board.push(Move.from_iccs("a1a8"))
    board.push(Move.from_iccs("e9f9"))
    game = Game.from_board(board, {"Red": "r"})
    assert game.headers == {"Red": "r", "FEN": "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"}
    assert game.end().board().fen() == board.fen()
    back = parse_pgn(dumps(game))[0]
    assert back.mainline_moves() == board.move_stack
    assert Game.from_board(Board()).headers == {}


def test_deeply_nested_alternatives_fail_cleanly() -> None:
    game = Game()
    node: GameNode = game
    board = Board()
    depth = 0
    while depth < 1500:  # at every ply a one-move main line and an alternative that goes on
        moves = board.legal_moves()
        if len(moves) < 2:
            break
        node.add_variation(moves[0])
        node = node.add_variation(moves[1])
        board.push(moves[1])
        depth += 1
    assert depth > 1100
    with pytest.raises(PgnError, match="nested too deeply"):
        dumps(game)


def test_tree_helpers() -> None:
    (g,) = parse_pgn("1. 炮二平五 (1. 兵七进一) 1... 马8进7 *")
    end = g.end()
    assert end.ply() == 2 and end.is_mainline() and end.game() is g
    assert not g.variations[1].is_mainline()
    assert end.board().fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert g.count_nodes() == 3 and g.next() is g.variations[0]
    g.add_main_variation(Move.from_iccs("b2e2"))
    assert iccs(g) == ["b2e2"]


# ------------------------------------------------------------------ fuzzing

def only_record_errors(text: str | bytes) -> None:
    try:
        for game in parse_pgn(text):
            board = Board(game.fen)
            for move in game.mainline_moves():
                board.push(move)
    except XiangqiError as exc:
        assert isinstance(exc, RecordError) and str(exc)


PGN_ALPHABET = st.sampled_from(list('[]{}();$."\\ \n\t*-/0123456789abcdefghiCHREAKP+=.') +
                               list("炮马车兵卒相象仕士帅将进退平前后中一二三四五六七八九１２８"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(PGN_ALPHABET, max_size=200))
def test_random_pgn_like_text_raises_only_record_errors(text: str) -> None:
    only_record_errors(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_raise_only_record_errors(data: bytes) -> None:
    only_record_errors(data)


BASE = (RECORDS / "test.pgn").read_bytes().decode("gbk")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(BASE) - 1), PGN_ALPHABET), min_size=1, max_size=5))
def test_mutated_real_pgn_raises_only_record_errors(edits: list[tuple[int, str]]) -> None:
    text = list(BASE)
    for pos, ch in edits:
        text[pos] = ch
    only_record_errors("".join(text))
