"""A short live check against GNU Go: legal points after random moves."""

from __future__ import annotations

import dataclasses
import random
import subprocess

import pytest

from qisai.go.board import Board
from qisai.go.coords import gtp_name, parse_gtp
from qisai.go.rules import CHINESE, KoRule

pytestmark = pytest.mark.engine


class Gtp:
    def __init__(self, gnugo: str, size: int) -> None:
        self.proc = subprocess.Popen([gnugo, "--mode", "gtp", "--level", "0"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self(f"boardsize {size}")
        self("clear_board")

    def __call__(self, command: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.strip())
        text = " ".join(lines)
        assert text.startswith("="), (command, text)
        return text[1:].strip()

    def close(self) -> None:
        self("quit")
        self.proc.wait(timeout=10)
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.close()
        self.proc.stdout.close()


@pytest.mark.parametrize("size,seed", [(5, 1), (7, 2), (9, 3)])
def test_legal_points_match_gnugo(gnugo: str, size: int, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(size, dataclasses.replace(CHINESE, ko=KoRule.SIMPLE))  # GNU Go: simple ko
    gtp = Gtp(gnugo, size)
    try:
        for _ in range(3 * size * size):
            color = board.to_move.letter
            theirs = {parse_gtp(v, size) for v in gtp(f"all_legal {color}").split()}
            ours = set(board.legal_points())
            assert ours == theirs, (str(board), color)
            if not ours:
                break
            point = rng.choice(sorted(ours))
            board.play(point)
            gtp(f"play {color} {gtp_name(point, size)}")
    finally:
        gtp.close()


def test_fixed_handicap_matches_gnugo(gnugo: str) -> None:
    from qisai.go.coords import handicap_points
    from qisai.go.errors import SetupError

    for size in (7, 8, 9, 10, 13, 19):
        gtp = Gtp(gnugo, size)
        try:
            for stones in range(2, 10):
                gtp("clear_board")
                assert gtp.proc.stdin and gtp.proc.stdout
                gtp.proc.stdin.write(f"fixed_handicap {stones}\n")
                gtp.proc.stdin.flush()
                reply = ""
                while not reply.strip():
                    reply = gtp.proc.stdout.readline()
                gtp.proc.stdout.readline()  # blank line ending the reply
                if reply.startswith("?"):
                    with pytest.raises(SetupError):
                        handicap_points(size, stones)
                    continue
                theirs = {parse_gtp(v, size) for v in reply[1:].split()}
                assert set(handicap_points(size, stones)) == theirs
        finally:
            gtp.close()
