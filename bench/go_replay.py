"""Benchmark: replay 19x19 games with qisai (full legality) and with sgfmill.

Usage::

    python3 bench/go_replay.py [--repeat N]

qisai checks everything on every move: occupancy, forbidden points (suicide),
simple ko and positional superko (禁止全局同形再现).  sgfmill's
``boards.Board.play`` checks none of suicide, ko or superko.  Both replay the
same move lists (SGF parsing is not timed).  Also printed: the time to list
all legal points of a mid-game 19x19 position, and to count a finished
19x19 game with its dead stones (area and territory).

Times are CPU time of this process (``time.process_time``), best of N runs,
so that other processes on a shared machine disturb them less.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sgfmill import boards

from qisai.go.board import Board
from qisai.go.coords import parse_gtp
from qisai.go.rules import CHINESE, JAPANESE, Color
from qisai.go.scoring import score

DATA = Path(__file__).resolve().parent.parent / "tests" / "go" / "data" / "gnugo_19x19.json"


def load_games() -> list[dict]:
    games = json.loads(DATA.read_text())
    for game in games:
        game["points"] = [
            (Color.from_letter(c), parse_gtp(v, 19)) for c, v in game["moves"]
        ]
        game["handicap_points"] = [parse_gtp(v, 19) for v in game["setup_black"]]
    return games


def replay_qisai(games: list[dict]) -> int:
    moves = 0
    for game in games:
        board = Board(19, CHINESE)
        if game["handicap_points"]:
            board.place_handicap(len(game["handicap_points"]), game["handicap_points"])
        play = board.play
        for color, point in game["points"]:
            play(point, color)
        moves += len(game["points"])
    return moves


def replay_sgfmill(games: list[dict]) -> int:
    moves = 0
    for game in games:
        board = boards.Board(19)
        for row, col in game["handicap_points"]:
            board.play(row, col, "b")
        for color, point in game["points"]:
            if point is not None:
                board.play(point[0], point[1], "b" if color is Color.BLACK else "w")
        moves += len(game["points"])
    return moves


def best_rate(fn, games: list[dict], repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = 0.0
    for _ in range(repeat):
        start = time.process_time()
        moves = fn(games)
        elapsed = time.process_time() - start
        best = max(best, moves / elapsed)
    return best


def time_call(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Return the best time of ``fn()`` in seconds over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    games = load_games()
    total = sum(len(g["points"]) for g in games)
    print(f"{len(games)} games of 19x19, {total} moves (GNU Go self-play fixtures)")
    # Interleaved, best of N each, so that load from other processes hits both.
    q = s = 0.0
    for _ in range(args.repeat):
        q = max(q, best_rate(replay_qisai, games, 1))
        s = max(s, best_rate(replay_sgfmill, games, 1))
    print(f"qisai   (suicide, ko, positional superko checked): {q:10,.0f} moves/s")
    print(f"sgfmill (no suicide/ko/superko checks):            {s:10,.0f} moves/s")
    print(f"ratio qisai/sgfmill: {q / s:.2f}")

    game = games[0]
    board = Board(19, CHINESE)
    for color, point in game["points"][: len(game["points"]) // 2]:
        board.play(point, color)
    legal = board.legal_points()
    t = time_call(board.legal_points, 200)
    print(f"legal points, mid-game 19x19 (move {board.move_number}, {len(legal)} legal): "
          f"{t * 1e6:.0f} us")

    final = Board(19, CHINESE)
    for color, point in game["points"]:
        final.play(point, color)
    dead = game["dead"]
    t_area = time_call(lambda: score(final, dead, rules=CHINESE), 50)
    t_terr = time_call(lambda: score(final, dead, rules=JAPANESE), 50)
    print(f"count a finished 19x19 game: area {t_area * 1e3:.2f} ms, "
          f"territory (with seki search) {t_terr * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
