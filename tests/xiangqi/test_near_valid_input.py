"""Fuzzing with near-valid input: a valid FEN with one field damaged, a valid
move text with one character changed.  Random text never gets past the first
field; these inputs reach every check, and the error must say which field
and which character is wrong.
"""

from __future__ import annotations

import random
import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
)
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.notation import format, parse

# Characters close to what a FEN holds, plus a few that only look like it.
FEN_CHARS = "rnbakcpRNBAKCPhe0123456789/wbrx-+ ９车"
# Characters close to what move texts hold, in each notation.
MOVE_CHARS = ("车马炮相仕帅兵卒将象士前中后一二三四五六七八九进退平"
              "123456789+-.=KAEHRCPGNSkaehrcpfbabcdefghi0xX２")


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """A position reached by random legal moves from the start."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="seed"))
    board = Board()
    for _ in range(draw(st.integers(0, 80), label="plies")):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    return Board(board.fen())


@st.composite
def damaged_fens(draw: st.DrawFn) -> tuple[str, int, int]:
    """Return (FEN, field number, 1-based character position changed)."""
    fen = draw(positions()).fen()
    fields = [(m.start(), m.group()) for m in re.finditer(r"\S+", fen)]
    number = draw(st.integers(1, len(fields)), label="field")
    start, text = fields[number - 1]
    k = draw(st.integers(0, len(text) - 1), label="index")
    how = draw(st.sampled_from(["replace", "delete", "insert"]))
    ch = draw(st.sampled_from(FEN_CHARS))
    if how == "replace":
        text = text[:k] + ch + text[k + 1:]
    elif how == "delete":
        text = text[:k] + text[k + 1:]
    else:
        text = text[:k] + ch + text[k:]
    pos = start + k + 1
    damaged = fen[:start] + text + fen[start + len(fields[number - 1][1]):]
    return damaged, number, pos


@settings(max_examples=300, deadline=None)
@given(damaged_fens())
def test_damaged_fen_error_names_the_field_and_position(case: tuple[str, int, int]) -> None:
    fen, number, pos = case
    try:
        Board(fen)
    except FenError as e:
        message = e.en
        assert e.zh.startswith("FEN ") and e.zh != e.en  # and said in Chinese (issue 32.8)
    else:
        return  # still a valid FEN (a digit changed in a counter, ...)
    # which field: the damaged one, or a field before it if a space went or came
    named = {int(n) for n in re.findall(r"FEN field (\d)", message)}
    if m := re.search(r"FEN fields (\d)-(\d)", message):
        named |= set(range(int(m[1]), int(m[2]) + 1))
    if m := re.search(r"FEN has (\d+) fields", message):
        named |= {number, int(m[1])}
    assert named, message
    # A field deleted whole shifts the later ones left: the strict reader
    # (issue 35.3) may then name the field after it (its text now stands there).
    shifted = len(fen.split()) < 6 and number + 1 in named
    assert number in named or shifted or (number > 1 and named & {1, 2}), (fen, number, message)
    # which character: never before the damage (what comes before is valid)
    if m := re.search(r"character (\d+)\b", message):
        assert int(m[1]) >= pos - 1, (fen, pos, message)
    if m := re.search(r"characters (\d+)-(\d+)", message):
        assert int(m[1]) <= pos <= int(m[2]) + 1, (fen, pos, message)


def test_damaged_fen_examples() -> None:
    bad_rank = STARTING_FEN.replace("1c5c1", "1c5x1")
    try:
        Board(bad_rank)
    except FenError as e:
        assert e.en == ("FEN field 1 (placement), rank 7 (row 3), character 16: "
                          "unknown piece letter 'x'")
    for fen, expected in [
        (STARTING_FEN.replace(" w ", " x "),
         "FEN field 2 (side to move), character 61: side to move must be 'w' (Red) or "
         "'b' (Black), not 'x'"),
        (STARTING_FEN.replace(" 0 1", " 0 x"),
         "FEN field 6 (move number), character 69: must be a non-negative integer, not 'x'"),
        (STARTING_FEN.replace("/9/1c5c1/", "/8/1c5c1/"),
         "FEN field 1 (placement), rank 8 (row 2), characters 11-11: 8 files, 9 expected"),
        (STARTING_FEN.replace("/9/1c5c1/", "/9/1c5c2/"),
         "FEN field 1 (placement), rank 7 (row 3), character 17: 10 files, 9 expected"),
    ]:
        try:
            Board(fen)
        except FenError as e:
            assert e.en == expected
        else:
            raise AssertionError(f"accepted {fen!r}")


@st.composite
def changed_moves(draw: st.DrawFn) -> tuple[Board, str, str, int]:
    """Return (board, notation, a legal move's text with one character
    changed, the 1-based position changed)."""
    board = draw(positions())
    moves = board.legal_moves()
    if not moves:
        board = Board()
        moves = board.legal_moves()
    move = draw(st.sampled_from(sorted(moves)))
    notation = draw(st.sampled_from(["chinese", "wxf", "iccs"]))
    text = format(board, move, notation)
    k = draw(st.integers(0, len(text) - 1), label="index")
    ch = draw(st.sampled_from(MOVE_CHARS))
    return board, notation, text[:k] + ch + text[k + 1:], k + 1


@settings(max_examples=400, deadline=None)
@given(changed_moves())
def test_changed_move_text_error_names_the_character(case: tuple[Board, str, str, int]) -> None:
    board, notation, text, pos = case
    try:
        move = parse(board, text, notation)
    except InvalidMoveError as e:
        message = e.en
        # the text is quoted, and the first character that does not fit is
        # named: never one before the change (the text before it is valid)
        assert repr(text) in message or repr(unicodedata.normalize("NFKC", text)) in message, \
            message  # (full-width characters are read as ASCII ones)
        m = re.search(r"character (\d+)", message)
        assert m, message
        assert pos <= int(m[1]) <= len(text) + 1, (text, pos, message)
        # the Chinese text names the same character (issue 32.8)
        assert f"第 {m[1]} 个字符" in e.zh, e.zh
    except (IllegalMoveError, AmbiguousMoveError) as e:
        # it reads as a move, just not a legal (or not a unique) one here:
        # the error names the ply and the side to move
        assert e.en.startswith(f"ply {len(board.move_stack) + 1} ("), str(e)
        assert e.zh.startswith(f"第 {len(board.move_stack) + 1} 步（"), str(e)
    else:
        assert board.is_legal(move)


def test_changed_move_text_examples() -> None:
    b = Board()
    cases = [
        ("炮二炮五", "chinese", "character 3 ('炮') is not one of: a file or distance number; "
                              "an action (进, 退 or 平)"),
        ("二二平五", "chinese", "character 2 ('二') is not a piece (车马炮相仕帅兵)"),
        ("炮二平", "chinese", "a file or distance number is missing after character 3"),
        ("C2x5", "wxf", "character 3 ('x') is not one of: a number 1-9; an action (+ - . =)"),
        ("C2.55", "wxf", "character 5 ('5') is one too many"),
        ("h2x2", "iccs", "character 3 ('x') is not a to-file (a-i)"),
        ("h2e", "iccs", "the to-rank is missing after character 3"),
    ]
    for text, notation, fragment in cases:
        try:
            parse(b, text, notation)
        except InvalidMoveError as e:
            assert fragment in str(e), str(e)
        else:
            raise AssertionError(f"accepted {text!r}")
