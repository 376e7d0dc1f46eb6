"""Rules core: legal moves, check, mate, stalemate, FEN, keys, attacks.

Independent truth: the published perft counts in tests/data/xiangqi/
perft.tsv and Debian's Fairy-Stockfish (move lists of random positions).
"""

from __future__ import annotations

import csv
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.xiangqi import (
    STARTING_FEN,
    Board,
    Color,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    XiangqiError,
    square,
)

TESTDATA = Path(__file__).resolve().parents[1] / "data" / "xiangqi"
PERFT_LIMIT = 2_100_000  # rows above this run in bench/xiangqi_perft.py


def _perft_rows() -> list[tuple[str, int, int]]:
    with open(TESTDATA / "perft.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [(r["fen"], int(r["depth"]), int(r["nodes"])) for r in rows]


SMALL_ROWS = [r for r in _perft_rows() if r[2] <= PERFT_LIMIT]
# Every position of the table is also counted at depth 3 or less (at most
# 80,000 nodes): a mutation run (scripts/mutation) keeps those and skips the
# deeper rows, which take 1-16 s each and repeat the same positions.
MUTATION_NODES = 100_000


def _perft_param(index: int, row: tuple[str, int, int]) -> object:
    marks = [pytest.mark.mutation_skip] if row[2] > MUTATION_NODES else []
    return pytest.param(*row, id=f"{index}-d{row[1]}", marks=marks)


@pytest.mark.parametrize(("fen", "depth", "nodes"),
                         [_perft_param(i, r) for i, r in enumerate(SMALL_ROWS)])
def test_perft_published_counts(fen: str, depth: int, nodes: int) -> None:
    assert Board(fen).perft(depth) == nodes


def test_perft_table_is_mostly_covered() -> None:
    assert len(SMALL_ROWS) >= 90


def test_start_position() -> None:
    b = Board()
    assert b.fen() == STARTING_FEN
    assert b.turn is Color.RED
    assert len(b.legal_moves()) == 44
    assert not b.is_check() and not b.is_checkmate() and not b.is_stalemate()


def test_push_pop_fen_and_counters() -> None:
    b = Board()
    b.push(Move.from_iccs("h2e2"))  # 炮二平五
    assert b.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    b.push(Move.from_iccs("h9g7"))  # 马8进7
    assert b.fen().endswith(" w - - 2 2")
    b.push(Move.from_iccs("e2e6"))  # 炮五进四 captures the central pawn
    assert b.halfmove_clock == 0
    assert b.pop() == Move.from_iccs("e2e6")
    b.pop()
    b.pop()
    assert b.fen() == STARTING_FEN


@pytest.mark.parametrize(("fen", "fragment"), [
    ("", "empty"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "8 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR1 w", "10 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1R w", "more than 9"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "exactly one general"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAAKBNR w", "cannot stand"),  # king off palace
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/4B4/P1P1P1P1P/1C5C1/9/RN1AKABNR w", "cannot stand"),  # elephant across
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w", "cannot stand"),  # advisor off point
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "non-negative"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PPP1P1P1P/1C5C1/9/RNBAKABNR w", "cannot stand"),  # pawn b3
    ("6k2/9/9/9/9/9/9/9/9/3K5 w", "cannot stand"),  # black general on g9, outside the palace
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"),
    ("4k4/9/9/9/9/9/9/9/9/3K1r3 b", "not to move"),
    ("rrrakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "too many"),
])
def test_bad_fen_says_what(fen: str, fragment: str) -> None:
    with pytest.raises(FenError, match=fragment):
        Board(fen)


def test_fen_accepts_variants() -> None:
    # 'r' for Red to move and E/H letters are written by some programs.
    b = Board("rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
    assert b.board_fen() == Board().board_fen()


def test_checkmate_and_stalemate_are_distinguished() -> None:
    # Double rook mate: 将死 (3.2).
    mate = Board("R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert mate.is_check() and mate.is_checkmate() and not mate.is_stalemate()
    # 困毙: Black has no legal move and is not in check (3.2, 4.1.3).
    stale = Board("3k5/R8/4R4/9/9/9/9/9/9/4K4 b - - 0 1")
    assert not stale.is_check()
    assert stale.legal_moves() == []
    assert stale.is_stalemate() and stale.is_game_over()


def test_facing_generals_is_illegal() -> None:
    # 4.1.2: the cannon on e1 is the only piece between the generals.
    b = Board("4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1")
    assert not b.is_legal(Move.from_iccs("e1a1"))
    with pytest.raises(IllegalMoveError, match="facing"):
        b.push(Move.from_iccs("e1a1"))
    assert b.is_legal(Move.from_iccs("e1e5"))


def test_horse_leg_elephant_eye_cannon_screen() -> None:
    b = Board()
    # 蹩马腿: with the leg b1 empty the horse on b0 may jump to c2.
    assert b.is_legal(Move.from_iccs("b0c2"))
    leg = Board("3k5/9/9/9/9/9/9/9/1C7/1N2K4 w - - 0 1")
    assert not leg.is_legal(Move.from_iccs("b0a2"))  # leg b1 occupied
    assert not leg.is_legal(Move.from_iccs("b0c2"))
    assert leg.is_legal(Move.from_iccs("b0d1"))
    # 塞象眼: elephant c0 with its eye d1 occupied cannot go to e2.
    eye = Board("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1")
    assert not eye.is_legal(Move.from_iccs("c0e2"))
    assert eye.is_legal(Move.from_iccs("c0a2"))
    # The elephant never crosses the river (2.4).
    river = Board("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1")
    assert {m.iccs() for m in river.legal_moves_from(square(2, 4))} == {"c4a2", "c4e2"}
    # 炮打隔子: the cannon captures only over exactly one screen (2.6).
    cannon = Board("3k5/9/9/9/r8/9/P8/9/9/C3K4 w - - 0 1")
    moves = {m.iccs() for m in cannon.legal_moves_from(square(0, 0))}
    assert "a0a5" in moves and "a0a4" not in moves and "a0a3" not in moves
    assert "a0a1" in moves and "a0a2" in moves


def test_pawn_moves_before_and_after_river() -> None:
    b = Board("5k3/9/9/9/4P4/P8/9/9/9/3K5 w - - 0 1")
    assert {m.iccs() for m in b.legal_moves_from(square(0, 4))} == {"a4a5"}
    assert {m.iccs() for m in b.legal_moves_from(square(4, 5))} == {"e5e6", "e5d5", "e5f5"}


def test_attack_queries() -> None:
    # The red rook on a0 attacks the unprotected black rook on a5.
    b = Board("3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 0 1")
    assert b.attackers(Color.RED, square(0, 5)) == [square(0, 0)]
    assert b.protectors(square(0, 5)) == []
    # Now give it a root: a black horse on b7 protects a5.
    b2 = Board("3k5/9/1n7/9/r8/9/9/9/9/R3K4 w - - 0 1")
    assert b2.protectors(square(0, 5)) == [square(1, 7)]
    # A protector that would expose its general is no protector (legal recapture only).
    b3 = Board("3k5/3n5/9/9/9/2r6/9/9/9/3RK4 w - - 0 1")
    assert square(3, 8) not in b3.legal_attackers(Color.BLACK, square(2, 6))
    assert square(3, 8) in b3.attackers(Color.BLACK, square(2, 6))


def test_move_parsing_errors() -> None:
    for text in ("", "h2", "z2e2", "h2e", "h2e22", "ｈ２ｅ２"):
        with pytest.raises(InvalidMoveError):
            Move.from_iccs(text)
    assert Move.from_engine("a10a9") == Move(square(0, 9), square(0, 8))
    assert Move.from_engine("h3e3").iccs() == "h2e2"
    for text in ("a11a9", "a0a1", "h3", "h3e"):
        with pytest.raises(InvalidMoveError):
            Move.from_engine(text)
    with pytest.raises(IllegalMoveError, match="no piece"):
        Board().push(Move.from_iccs("e5e6"))
    with pytest.raises(IllegalMoveError, match="opponent"):
        Board().push(Move.from_iccs("h9g7"))
    with pytest.raises(IllegalMoveError, match="cannot move"):
        Board().push(Move.from_iccs("h2h8"))
    with pytest.raises(IllegalMoveError):
        Board().pop()


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=120))
def test_random_play_push_pop_restores(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    b = Board()
    fens = [b.fen()]
    keys = [b.key]
    for _ in range(plies):
        moves = b.legal_moves()
        if not moves:
            break
        b.push(rng.choice(moves))
        assert b.key == b._compute_key()
        assert Board(b.fen()).fen() == b.fen()  # FEN round trip, validation passes
        fens.append(b.fen())
        keys.append(b.key)
    assert b.history_keys() == keys
    while b.move_stack:
        b.pop()
        fens.pop()
        keys.pop()
        assert b.fen() == fens[-1]
        assert b.key == keys[-1]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_random_fen_strings_raise_only_our_errors(text: str) -> None:
    try:
        Board(text)
    except XiangqiError:
        pass


def _random_positions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        b = Board()
        for _ in range(rng.randint(10, 160)):
            moves = b.legal_moves()
            if not moves:
                break
            # Prefer captures so that sparse, tactical positions appear too.
            captures = [m for m in moves if b.is_capture(m)]
            b.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        fens.append(b.fen())
    return fens


# Perft from 27 positions checks the same move generator; a mutation run skips
# the 150 games played here to make the positions.
@pytest.mark.mutation_skip
@pytest.mark.engine
def test_legal_moves_agree_with_fairy_stockfish(fairy: str) -> None:
    exe = fairy
    fens = _random_positions(150, seed=7)
    script = ["uci", "setoption name UCI_Variant value xiangqi"]
    for fen in fens:
        script += [f"position fen {fen}", "go perft 1"]
    script.append("quit")
    out = subprocess.run([exe], input="\n".join(script) + "\n", capture_output=True, text=True,
                         timeout=120, check=True).stdout
    blocks: list[set[str]] = []
    current: set[str] = set()
    for line in out.splitlines():
        if line.startswith("Nodes searched"):
            blocks.append(current)
            current = set()
        elif ": " in line and line.split(":")[0].isalnum() and line.split(":")[1].strip().isdigit():
            current.add(Move.from_engine(line.split(":")[0]).iccs())
    assert len(blocks) == len(fens)
    for fen, expected in zip(fens, blocks, strict=True):
        assert {m.iccs() for m in Board(fen).legal_moves()} == expected, fen


# Diagrams printed in rule books are set up, not played: a soldier behind its
# start rank, an elephant or advisor off its points (issue 13.8).
SETUP_ONLY = [
    "4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1",  # red soldier on e1, behind its start rank
    "3k5/9/9/9/9/9/9/9/9/4BK3 w - - 0 1",  # red elephant on e0, not an elephant point
    "3kb4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",  # black elephant on e9, not an elephant point
    "3k5/9/4a4/9/9/9/9/9/9/5K3 w - - 0 1",  # black advisor on e7, not an advisor point
    "p2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",  # black soldier on a9, behind its start rank
]


@pytest.mark.parametrize("fen", SETUP_ONLY)
def test_setup_accepts_placements_play_cannot_reach(fen: str) -> None:
    board = Board(fen, setup=True)
    assert board.fen() == fen
    assert board.legal_moves()


@pytest.mark.parametrize("fen", SETUP_ONLY)
def test_strict_fen_still_refuses_unreachable_placements(fen: str) -> None:
    with pytest.raises(FenError, match="cannot stand"):
        Board(fen)


@pytest.mark.parametrize(("fen", "fragment"), [
    ("6k2/9/9/9/9/9/9/9/9/3K5 w", "cannot stand"),  # general outside the palace
    ("9/9/9/9/9/9/9/9/9/4K4 w", "exactly one general"),
    ("3k5/9/9/9/PPPPPP3/9/9/9/9/4K4 w", "too many"),  # six soldiers
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"),
])
def test_setup_keeps_counts_generals_and_position_checks(fen: str, fragment: str) -> None:
    with pytest.raises(FenError, match=fragment):
        Board(fen, setup=True)


def test_setup_soldier_behind_its_start_rank_moves_forward_only() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1", setup=True)
    assert sorted(m.iccs() for m in board.legal_moves_from(square(4, 1))) == ["e1e2"]
