"""Benchmark: replay the 131 real games and write every move in Chinese notation.

Issue 2 ("Speed"): replaying the games of
tests/data/xiangqi/records/cbl_games.json with full legality checks
and writing every move in Chinese notation (clause 7.5) should take under 1 s.
Also times reading every move back from Chinese, and the other notations.

Run: ``python3 bench/xiangqi_notation.py [--repeat N]``.  The last line is the
replay-and-write figure with PASS or FAIL against the 1 s target.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from qisai.xiangqi import Board, Move
from qisai.xiangqi.notation import NOTATIONS, format, parse

RECORDS = Path(__file__).resolve().parents[1] / "tests" / "data" / "xiangqi" / "records"
TARGET_S = 1.0


def load_games() -> list[tuple[str, list[Move]]]:
    """``(start FEN, moves)`` of every game that has moves."""
    with open(RECORDS / "cbl_games.json", encoding="utf-8") as fh:
        games = json.load(fh)
    return [(g["fen"], [Move.from_iccs(u) for u in g["moves_iccs"]])
            for g in games if g["moves_iccs"]]


def replay_and_write(games: list[tuple[str, list[Move]]], notation: str) -> int:
    """Replay each game with legality checks (``Board.push``), writing each move."""
    n = 0
    for fen, moves in games:
        b = Board(fen)
        for m in moves:
            format(b, m, notation)
            b.push(m)
            n += 1
    return n


def replay_only(games: list[tuple[str, list[Move]]]) -> int:
    """Replay each game with legality checks, writing nothing (the baseline)."""
    n = 0
    for fen, moves in games:
        b = Board(fen)
        for m in moves:
            b.push(m)
            n += 1
    return n


def write_and_read(games: list[tuple[str, list[Move]]], notation: str) -> int:
    """Replay writing each move and reading it back (checked against the game)."""
    n = 0
    for fen, moves in games:
        b = Board(fen)
        for m in moves:
            if parse(b, format(b, m, notation), notation) != m:
                raise SystemExit(f"round trip failed at {m.iccs()} in {notation}")
            b.push_unchecked(m)
            n += 1
    return n


def best_of(repeat: int, fn: Callable[[], int]) -> tuple[float, float, int]:
    """Fastest CPU time and fastest wall time of ``repeat`` runs, and the ply count.

    CPU time (``time.process_time``) is the figure judged: on a shared machine
    the wall time also counts other processes' turns on the cores.
    """
    best_cpu = best_wall = float("inf")
    plies = 0
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        plies = fn()
        best_cpu = min(best_cpu, time.process_time() - c0)
        best_wall = min(best_wall, time.perf_counter() - t0)
    return best_cpu, best_wall, plies


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown")
    args = ap.parse_args()
    games = load_games()
    print(f"{len(games)} games with moves")
    print(f"{'task':36s} {'CPU s':>7s} {'wall s':>7s} {'plies':>6s} {'plies/s':>8s}")
    cpu, wall, n = best_of(args.repeat, lambda: replay_only(games))
    print(f"{'replay with legality checks':36s} {cpu:7.3f} {wall:7.3f} {n:6d} {n / cpu:8.0f}")
    for notation in NOTATIONS:
        cpu, wall, n = best_of(args.repeat, lambda nt=notation: write_and_read(games, nt))
        print(f"{'write + read back ' + notation:36s} {cpu:7.3f} {wall:7.3f} {n:6d} {n / cpu:8.0f}")
    cpu, wall, n = best_of(args.repeat, lambda: replay_and_write(games, "chinese"))
    verdict = "PASS" if cpu < TARGET_S else "FAIL"
    print(f"{'replay + write Chinese':36s} {cpu:7.3f} {wall:7.3f} {n:6d} {n / cpu:8.0f}")
    print(f"replay of {len(games)} games with legality checks + Chinese notation: "
          f"{cpu:.3f} s CPU ({wall:.3f} s wall), target < {TARGET_S:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
