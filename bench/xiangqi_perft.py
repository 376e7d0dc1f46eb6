"""Perft speed of qisai's Xiangqi move generator against its peers.

Prints nodes per second for perft(4) from the start position (3,290,240
nodes) and, where installed, the same figure for the pure-Python ``cchess``
package (perft(3), it is slow) and Fairy-Stockfish's native ``go perft 4``,
each as a ratio.  ``--all`` also checks every row of perft.tsv that the test
suite leaves out (the big ones; several minutes).

Usage: python bench/xiangqi_perft.py [--all] [--depth 4]
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import time
from pathlib import Path

from qisai.xiangqi import STARTING_FEN, Board

PERFT_TSV = Path(__file__).resolve().parents[1] / "tests" / "data" / "xiangqi" / "perft.tsv"


def qisai_rate(depth: int) -> tuple[int, float]:
    board = Board()
    start = time.perf_counter()
    nodes = board.perft(depth)
    return nodes, time.perf_counter() - start


def cchess_rate(depth: int) -> tuple[int, float] | None:
    try:
        import cchess  # type: ignore[import-not-found]
    except ImportError:
        return None

    # cchess has no perft; this is the natural one on its public API
    # (legal = pseudo-legal and not leaving the own king in check).
    def perft(board: object, d: int) -> int:
        moves = [(f, t) for f, t in board.create_moves()  # type: ignore[attr-defined]
                 if not board.is_checked_move(f, t)]  # type: ignore[attr-defined]
        if d == 1:
            return len(moves)
        n = 0
        for f, t in moves:
            child = board.copy()  # type: ignore[attr-defined]
            child._move_piece(f, t)
            child.next_turn()
            n += perft(child, d - 1)
        return n

    board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    start = time.perf_counter()
    nodes = perft(board, depth)
    return nodes, time.perf_counter() - start


def fairy_rate(depth: int) -> tuple[int, float] | None:
    exe = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
    if not Path(exe).exists():
        return None
    proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("uci\nsetoption name UCI_Variant value xiangqi\nisready\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.perf_counter()
    proc.stdin.write(f"position fen {STARTING_FEN}\ngo perft {depth}\n")
    proc.stdin.flush()
    nodes = -1
    for line in proc.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return nodes, elapsed


def check_all_rows(limit: int) -> None:
    with open(PERFT_TSV, encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if int(r["nodes"]) > limit]
    for r in rows:
        start = time.perf_counter()
        got = Board(r["fen"]).perft(int(r["depth"]))
        ok = "ok" if got == int(r["nodes"]) else f"MISMATCH (expected {r['nodes']})"
        print(f"{r['fen']} d{r['depth']}: {got} {ok} [{time.perf_counter() - start:.1f} s]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--cchess-depth", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="also check the big perft.tsv rows")
    args = parser.parse_args()

    nodes, secs = qisai_rate(args.depth)
    ours = nodes / secs
    print(f"qisai      perft({args.depth}) = {nodes:>12,} in {secs:7.2f} s: {ours:>12,.0f} nodes/s")
    cc = cchess_rate(args.cchess_depth)
    if cc is None:
        print("cchess     not installed (pip install cchess)")
    else:
        rate = cc[0] / cc[1]
        print(f"cchess     perft({args.cchess_depth}) = {cc[0]:>12,} in {cc[1]:7.2f} s: {rate:>12,.0f} nodes/s"
              f"  -> qisai is {ours / rate:.1f}x cchess (target >= 25x)")
    fs = fairy_rate(args.depth)
    if fs is None:
        print("fairy-stockfish not installed")
    else:
        rate = fs[0] / fs[1]
        print(f"fairy-sf   perft({args.depth}) = {fs[0]:>12,} in {fs[1]:7.2f} s: {rate:>12,.0f} nodes/s"
              f"  -> qisai is 1/{rate / ours:.1f} of native (aim: within 10x)")
    if args.all:
        check_all_rows(2_100_000)


if __name__ == "__main__":
    main()
