"""Move notation (clause 7.5): ICCS, engine, Chinese full/short/symbol, WXF.

Independent truth: the 131 real games of tests/data/xiangqi/records/
cbl_games.json (moves in ICCS, checked legal with Fairy-Stockfish) and the
Chinese move text that other programs wrote into the PGN files there.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from qisai.cli.notation import register
from qisai.xiangqi import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    XiangqiError,
)
from qisai.xiangqi.notation import (
    NOTATIONS,
    NotationError,
    format,
    format_line,
    parse,
    parse_line,
)

RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"


def _games() -> list[dict[str, object]]:
    with open(RECORDS / "cbl_games.json", encoding="utf-8") as fh:
        games: list[dict[str, object]] = json.load(fh)
    return games


def _roundtrip_all(board: Board) -> None:
    """Every legal move of ``board`` reads back from every notation, and no two
    moves share a text."""
    moves = board.legal_moves()
    for notation in NOTATIONS:
        texts = [format(board, m, notation) for m in moves]
        assert len(set(texts)) == len(texts), (notation, texts)
        for m, text in zip(moves, texts, strict=True):
            assert parse(board, text, notation) == m, (notation, text, m.iccs())
            if notation in ("chinese", "wxf", "iccs"):
                assert parse(board, text) == m, (text, m.iccs())


# ---------------------------------------------------------------- clause 7.5

FULL_75 = "炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4"
ICCS_75 = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]


def test_clause_7_5_full_form_reads_and_writes() -> None:
    b = Board()
    moves = parse_line(b, FULL_75)
    assert [m.iccs() for m in moves] == ICCS_75
    assert format_line(b, moves, "chinese") == FULL_75.split()
    assert format_line(b, moves, "wxf") == ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "C8+4"]


def test_clause_7_5_table_from_the_rule_text() -> None:
    """The table of 7.5 as printed in the rule book (seed 001,
    docs/rules/001-xiangqi-rules-2007.txt): each line holds a round in the
    full form and the same round in the short form."""
    seeds = Path(__file__).resolve().parents[2] / "docs" / "rules" / "001-xiangqi-rules-2007.txt"
    text = seeds.read_text(encoding="utf-8")
    start = text.index("7.5 记录方式")
    rounds = [line.split() for line in text[start:].splitlines()[3:6]]
    assert [r[0] for r in rounds] == ["1", "2", "3"]
    full = " ".join(" ".join(r[:3]) for r in rounds)
    short = " ".join(" ".join(r[3:]) for r in rounds)
    b = Board()
    moves = parse_line(b, full)
    assert [m.iccs() for m in moves] == ICCS_75
    assert format_line(b, moves, "chinese") == [t for r in rounds for t in r[1:3]]
    # The short form, read against the position: 车12 alone fits two moves.
    shorts = [t for r in rounds for t in r[4:6]]
    assert short.split() == ["1", *shorts[:2], "2", *shorts[2:4], "3", *shorts[4:]]
    ambiguous = []
    for text_short, iccs in zip(shorts, ICCS_75, strict=True):
        try:
            assert parse(b, text_short).iccs() == iccs
        except AmbiguousMoveError as e:
            assert iccs in e.candidates
            ambiguous.append(text_short)
        b.push(Move.from_iccs(iccs))
    assert ambiguous == ["车12"]


def test_clause_7_5_short_form() -> None:
    # 7.5's short form drops 进/退/平: it is read against the position, and
    # one of the six moves of the rule book's own example fits two legal moves.
    b = Board()
    shorts = ["炮25", "马87", "马23", "车98", "车12", "炮84"]
    for short, iccs in zip(shorts, ICCS_75, strict=True):
        if short == "车12":
            with pytest.raises(AmbiguousMoveError) as e1:
                parse(b, short)
            assert sorted(e1.value.candidates) == ["i0h0", "i0i2"]
        else:
            assert parse(b, short).iccs() == iccs
            assert parse(b, "CHHRRC"[shorts.index(short)] + short[1:]).iccs() == iccs
        b.push(Move.from_iccs(iccs))


@pytest.mark.parametrize("text", [
    "炮二平五", "炮2.5", "炮2=5", "炮25", "C2.5", "C2=5", "c2.5", "C25", "h2e2", "H2-E2", "h3e3",
    "砲二平五", "包二平五", "炮２平５", "炮 二 平 五", "Ｃ２．５", "炮二＝五",
])
def test_cannon_to_centre_in_every_form(text: str) -> None:
    assert parse(Board(), text).iccs() == "h2e2"


@pytest.mark.parametrize("text", [
    "马8进7", "马８进７", "马八进七", "馬8進7", "马8+7", "H8+7", "N8+7", "h8+7", "马87", "h9g7",
])
def test_black_horse_in_every_form(text: str) -> None:
    b = Board()
    b.push(Move.from_iccs("h2e2"))
    assert parse(b, text).iccs() == "h9g7"


def test_traditional_and_variant_characters() -> None:
    b = Board()
    line = ("傌二進三 馬８進７ 俥一平二 車９平８ 兵七進一 卒７進１ 相三進五 象３進５ 仕四進五 士４進５ "
            "帥五平四 將５平４ 砲八平七 包２平３")
    moves = parse_line(b, line)
    assert format_line(b, moves, "chinese") == [
        "马二进三", "马8进7", "车一平二", "车9平8", "兵七进一", "卒7进1", "相三进五", "象3进5",
        "仕四进五", "士4进5", "帅五平四", "将5平4", "炮八平七", "炮2平3"]


def test_written_forms_are_canonical() -> None:
    b = Board()
    assert [format(b, Move.from_iccs(u)) for u in ("h2e2", "b0c2", "g0e2", "f0e1", "e0e1",
                                                   "c3c4", "i0i1", "b2b9")] == [
        "炮二平五", "马八进七", "相三进五", "仕四进五", "帅五进一", "兵七进一", "车一进一", "炮八进七"]
    assert format(b, Move.from_iccs("h2e2"), "iccs") == "h2e2"
    assert format(b, Move.from_iccs("h2e2"), "engine") == "h3e3"
    b.push(Move.from_iccs("h2e2"))
    assert [format(b, Move.from_iccs(u)) for u in ("h7e7", "b9c7", "e9e8", "c6c5")] == [
        "炮8平5", "马2进3", "将5进1", "卒3进1"]
    assert format(b, Move.from_iccs("b9c7"), "wxf") == "H2+3"


# ---------------------------------------------------------- tandem pieces

def test_two_chariots_on_a_file() -> None:
    b = Board("3k5/9/9/9/9/4R4/9/4R4/9/5K3 w")
    assert format(b, Move.from_iccs("e4e5")) == "前车进一"
    assert format(b, Move.from_iccs("e2e1")) == "后车退一"
    assert format(b, Move.from_iccs("e4g4"), "wxf") == "R+.3"
    assert format(b, Move.from_iccs("e2e1"), "wxf") == "R--1"
    for text in ("前车进一", "車前進一", "前車進1", "R++1", "+R+1", "Rf+1", "Ra+1", "fR+1", "一车进一"):
        assert parse(b, text).iccs() == "e4e5", text
    for text in ("后车退一", "車後退一", "R--1", "-R-1", "Rb-1", "bR-1", "二车退一"):
        assert parse(b, text).iccs() == "e2e1", text
    # The plain file form is read too, when only one chariot on it can do it.
    assert parse(b, "车五退二").iccs() == "e2e0"
    with pytest.raises(AmbiguousMoveError) as e:
        parse(b, "车五平四")
    assert sorted(e.value.candidates) == ["e2f2", "e4f4"]
    _roundtrip_all(b)


def test_two_black_horses_on_a_file() -> None:
    b = Board("4k4/9/9/2n6/9/2n6/9/9/9/5K3 b")
    # Black counts from its own right: file c is Black's 3; front is down the board.
    assert format(b, Move.from_iccs("c4b2")) == "前马进2"
    assert format(b, Move.from_iccs("c6d8")) == "后马退4"
    assert format(b, Move.from_iccs("c4b2"), "wxf") == "H++2"
    assert format(b, Move.from_iccs("c6d8"), "wxf") == "H--4"
    _roundtrip_all(b)


def test_advisors_and_elephants_keep_their_file() -> None:
    b = Board("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w")
    b2 = Board("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w")
    assert format(b, Move.from_iccs("c0e2")) == "相七进五"
    assert format(b, Move.from_iccs("c4e2")) == "相七退五"
    assert format(b2, Move.from_iccs("d0e1")) == "仕六进五"
    assert format(b2, Move.from_iccs("d2e1")) == "仕六退五"
    assert parse(b2, "前仕退五").iccs() == "d2e1"
    _roundtrip_all(b)
    _roundtrip_all(b2)


THREE_PAWNS = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w"
FOUR_PAWNS = "4k4/P8/P8/P8/P8/9/9/9/9/5K3 w"
FIVE_PAWNS = "P3k4/P8/P8/P8/P8/9/9/9/9/5K3 w"
TWO_FILES = "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/5K3 w"


def test_three_pawns_on_a_file() -> None:
    b = Board(THREE_PAWNS)
    cases = {"e7f7": ("前兵平四", "P+.4"), "e6d6": ("中兵平六", "P5.6"),
             "e5f5": ("后兵平四", "P-.4"), "e7e8": ("前兵进一", "P++1")}
    for iccs, (cn, wxf) in cases.items():
        m = Move.from_iccs(iccs)
        assert format(b, m) == cn
        assert format(b, m, "wxf") == wxf
        assert parse(b, cn) == m and parse(b, wxf) == m
    # 中兵 also reads as 二兵, and 一/三 as 前/后.
    assert parse(b, "二兵平六").iccs() == "e6d6"
    assert parse(b, "三兵平四").iccs() == "e5f5"
    assert parse(b, "一兵平四").iccs() == "e7f7"
    # A file form on a crowded file: the middle one in WXF, any that fits in Chinese.
    with pytest.raises(IllegalMoveError):
        parse(b, "P5+1")  # the middle soldier is blocked by the front one
    with pytest.raises(AmbiguousMoveError):
        parse(b, "兵五平四")
    _roundtrip_all(b)


def test_four_and_five_pawns_on_a_file() -> None:
    # Soldiers on Red's file 九 (a); sideways to 八 (b).
    b4 = Board(FOUR_PAWNS)
    assert [format(b4, Move.from_iccs(f"a{r}b{r}")) for r in (8, 7, 6, 5)] == [
        "一兵平八", "二兵平八", "三兵平八", "四兵平八"]
    assert [format(b4, Move.from_iccs(f"a{r}b{r}"), "wxf") for r in (8, 7, 6, 5)] == [
        "++.8", "P+.8", "P-.8", "--.8"]
    assert format(b4, Move.from_iccs("a8a9"), "wxf") == "+++1"
    assert parse(b4, "前兵平八").iccs() == "a8b8"
    assert parse(b4, "后兵平八").iccs() == "a5b5"
    with pytest.raises(IllegalMoveError):
        parse(b4, "中兵平八")  # four soldiers have no middle one
    _roundtrip_all(b4)
    b5 = Board(FIVE_PAWNS)
    assert [format(b5, Move.from_iccs(f"a{r}b{r}")) for r in (9, 8, 7, 6, 5)] == [
        "一兵平八", "二兵平八", "三兵平八", "四兵平八", "五兵平八"]
    assert [format(b5, Move.from_iccs(f"a{r}b{r}"), "wxf") for r in (9, 8, 7, 6, 5)] == [
        "++.8", "P+.8", "P9.8", "P-.8", "--.8"]
    assert parse(b5, "中兵平八").iccs() == "a7b7"
    assert parse(b5, "前兵平八").iccs() == "a9b9"
    assert parse(b5, "后兵平八").iccs() == "a5b5"
    _roundtrip_all(b5)


def test_pawns_crowded_on_two_files() -> None:
    # Red's files from its right: g is 三, c is 七; so g7 g6 g5 are 一二三 and
    # c6 c5 are 四五.
    b = Board(TWO_FILES)
    expect = {"g7h7": ("一兵平二", "3+.2"), "g6f6": ("二兵平四", "33.4"),
              "g5h5": ("三兵平二", "3-.2"), "c6d6": ("四兵平六", "7+.6"),
              "c5b5": ("五兵平八", "7-.8")}
    for iccs, (cn, wxf) in expect.items():
        m = Move.from_iccs(iccs)
        assert (format(b, m), format(b, m, "wxf")) == (cn, wxf)
        assert parse(b, cn) == m and parse(b, wxf) == m
    assert parse(b, "前兵三平二").iccs() == "g7h7"
    assert parse(b, "后兵七平八").iccs() == "c5b5"
    with pytest.raises(AmbiguousMoveError) as e:
        parse(b, "前兵进一")  # the front soldier of which file?
    assert sorted(e.value.candidates) == ["c6c7", "g7g8"]
    _roundtrip_all(b)


def test_black_pawns_crowded_on_two_files() -> None:
    # Black counts from its right (Red's left): c is 3, g is 7; front is down.
    b = Board("4k4/9/9/9/9/2p3p2/2p3p2/2p6/9/5K3 b")
    expect = {"c2b2": ("一卒平2", "3+.2"), "c3d3": ("二卒平4", "33.4"),
              "c4c3": None, "g4g3": None, "g3h3": ("四卒平8", "7+.8"),
              "g4f4": ("五卒平6", "7-.6")}
    for iccs, forms in expect.items():
        if forms is None:
            continue
        m = Move.from_iccs(iccs)
        assert (format(b, m), format(b, m, "wxf")) == forms
        assert parse(b, forms[0]) == m and parse(b, forms[1]) == m
    _roundtrip_all(b)


def test_two_pawns_on_a_file_and_singletons() -> None:
    b = Board("3k5/9/9/P1P1P4/4P4/9/9/9/9/5K3 w")
    assert format(b, Move.from_iccs("e6e7")) == "前兵进一"
    assert format(b, Move.from_iccs("e5d5")) == "后兵平六"
    assert format(b, Move.from_iccs("a6a7")) == "兵九进一"
    assert format(b, Move.from_iccs("e6e7"), "wxf") == "P++1"
    _roundtrip_all(b)


# ------------------------------------------------------------- bad input

@pytest.mark.parametrize("text", [
    "", "   ", "xyz", "炮二平", "炮零平五", "炮二平五五", "马八飞七", "Z2.5", "C2*5", "i0j0",
    "h2e", "h11e2", "33+", "35.4", "炮二平五x", "P0.5", "前前兵进一",
])
def test_unreadable_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse(Board(), text)


@pytest.mark.parametrize(("text", "why"), [
    ("车一平二", "cannot move"),  # blocked by its own horse
    ("马二平三", "horse"),  # horses never move sideways
    ("炮二进九", "cannon"),  # off the board
    ("兵五进二", "soldier"),  # a soldier steps one point
    ("前车进一", "no chariot"),
    ("h9g7", "opponent"),
    ("a0a0", "cannot"),
])
def test_impossible_moves_say_why(text: str, why: str) -> None:
    with pytest.raises(IllegalMoveError, match=why):
        parse(Board(), text)


def test_errors_list_the_named_piece_s_legal_moves() -> None:
    with pytest.raises(IllegalMoveError, match="its legal moves: 马二进三 马二进一$"):
        parse(Board(), "马二进五")
    with pytest.raises(IllegalMoveError, match="its legal moves: H2[+]3 H2[+]1$"):
        parse(Board(), "H2+5")
    b = Board()
    b.push(Move.from_iccs("h0g2"))
    b.push(Move.from_iccs("h9g7"))
    with pytest.raises(AmbiguousMoveError, match=r"i0h0 \(车一平二\), i0i2 \(车一进二\)|"
                                                   r"i0i2 \(车一进二\), i0h0 \(车一平二\)"):
        parse(b, "车12")


def test_format_rejects_what_is_not_a_move() -> None:
    with pytest.raises(InvalidMoveError):
        format(Board(), "h2e2")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="out of 0-89"):
        format(Board(), Move(200, 3))


def test_digits_are_read_for_red_and_numerals_for_black() -> None:
    b = Board()
    assert parse(b, "马8进7").iccs() == "b0c2"  # Red's horse on its file 八
    b.push(Move.from_iccs("b0c2"))
    assert parse(b, "马二进三").iccs() == "b9c7"  # Black's horse on its file 2


def test_move_into_check_is_illegal() -> None:
    b = Board("3k5/4r4/9/9/9/9/9/9/4C4/4K4 w")
    with pytest.raises(IllegalMoveError, match="4.1.2"):
        parse(b, "炮五平四")


def test_unknown_notation() -> None:
    with pytest.raises(NotationError):
        parse(Board(), "h2e2", "san")
    with pytest.raises(NotationError):
        format(Board(), Move.from_iccs("h2e2"), "san")
    with pytest.raises(InvalidMoveError):
        parse(Board(), "炮二平五", "wxf")
    with pytest.raises(InvalidMoveError):
        parse(Board(), "C2.5", "chinese")


def test_format_rejects_illegal_moves() -> None:
    with pytest.raises(IllegalMoveError):
        format(Board(), Move.from_iccs("h2h8"))
    with pytest.raises(IllegalMoveError, match="move 2"):
        format_line(Board(), [Move.from_iccs("h2e2"), Move.from_iccs("h2e2")], "wxf")


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=12))
def test_random_strings_raise_only_qisai_errors(text: str) -> None:
    b = Board()
    for notation in (None, *NOTATIONS):
        try:
            parse(b, text, notation)
        except XiangqiError:
            pass


_ALPHABET = "车马炮相仕帅兵卒将士象前中后一二三四五六七八九进退平123456789+-.=KAEHRCP abcdefghi0"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=8))
def test_notation_like_strings_raise_only_qisai_errors(text: str) -> None:
    b = Board()
    b.push(Move.from_iccs("h2e2"))
    for notation in (None, *NOTATIONS):
        try:
            move = parse(b, text, notation)
        except XiangqiError:
            continue
        assert b.is_legal(move)
    try:
        parse_line(b, text + " " + text)
    except XiangqiError:
        pass


# ------------------------------------------------------------- lines

def test_lines_do_not_touch_the_board_and_name_the_bad_move() -> None:
    b = Board()
    fen = b.fen()
    moves = parse_line(b, "1. h2e2 h9g7 2. h0g2")
    assert b.fen() == fen and [m.iccs() for m in moves] == ["h2e2", "h9g7", "h0g2"]
    assert format_line(b, moves, "engine") == ["h3e3", "h10g8", "h1g3"]
    assert b.fen() == fen
    # Lines of coordinates are read wholly as ICCS or wholly as engine moves.
    assert parse_line(b, "h3e3 h10g8 h1g3") == moves
    assert parse_line(b, "h3e3 h8e8", "engine") == parse_line(b, "h2e2 h7e7")
    assert parse_line(b, "炮二平五，马８进７") == moves[:2]
    with pytest.raises(IllegalMoveError, match="move 3"):
        parse_line(b, "炮二平五 马8进7 马二进四")
    with pytest.raises(AmbiguousMoveError, match="move 5") as e:
        parse_line(b, "炮25 马87 马23 车98 车12")
    assert sorted(e.value.candidates) == ["i0h0", "i0i2"]


# ------------------------------------------------------------- real games

def test_every_move_of_the_real_games_round_trips() -> None:
    """All moves of the 131 CBL games, written in each notation and read back."""
    games = _games()
    assert len(games) == 131
    plies = 0
    for game in games:
        moves_iccs = game["moves_iccs"]
        assert isinstance(moves_iccs, list)
        if not moves_iccs:
            continue  # two records of the 1989 file hold no moves (and no position)
        fen = game["fen"]
        assert isinstance(fen, str)
        b = Board(fen)
        for u in moves_iccs:
            m = Move.from_iccs(u)
            for notation in NOTATIONS:
                text = format(b, m, notation)
                assert parse(b, text, notation) == m, (game["index"], u, notation, text)
            b.push(m)
            plies += 1
    assert plies == 10_522


def _pgn_moves(path: Path) -> tuple[str | None, list[str]]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("gbk")
    fen = re.search(r'\[FEN "([^"]*)"\]', text)
    body = re.sub(r"\[[^\]]*\]", "", text).split("=====")[0]
    moves = [t for t in body.split() if len(t) == 4 and not t[0].isascii()]
    return (fen[1] if fen else None), moves


PGN_FILES = sorted(RECORDS.glob("*.pgn"))


@pytest.mark.parametrize("path", PGN_FILES, ids=[p.name for p in PGN_FILES])
def test_chinese_move_text_written_by_other_programs(path: Path) -> None:
    """Read the Chinese moves other programs wrote (GBK, full-width digits for
    Black), and write them back: the same text, up to the digit width."""
    fen, moves = _pgn_moves(path)
    assert len(moves) >= 20
    b = Board(fen) if fen else Board()
    for text in moves:
        m = parse(b, text, "chinese")
        assert format(b, m) == unicodedata.normalize("NFKC", text)
        b.push(m)


def test_pgn_files_use_front_and_rear() -> None:
    # test2.pgn has 前炮/后炮 for Black: the independent check covers tandems.
    _, moves = _pgn_moves(RECORDS / "test2.pgn")
    assert any(t.startswith("前炮") for t in moves) and any(t.startswith("后炮") for t in moves)


def test_cchess_agrees_on_the_real_games() -> None:
    """cchess (PyPI, an independent implementation) writes the same Chinese text
    for every move of the CBL games, and we read its text back.  (cchess is slow:
    every fourth game here; all 10,522 plies agree when run in full.)"""
    cchess = pytest.importorskip("cchess", reason="cchess not installed (pip install -e '.[test]')")
    plies = 0
    for game in _games()[::4]:
        moves_iccs = game["moves_iccs"]
        fen = game["fen"]
        assert isinstance(moves_iccs, list) and isinstance(fen, str)
        if not moves_iccs:
            continue
        theirs, b = cchess.ChessBoard(fen), Board(fen)
        for u in moves_iccs:
            text = theirs.move_iccs(u).to_text()
            m = Move.from_iccs(u)
            assert format(b, m) == unicodedata.normalize("NFKC", text), (game["index"], u)
            assert parse(b, text) == m
            theirs.next_turn()
            b.push(m)
            plies += 1
    assert plies > 2_000


def _crowded_pawn_files(b: Board) -> list[int]:
    counts: dict[int, int] = {}
    for sq in range(90):
        p = b.piece_at(sq)
        if p is not None and p.color == b.turn and p.type == 7:
            counts[sq % 9] = counts.get(sq % 9, 0) + 1
    return [f for f, n in counts.items() if n >= 2]


def test_cchess_text_is_read_in_crowded_positions() -> None:
    """cchess's Chinese text for every legal move of random positions crowded
    with soldiers reads back as that move.  cchess writes 前二三四后 for four or
    five soldiers on a file (we write 一..五, and read both) and plain 前/后
    when two files are crowded, which is ambiguous: then, and only then, we
    must raise AmbiguousMoveError naming the move among the candidates."""
    cchess = pytest.importorskip("cchess", reason="cchess not installed (pip install -e '.[test]')")
    rng = random.Random(20261130)
    checked = ambiguous = 0
    while checked < 1500:
        b = _random_crowded_board(rng)
        if b is None:
            continue
        theirs = cchess.ChessBoard(b.fen())
        two_files = len(_crowded_pawn_files(b)) > 1
        for m in b.legal_moves():
            text = theirs.copy().move_iccs(m.iccs()).to_text()
            try:
                assert parse(b, text) == m, (b.fen(), m.iccs(), text)
            except AmbiguousMoveError as e:
                assert two_files and text[0] in "前后" and m.iccs() in e.candidates
                ambiguous += 1
            checked += 1
    assert ambiguous < checked // 10


# ------------------------------------------------------------- properties

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
def test_random_play_round_trips(choices: list[int]) -> None:
    b = Board()
    for i, c in enumerate(choices):
        moves = b.legal_moves()
        if not moves:
            break
        if i % 10 == 9 or i == len(choices) - 1:
            _roundtrip_all(b)
        b.push(moves[c % len(moves)])


_PAWN_SQUARES_RED = [r * 9 + f for r in range(10) for f in range(9) if r >= 5 or (r >= 3 and f % 2 == 0)]
_PAWN_SQUARES_BLACK = [89 - s for s in _PAWN_SQUARES_RED]


def _fen_from(pieces: dict[int, str], red_to_move: bool) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = pieces.get(rank * 9 + f)
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if red_to_move else " b")


def _random_crowded_board(rng: random.Random) -> Board | None:
    pieces = {rng.choice([3, 4, 5, 12, 13, 14]): "K", rng.choice([84, 85, 86, 75, 76, 77]): "k"}
    files = rng.sample(range(9), rng.randint(1, 2))
    for letter, squares in (("P", _PAWN_SQUARES_RED), ("p", _PAWN_SQUARES_BLACK)):
        pool = [s for s in squares if s % 9 in files and s not in pieces]
        for s in rng.sample(pool, min(len(pool), rng.randint(0, 5))):
            pieces[s] = letter
    for letter in "RRCCNNrrccnn":
        s = rng.randrange(90)
        if s not in pieces and rng.random() < 0.5:
            pieces[s] = letter
    try:
        return Board(_fen_from(pieces, rng.random() < 0.5))
    except XiangqiError:
        return None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.data())
def test_random_crowded_positions_round_trip(data: st.DataObject) -> None:
    """Positions with many soldiers, often crowded on files, plus a few pieces."""
    pieces: dict[int, str] = {}
    pieces[data.draw(st.sampled_from([3, 4, 5, 12, 13, 14]))] = "K"
    pieces[data.draw(st.sampled_from([84, 85, 86, 75, 76, 77]))] = "k"
    files = data.draw(st.lists(st.integers(0, 8), min_size=1, max_size=2, unique=True))
    for letter, squares in (("P", _PAWN_SQUARES_RED), ("p", _PAWN_SQUARES_BLACK)):
        pool = [s for s in squares if s % 9 in files and s not in pieces]
        n = data.draw(st.integers(0, 5))
        for s in data.draw(st.lists(st.sampled_from(pool), max_size=n, unique=True)):
            pieces[s] = letter
    for letter, squares in (("A", [3, 5, 13, 21, 23]), ("B", [2, 6, 18, 22, 26, 38, 42])):
        for s in data.draw(st.lists(st.sampled_from(squares), max_size=2, unique=True)):
            pieces.setdefault(s, letter)
            pieces.setdefault(89 - s, letter.lower())
    for letter in "RRCCNNrrccnn":
        s = data.draw(st.integers(0, 89))
        if s not in pieces and data.draw(st.booleans()):
            pieces[s] = letter
    try:
        b = Board(_fen_from(pieces, data.draw(st.booleans())))
    except XiangqiError:
        assume(False)
        raise
    _roundtrip_all(b)


# ------------------------------------------------------------- command line

def _cli(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    app = typer.Typer()
    register(app)
    app.command("other")(lambda: None)  # two commands, so "notation" is a sub-command
    result = CliRunner().invoke(app, ["notation", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_converts_and_reads_back() -> None:
    code, out, _ = _cli("--moves", "h2e2 h9g7 h0g2 i9h9", "--to", "chinese")
    assert (code, out) == (0, "炮二平五 马8进7 马二进三 车9平8\n")
    code, out, _ = _cli("--moves", out, "--to", "wxf", "--from", "chinese", "--lines")
    assert (code, out) == (0, "C2.5\nH8+7\nH2+3\nR9.8\n")
    code, out, _ = _cli("--moves", "C2.5 H8+7", "--to", "engine")
    assert (code, out) == (0, "h3e3 h10g8\n")
    code, out, _ = _cli("--fen", TWO_FILES, "--moves", "g6f6", "--to", "chinese")
    assert (code, out) == (0, "二兵平四\n")


def test_cli_errors() -> None:
    code, _, err = _cli("--moves", "炮25 马87 马23 车98 车12", "--to", "iccs")
    assert code == 1 and "i0h0" in err and "i0i2" in err and "move 5" in err
    code, _, err = _cli("--moves", "h2e2", "--to", "san")
    assert code == 2 and "--to" in err
    code, _, err = _cli("--moves", "h2e2", "--fen", "rnbakabnr w")
    assert code == 2 and "FEN" in err
    code, _, err = _cli("--moves", "h2e2 h2e2", "--to", "wxf")
    assert code == 1 and "move 2" in err


def test_docstring_examples_run() -> None:
    import doctest

    from qisai.xiangqi import notation

    result = doctest.testmod(notation)
    assert result.failed == 0 and result.attempted >= 6
