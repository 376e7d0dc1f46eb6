"""Issue 36, item 7: the built-in Go engine's GTP server stays in step with
``undo`` when one colour moves twice, and fails with the GTP 2 spec's texts.

Truth: the transcript tests/engines/data/gtp_undo_same_colour.gtp (replies
as the specification words them) and GNU Go 3.8, which gets the same
``play``/``undo`` sequences: the boards must agree after each.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from qisai.engines.builtin.go_server import GoServer

DATA = Path(__file__).parent / "data"
GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)
VERTEX = re.compile(r"= [A-HJ-T](1[0-9]|[1-9])")


def _transcript(name: str) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    command = None
    for line in (DATA / name).read_text("utf-8").splitlines():
        if line.startswith("> "):
            command = line[2:]
        elif line.startswith("< "):
            assert command is not None
            pairs.append((command, line[2:]))
            command = None
    return pairs


def _run(lines: list[str]) -> list[str]:
    out = io.StringIO()
    GoServer(io.StringIO("\n".join(lines) + "\n"), out, playouts=60, seed=5).run()
    return [block.strip() for block in out.getvalue().split("\n\n") if block.strip()]


def _grid(showboard: str) -> list[str]:
    """The rows of a showboard answer (qisai's or GNU Go's) as 'X', 'O', '.'."""
    rows = []
    for line in showboard.splitlines():
        m = re.match(r"\s*(\d+) ((?:[.+XO] )*[.+XO])", line)
        if m:
            rows.append(m.group(2).replace(" ", "").replace("+", "."))
    return rows


def test_the_undo_transcript_as_the_spec_says() -> None:
    pairs = _transcript("gtp_undo_same_colour.gtp")
    replies = _run([c for c, _ in pairs])
    assert len(replies) == len(pairs)
    for (command, expected), reply in zip(pairs, replies, strict=True):
        if expected == "= {vertex}":
            assert VERTEX.fullmatch(reply), (command, reply)
        elif expected.startswith("= {"):
            assert sorted(reply[2:].split()) == sorted(expected[3:-1].split()), (command, reply)
        else:
            assert reply == expected, (command, reply)


def test_genmove_for_one_colour_twice_is_no_hidden_pass() -> None:
    replies = _run(["boardsize 9", "clear_board", "genmove b", "genmove w", "genmove w",
                    "genmove w", "showboard"])
    assert all(VERTEX.fullmatch(r) for r in replies[2:6]), replies
    assert "".join(_grid(replies[6])).count("O") == 3


@pytest.mark.skipif(GNUGO is None, reason="GNU Go not installed")
@pytest.mark.parametrize("moves", [
    ["play b D5", "play b E5", "undo", "undo"],
    ["play b D5", "play b E5", "undo"],
    ["play w D5", "play w E5", "play b C3", "undo", "undo"],
    ["play b D5", "play w E5", "play w F5", "play w G5", "undo", "undo", "play b J9"],
    ["play b D5", "play b pass", "play b E5", "undo", "undo"],
])
def test_boards_agree_with_gnugo_after_undo(moves: list[str]) -> None:
    lines = ["boardsize 9", "clear_board", *moves, "showboard"]
    ours = _run(lines)
    assert GNUGO is not None
    theirs = subprocess.run([GNUGO, "--mode", "gtp", "--level", "0"], input="\n".join(lines) + "\nquit\n",
                            capture_output=True, text=True, timeout=60, check=True).stdout
    gnugo_blocks = [b.strip() for b in theirs.split("\n\n") if b.strip()]
    assert [r.split("\n")[0].rstrip() for r in ours[:-1]] == \
        [b.split("\n")[0].rstrip() for b in gnugo_blocks[:len(ours) - 1]]
    assert _grid(ours[-1]) == _grid(gnugo_blocks[len(ours) - 1])
