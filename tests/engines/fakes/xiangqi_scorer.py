"""A UCI Xiangqi engine for the tests that always reports the same score:
``python xiangqi_scorer.py CP``.

At ``go`` it plays a legal move of the position it was given (the
``ply``-th of the sorted legal moves, so games differ from move to move but
repeat from run to run) and reports ``score cp CP`` from its own side, as
engines do: a negative CP says it is losing.  For score adjudication tests.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # this checkout's qisai

from qisai.xiangqi.board import Board
from qisai.xiangqi.squares import Move


def main() -> None:
    cp = int(sys.argv[1])
    board = Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            print("id name Scorer " + str(cp))
            print("uciok")
        elif cmd == "isready":
            print("readyok")
        elif cmd == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
            end = words.index("moves") if "moves" in words else len(words)
            board = Board() if words[1] == "startpos" else Board(" ".join(words[2:end]))
            for m in moves:
                board.push(Move.from_iccs(m))
        elif cmd == "go":
            legal = sorted(board.legal_moves())
            move = legal[len(board.move_stack) % len(legal)].iccs()
            print(f"info depth 1 score cp {cp} nodes 1 pv {move}")
            print("bestmove " + move)
        elif cmd == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
