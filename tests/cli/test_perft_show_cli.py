"""``qisai perft`` and ``qisai show``: counts against the published perft
numbers (tests/data/xiangqi/perft.tsv, from other engines' test suites) and
the position report of the rule text's states (3.1 照将, 3.2 将死/困毙)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.xiangqi import STARTING_FEN

PERFT = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "perft.tsv"
runner = CliRunner()


def _published(limit: int) -> list[tuple[str, int, int]]:
    with PERFT.open(encoding="utf-8") as f:
        rows = [(r["fen"], int(r["depth"]), int(r["nodes"])) for r in csv.DictReader(f, delimiter="\t")]
    return [r for r in rows if r[2] <= limit]


SMALL = _published(20_000)


def test_published_table_is_there() -> None:
    # the small rows cover several positions at depths 1-3
    assert len(SMALL) >= 20
    assert {depth for _, depth, _ in SMALL} >= {1, 2, 3}
    assert len({fen for fen, _, _ in SMALL}) >= 8


@pytest.mark.parametrize(("fen", "depth", "nodes"), SMALL,
                         ids=[f"{i}-d{d}" for i, (_, d, _) in enumerate(SMALL)])
def test_perft_prints_the_published_count_last(fen: str, depth: int, nodes: int) -> None:
    result = runner.invoke(app, ["perft", fen, str(depth)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == str(nodes)


def test_perft_divide_lists_each_move_and_sums_to_the_count() -> None:
    fen, depth, nodes = next(r for r in SMALL if r[1] == 2 and r[0] != STARTING_FEN)
    depth_1 = next(n for f, d, n in SMALL if f == fen and d == 1)
    result = runner.invoke(app, ["perft", fen, str(depth), "--divide"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    moves = [line for line in lines if ":" in line and not line.startswith("depth")]
    assert len(moves) == depth_1  # one line per legal move
    assert all(len(m.split(":")[0]) == 4 for m in moves)  # ICCS
    assert sum(int(m.split(":")[1]) for m in moves) == nodes
    assert lines[-1] == str(nodes)


def test_perft_startpos_and_depth_zero() -> None:
    result = runner.invoke(app, ["perft", "startpos", "1"])
    assert result.exit_code == 0 and result.output.strip().splitlines()[-1] == "44"
    result = runner.invoke(app, ["perft", "startpos", "0"])
    assert result.exit_code == 0 and result.output.strip().splitlines()[-1] == "1"


def test_perft_bad_fen_is_exit_2_naming_the_field() -> None:
    bad = STARTING_FEN.replace(" w ", " x ")
    result = runner.invoke(app, ["perft", bad, "1"])
    assert result.exit_code == 2
    assert "bad FEN" in result.output and "field 2" in result.output
    result = runner.invoke(app, ["perft", "startpos", "13"])
    assert result.exit_code == 2  # depth is 0-12


@pytest.mark.parametrize(("fen", "state", "legal"), [
    (STARTING_FEN, "红方 Red to move; 44 legal moves", 44),
    # 3.1 照将: the chariot on e8 checks; the general escapes to d9 or f9
    ("4k4/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1", "黑方 Black to move — 照将 in check (3.1); 2 legal", 2),
    # 3.2 将死: d8 checks, guarded by d7; e9 would face the red general
    ("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1", "黑方 Black to move — 将死 checkmated (3.2, 4.1.1)", 0),
    # 3.2 困毙: not in check, yet no legal move
    ("3k5/R8/4R4/9/9/9/9/9/9/4K4 b - - 0 1", "黑方 Black to move — 困毙 stalemated (3.2, 4.1.3)", 0),
])
def test_show_reports_the_state_and_the_legal_move_count(fen: str, state: str, legal: int) -> None:
    result = runner.invoke(app, ["show", fen])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1] == fen  # the FEN, written back
    assert lines[-2].startswith(state)
    assert lines[-2].endswith(f"; {legal} legal moves")
    board = "\n".join(lines[:-2])
    assert "楚河" in board and "汉界" in board
    # every piece of the FEN is drawn, and nothing else
    pieces = sum(ch.isalpha() for ch in fen.split()[0])
    assert sum(board.count(ch) for ch in "车马炮相仕帅兵将象士卒砲") == pieces


def test_show_bad_fen() -> None:
    result = runner.invoke(app, ["show", "rnbakabnr/9"])
    assert result.exit_code == 2
    assert "bad FEN" in result.output and "2 ranks, 10 expected" in result.output
