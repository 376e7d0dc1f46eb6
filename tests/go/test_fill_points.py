"""Territory counting and 补棋 (issue 13 item 16).

Under territory counting (数目法, 日韩规则) a point its owner must still fill
is not territory: once the dame are filled a string left with one liberty
would be captured there.  Under area counting (数子法) the fill costs nothing,
so the two counts differ by exactly that point.

Position (9x9, komi 6.5): Black C1-C4, C6-C9 and D5; White E1-E9, D4, D6.
D5 has one liberty, C5, inside Black's area: Black must fill it.

* GNU Go 3.8, ``--japanese-rules``: final_score W+24.5, C5 among the dame
  (``final_status_list dame``); by the text: Black 18 (A, B) - White 36
  (F-J) - 6.5 = -24.5.
* ``--chinese-rules``: W+25.5 (Black 9 + 19 + 3, White 11 + 36 + 3, six
  dame split; 31 - 50 - 6.5).
* Without White D4 and D6, Black fills the dame D4 (or D6) himself, joining
  D5 to his wall: C5 stays territory; GNU Go: W+23.5 under both rules.

GNU Go is asked with the short string's owner to move (both passed, so his
opponent did not capture it); with the opponent to move it calls the string
dead instead.
"""

from __future__ import annotations

import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from qisai.go.board import Board
from qisai.go.coords import gtp_name, parse_gtp
from qisai.go.rules import CHINESE, JAPANESE, Rules
from qisai.go.scoring import find_fill_points, score

GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)
KOMI = Fraction(13, 2)
BLACK = [f"C{i}" for i in (1, 2, 3, 4, 6, 7, 8, 9)] + ["D5"]
WHITE = [f"E{i}" for i in range(1, 10)]


def position(extra_white: list[str], swap: bool = False) -> tuple[list[str], list[str]]:
    black, white = BLACK, WHITE + extra_white
    return (white, black) if swap else (black, white)


def board_of(black: list[str], white: list[str], rules: Rules) -> Board:
    board = Board(9, rules)
    board.setup(black=black, white=white)
    return board


CASES = [
    # (extra White stones, colours swapped, territory result, area result, fill points)
    (["D4", "D6"], False, "W+24.5", "W+25.5", ["C5"]),
    ([], False, "W+23.5", "W+23.5", []),
    (["D4", "D6"], True, "B+11.5", "B+12.5", ["C5"]),
]


@pytest.mark.parametrize(("extra", "swap", "territory", "area", "fill"), CASES)
def test_16_fill_points_are_not_territory(extra: list[str], swap: bool, territory: str,
                                          area: str, fill: list[str]) -> None:
    black, white = position(extra, swap)
    board = board_of(black, white, JAPANESE)
    counted = score(board, rules=JAPANESE, komi=KOMI)
    assert sorted(gtp_name(p, 9) for p in counted.fill) == fill
    assert counted.result.sgf() == territory
    assert sorted(gtp_name(p, 9) for p in find_fill_points(board)) == fill
    assert score(board, rules=CHINESE, komi=KOMI).result.sgf() == area
    assert counted.as_dict()["fill"] == fill


def test_16_a_fill_point_beside_a_dead_stone_is_still_found() -> None:
    # A dead White stone at A1 inside Black's area changes nothing about C5.
    black, white = position(["D4", "D6"])
    board = board_of(black, white + ["A1"], JAPANESE)
    counted = score(board, ["A1"], rules=JAPANESE, komi=KOMI)
    assert counted.fill == {parse_gtp("C5", 9)}
    # 18 territory (A1 taken off) + 1 prisoner (the dead A1) - 36 - 6.5
    assert counted.black_count == 19 and counted.result.sgf() == "W+23.5"


def gnugo(rules: str, black: list[str], white: list[str], owner: str) -> tuple[str, set[str]]:
    """GNU Go's final_score and dame list, with the owner of the short
    string to move (both passed: his opponent did not capture it)."""
    assert GNUGO is not None
    lines = ["boardsize 9", "clear_board", "komi 6.5"]
    lines += [f"play B {p}" for p in black] + [f"play W {p}" for p in white]
    if owner == "W":
        lines.append("play B pass")
    lines += ["final_score", "final_status_list dame", "quit"]
    out = subprocess.run([GNUGO, "--mode", "gtp", "--level", "0", f"--{rules}-rules"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=120, check=True).stdout
    answers = [a.strip()[1:].strip() for a in out.split("\n\n") if a.strip().startswith("=")]
    return answers[-3], set(answers[-2].split())


@pytest.mark.engine
@pytest.mark.skipif(GNUGO is None, reason="gnugo not installed (apt-get install gnugo)")
@pytest.mark.parametrize(("extra", "swap", "territory", "area", "fill"), CASES)
def test_16_gnugo_agrees(extra: list[str], swap: bool, territory: str, area: str,
                         fill: list[str]) -> None:
    black, white = position(extra, swap)
    owner = "W" if swap else "B"
    result, dame = gnugo("japanese", black, white, owner)
    assert result == territory and set(fill) <= dame
    board = board_of(black, white, JAPANESE)
    shared = {gtp_name(p, 9) for p in score(board, rules=JAPANESE, komi=KOMI).shared}
    assert dame == shared | set(fill)
    assert gnugo("chinese", black, white, owner)[0] == area
