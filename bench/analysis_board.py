"""Benchmark: what one analysis-board request and one takeback cost the
server (issue 17 items 3 and 4).

Usage::

    python3 bench/analysis_board.py [--repeat N]

Printed, as CPU time of this process (``time.process_time``, best of N, so
that other processes on a shared machine disturb it less):

* a Xiangqi position after a line of 50, 200 and 600 plies (the bound),
  every move checked by the rules core, with the legal moves and the
  Chinese notation of the line (``POST /api/analysis/position``);
* a Go position after a 19x19 game of GNU Go's (224 moves) with its
  forbidden points and SGF;
* the rebuild of a casual game from its log when a takeback is agreed
  (the referee replays the events up to the position taken back to).

The lines are random legal moves from a fixed seed, so runs compare.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from qisai.referee.events import Event, EventType
from qisai.referee.verdict import Side
from qisai.web.analysis.positions import go_position, xiangqi_position
from qisai.web.play.referee_games import new_referee_game
from qisai.web.play.takeback import replay
from qisai.xiangqi import Board

GO_GAMES = Path(__file__).resolve().parent.parent / "tests" / "go" / "data" / "gnugo_19x19.json"


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def random_line(plies: int, seed: int = 17) -> list[str]:
    rng = random.Random(seed)
    b = Board()
    line: list[str] = []
    while len(line) < plies:
        moves = b.legal_moves()
        if not moves:  # mate or stalemate: start another line from here
            b = Board()
            line.clear()
            continue
        mv = rng.choice(moves)
        line.append(mv.iccs())
        b.push(mv)
    return line


def takeback_log(line: list[str]) -> list[dict[str, Any]]:
    """A casual game's log: start, the moves a second apart, an agreed
    takeback of two plies."""
    log = [Event(EventType.START, 0.0).to_dict()]
    for i, mv in enumerate(line):
        side = Side.FIRST if i % 2 == 0 else Side.SECOND
        log.append(Event(EventType.MOVE, float(i + 1), side, move=mv).to_dict())
    log.append({"type": "takeback_offer", "at": len(line) + 1.0, "side": "first"})
    log.append({"type": "takeback_accept", "at": len(line) + 2.0, "side": "second", "plies": 2})
    return log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print("analysis board: one request (CPU ms, best of", args.repeat, "runs)")
    for plies in (50, 200, 600):
        line = random_line(plies)
        ms = best(lambda line=line: xiangqi_position(None, line), args.repeat) * 1000
        print(f"  xiangqi position after {plies:3d} plies   {ms:8.2f} ms")
    game = json.loads(GO_GAMES.read_text())[0]
    moves = [v for _, v in game["moves"]]
    ms = best(lambda: go_position(19, None, moves), args.repeat) * 1000
    print(f"  go 19x19 position after {len(moves)} moves {ms:8.2f} ms")
    print("takeback: rebuilding the game from its log (CPU ms)")
    for plies in (40, 120, 300):
        line = random_line(plies, seed=plies)
        log = takeback_log(line)

        def rebuild(log: list[dict[str, Any]] = log, kept: int = plies - 2) -> None:
            g = replay(lambda: new_referee_game("xiangqi", "casual", {"time": None}, None), log)
            assert len(g.moves) == kept

        ms = best(rebuild, args.repeat) * 1000
        print(f"  casual game of {plies:3d} plies, 2 taken back {ms:8.2f} ms")


if __name__ == "__main__":
    main()
